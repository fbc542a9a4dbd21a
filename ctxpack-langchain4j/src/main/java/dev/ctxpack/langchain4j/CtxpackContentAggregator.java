package dev.ctxpack.langchain4j;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.pack.EvidencePacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.token.Tokenizer;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.aggregator.ContentAggregator;
import dev.langchain4j.rag.query.Metadata;
import dev.langchain4j.rag.query.Query;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link ContentAggregator} that packs what every retriever returned for every query with
 * ctxpack. One call:
 *
 * <ol>
 *   <li>hands the contents to the wrapped aggregator when there is one ({@link
 *       Builder#delegate}: LangChain4j's {@code DefaultContentAggregator} fusion or {@code
 *       ReRankingContentAggregator}) and takes its list as ranked; otherwise every list of every query
 *       is taken as it is, ranked by reciprocal rank;
 *   <li>turns each content into a ctxpack candidate (its segment metadata read as {@link
 *       CtxpackMetadata} describes); every occurrence is kept, so a chunk two retrievers returned is
 *       merged by content, not lost or kept twice because its metadata differ;
 *   <li>grants a budget: {@link Builder#evidenceTokens}, or what {@link Builder#contextWindow} less
 *       {@link Builder#reserve} leaves after the chat memory and system message the query's {@link
 *       Metadata} carries;
 *   <li>packs them ({@link EvidencePacker}): the dedup cascade (exact, near, overlap stitching by
 *       offsets, semantic with an embedder) with merged provenance, MMR, verbatim compression to the
 *       budget, conflicts, ordering and ctxpack's prompt with labels and fences;
 *   <li>returns one {@link PackedContent} per source, in prompt order, each reaching the call's
 *       {@link PackedEvidence} (the trace of every merge, stitch and drop), which also goes to the
 *       {@link Builder#listener}.
 * </ol>
 *
 * <pre>{@code
 * ContentAggregator aggregator = CtxpackContentAggregator.builder().evidenceTokens(1500).build(); // no index, no model
 * }</pre>
 *
 * Pair it with {@link CtxpackContentInjector}, which sends the prompt this aggregator packed as it
 * is. Thread-safe: each call has its own state and result.
 */
public final class CtxpackContentAggregator implements ContentAggregator {
  private final ContentAggregator delegate;
  private final Packing packing;
  private final Consumer<PackedEvidence> listener;

  private CtxpackContentAggregator(Builder b) {
    this.delegate = b.delegate;
    this.packing = b.packing();
    this.listener = b.listener;
  }

  /** A builder with ctxpack's defaults: no index, no model, the options' budget (4,000 tokens). */
  public static Builder builder() {
    return new Builder();
  }

  /** The packed contents, one per source, in prompt order; empty when nothing was retrieved. */
  @Override
  public List<Content> aggregate(Map<Query, Collection<List<Content>>> queryToContents) {
    if (queryToContents == null || queryToContents.isEmpty()) return List.of();
    return pack(queryToContents).contents();
  }

  /**
   * Packs {@code queryToContents} and returns the whole result: what {@link #aggregate} returns is
   * its {@link PackedEvidence#contents()}. The question is the user message the queries came from
   * ({@link Metadata#chatMessage()}), else the first query's text.
   *
   * @throws IllegalArgumentException when there is no query
   */
  public PackedEvidence pack(Map<Query, Collection<List<Content>>> queryToContents) {
    Objects.requireNonNull(queryToContents, "queryToContents");
    if (queryToContents.isEmpty()) throw new IllegalArgumentException("queryToContents holds no query");
    Query first = queryToContents.keySet().iterator().next();
    Metadata metadata = null;
    for (Query q : queryToContents.keySet()) {
      if (q.metadata() != null) {
        metadata = q.metadata();
        break;
      }
    }
    String question = first.text();
    if (metadata != null && metadata.chatMessage() instanceof UserMessage u && u.hasSingleText()) question = u.singleText();
    List<List<Content>> lists = new ArrayList<>();
    boolean fused = delegate != null;
    if (fused) {
      lists.add(delegate.aggregate(queryToContents));
    } else {
      for (Collection<List<Content>> perQuery : queryToContents.values()) lists.addAll(perQuery);
    }
    PackedEvidence e = packing.pack(question, metadata, lists, fused);
    listener.accept(e);
    return e;
  }

  /** Options of a {@link CtxpackContentAggregator}; every one has a default. */
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
    private ContentAggregator delegate;
    private boolean inferOffsets;
    private Consumer<PackedEvidence> listener = e -> { };

    private Builder() {}

    /**
     * The most tokens the packed prompt may take: instructions, fenced sources and question (the
     * sources' text alone is always less). With {@link #contextWindow} too, the smaller of the two.
     */
    public Builder evidenceTokens(int tokens) {
      if (tokens < 1) throw new IllegalArgumentException("evidenceTokens must be >= 1, was " + tokens);
      this.evidenceTokens = tokens;
      return this;
    }

    /**
     * The model's context window: the prompt gets what it leaves after {@link #reserve}, the chat
     * memory and the system message of the request (one budget shared with memory).
     */
    public Builder contextWindow(int tokens) {
      if (tokens < 1) throw new IllegalArgumentException("contextWindow must be >= 1, was " + tokens);
      this.contextWindow = tokens;
      return this;
    }

    /** The tokens of the context window kept for the answer (default 0; only with {@link #contextWindow}). */
    public Builder reserve(int tokens) {
      if (tokens < 0) throw new IllegalArgumentException("reserve must be >= 0, was " + tokens);
      this.reserve = tokens;
      return this;
    }

    /** The tokenizer budgets and memory are counted with (o200k_base by default). */
    public Builder tokenizer(Tokenizer t) {
      this.tokenizer = Objects.requireNonNull(t, "tokenizer");
      packer.tokenizer(t);
      return this;
    }

    /** An embedder for semantic dedup, MMR and compression (e.g. ctxpack-onnx's MiniLmEmbedder); none by default. */
    public Builder embedder(Embedder e) {
      packer.embedder(e);
      return this;
    }

    /** A ctxpack reranker run after the first dedup pass; none by default. */
    public Builder reranker(Reranker r) {
      packer.reranker(r);
      return this;
    }

    /**
     * ctxpack's request options for everything else: template, order, compression, MMR λ, injection
     * policy, PII redaction, the stages on or off. Their budget is the default budget; the strategy is
     * always one prompt.
     */
    public Builder options(PackOptions o) {
      this.options = Objects.requireNonNull(o, "options");
      return this;
    }

    /** A packer built elsewhere (its stages wired by hand); replaces the tokenizer, embedder and reranker set here. */
    public Builder packer(EvidencePacker p) {
      this.prebuilt = Objects.requireNonNull(p, "packer");
      return this;
    }

    /** The aggregator whose fused or reranked list is packed (e.g. {@code new ReRankingContentAggregator(scorer)}); none by default. */
    public Builder delegate(ContentAggregator d) {
      this.delegate = Objects.requireNonNull(d, "delegate");
      return this;
    }

    /**
     * Opt-in: for segments that name a document but no offset, infer their offsets from overlapping
     * text (a suffix of one equal to a prefix of the other) so that overlapping windows are stitched;
     * off by default, when such segments are only compared by the cascade's text rules.
     */
    public Builder inferOffsets(boolean on) {
      this.inferOffsets = on;
      return this;
    }

    /** Called with every call's {@link PackedEvidence}, on the calling thread; a no-op by default. */
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
     * The aggregator.
     *
     * @throws IllegalArgumentException when the reserve leaves nothing of the context window
     */
    public CtxpackContentAggregator build() {
      return new CtxpackContentAggregator(this);
    }
  }
}
