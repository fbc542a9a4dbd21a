package dev.ctxpack.langchain4j;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.pack.EvidencePacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.token.Tokenizer;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.injector.ContentInjector;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link ContentInjector} whose user message is ctxpack's prompt: the instructions of the
 * template in the question's language (Portuguese or English), the sources labelled {@code S1}...
 * in fences with the request's boundary token, injection warnings, the notes on sources that
 * disagree, and the question.
 *
 * <ol>
 *   <li>Contents packed by {@link CtxpackContentAggregator} (all of one {@link PackedEvidence}) are
 *       sent as that packing rendered them: nothing is packed twice, no label moves.
 *   <li>Any other contents (LangChain4j's own aggregators) are packed here first, to {@link
 *       Builder#evidenceTokens} or what {@link Builder#contextWindow} less {@link Builder#reserve}
 *       leaves. A {@code ContentInjector} is not shown the chat memory; to share one budget with
 *       memory, let the aggregator pack.
 *   <li>No contents: the message goes on unchanged.
 * </ol>
 *
 * The returned message keeps the original's name, attributes and non-text contents (images...).
 * Thread-safe.
 */
public final class CtxpackContentInjector implements ContentInjector {
  private final Packing packing;
  private final Consumer<PackedEvidence> listener;

  private CtxpackContentInjector(Builder b) {
    this.packing = b.packing();
    this.listener = b.listener;
  }

  /** A builder with ctxpack's defaults (used only for contents the aggregator did not pack). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@code chatMessage} with ctxpack's prompt over {@code contents} as its text.
   *
   * @throws IllegalArgumentException when the message is not a {@link UserMessage} or has no text
   */
  @Override
  public ChatMessage inject(List<Content> contents, ChatMessage chatMessage) {
    if (!(chatMessage instanceof UserMessage user)) {
      throw new IllegalArgumentException("chatMessage must be a UserMessage, was "
          + (chatMessage == null ? "null" : chatMessage.type()));
    }
    if (contents == null || contents.isEmpty()) return chatMessage;
    return withPrompt(user, evidence(contents, user).prompt());
  }

  /** The packing {@code contents} stand for: the aggregator's when it packed them all, else packed here. */
  PackedEvidence evidence(List<Content> contents, UserMessage user) {
    Optional<PackedEvidence> packed = PackedEvidence.of(contents);
    if (packed.isPresent() && packed.get().packedContents().size() == contents.size()) return packed.get();
    String question = text(user);
    if (question.isBlank()) throw new IllegalArgumentException("chatMessage has no text to answer");
    PackedEvidence e = packing.pack(question, null, List.of(contents), false);
    listener.accept(e);
    return e;
  }

  private static UserMessage withPrompt(UserMessage user, String prompt) {
    List<dev.langchain4j.data.message.Content> parts = new ArrayList<>();
    parts.add(TextContent.from(prompt));
    for (var c : user.contents()) if (!(c instanceof TextContent)) parts.add(c);
    UserMessage.Builder b = UserMessage.builder().contents(parts).attributes(user.attributes());
    if (user.name() != null) b.name(user.name());
    return b.build();
  }

  private static String text(UserMessage u) {
    if (u.hasSingleText()) return u.singleText();
    StringBuilder sb = new StringBuilder();
    for (var c : u.contents()) if (c instanceof TextContent t) sb.append(sb.length() > 0 ? "\n" : "").append(t.text());
    return sb.toString();
  }

  /** Options of a {@link CtxpackContentInjector}, for contents it packs itself. */
  public static final class Builder {
    private final EvidencePacker.Builder packer = EvidencePacker.builder();
    private EvidencePacker prebuilt;
    // The budget filled, without the relevance line: a framework's injector cannot carry an
    // abstention (given no content it sends the bare question), and a question asking two things
    // can lose the sentence of its weaker half to the relative line, so a right answer citing it
    // fails the citation guardrail (whose abstention judgement is the line's own gate).
    // The line is one option away: options(PackOptions.builder().onInsufficient(BEST_EFFORT).build()).
    private PackOptions options = PackOptions.builder().minRelevance(0).build();
    private int evidenceTokens;
    private int contextWindow;
    private int reserve;
    private Tokenizer tokenizer;
    private boolean inferOffsets;
    private Consumer<PackedEvidence> listener = e -> { };

    private Builder() {}

    /** The most tokens the user message may take (instructions, fenced sources, question). */
    public Builder evidenceTokens(int tokens) {
      if (tokens < 1) throw new IllegalArgumentException("evidenceTokens must be >= 1, was " + tokens);
      this.evidenceTokens = tokens;
      return this;
    }

    /** The model's context window; the user message gets what it leaves after {@link #reserve} and the overheads. */
    public Builder contextWindow(int tokens) {
      if (tokens < 1) throw new IllegalArgumentException("contextWindow must be >= 1, was " + tokens);
      this.contextWindow = tokens;
      return this;
    }

    /** The tokens of the context window kept for the answer (default 0). */
    public Builder reserve(int tokens) {
      if (tokens < 0) throw new IllegalArgumentException("reserve must be >= 0, was " + tokens);
      this.reserve = tokens;
      return this;
    }

    /** The tokenizer budgets are counted with (o200k_base by default). */
    public Builder tokenizer(Tokenizer t) {
      this.tokenizer = Objects.requireNonNull(t, "tokenizer");
      packer.tokenizer(t);
      return this;
    }

    /** An embedder for semantic dedup, MMR and compression; none by default. */
    public Builder embedder(Embedder e) {
      packer.embedder(e);
      return this;
    }

    /** ctxpack's request options: template, injection policy, order, compression, PII redaction... */
    public Builder options(PackOptions o) {
      this.options = Objects.requireNonNull(o, "options");
      return this;
    }

    /** A packer built elsewhere; replaces the tokenizer and embedder set here. */
    public Builder packer(EvidencePacker p) {
      this.prebuilt = Objects.requireNonNull(p, "packer");
      return this;
    }

    /** Opt-in: infer offsets of same-document segments from overlapping text, as the aggregator's option. */
    public Builder inferOffsets(boolean on) {
      this.inferOffsets = on;
      return this;
    }

    /** Called with the {@link PackedEvidence} of every packing done here; a no-op by default. */
    public Builder listener(Consumer<PackedEvidence> l) {
      this.listener = Objects.requireNonNull(l, "listener");
      return this;
    }

    Packing packing() {
      CtxpackTokenCountEstimator tokens = tokenizer == null ? new CtxpackTokenCountEstimator() : new CtxpackTokenCountEstimator(tokenizer);
      return new Packing(prebuilt != null ? prebuilt : packer.build(), options,
          new Budgeting(evidenceTokens, contextWindow, reserve, tokens), inferOffsets);
    }

    /**
     * The injector.
     *
     * @throws IllegalArgumentException when the reserve leaves nothing of the context window
     */
    public CtxpackContentInjector build() {
      return new CtxpackContentInjector(this);
    }
  }
}
