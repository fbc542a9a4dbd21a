package dev.ctxpack.springai;

import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Source;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.Verifier;
import dev.ctxpack.verify.VerifySource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.AdvisorChain;
import org.springframework.ai.chat.client.advisor.api.BaseAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;
import org.springframework.core.Ordered;
import reactor.core.publisher.Flux;

/**
 * A Spring AI advisor that gives the model's window one budget for the system prompt, the evidence
 * and the chat memory, and checks the answer's citations. Per call:
 *
 * <ol>
 *   <li>the question is the last user message; the history is every message before it except the
 *       system messages (those a memory advisor added included);
 *   <li>evidence: the documents of each {@link Builder#documentRetriever retriever} (any {@link
 *       DocumentRetriever}: a {@code VectorStoreDocumentRetriever}, a {@link CtxpackDocumentRetriever})
 *       interleaved by rank, after the documents the caller put in the request context under {@link
 *       #DOCUMENTS};
 *   <li>the limit is {@link Builder#contextWindow} less {@link Builder#reserveTokens}; after the
 *       system messages, the evidence is packed ({@link CtxpackDocumentPostProcessor}: dedup, MMR,
 *       compression, order, fences) to at most {@link Builder#evidenceTokens} and what is left;
 *   <li>the history gets the rest: the newest messages that fit, whole, the oldest dropped; so unused
 *       evidence room goes to memory, and the request never exceeds the limit ({@link WindowBudget});
 *   <li>the user message becomes ctxpack's prompt (in the question's language); the package and the
 *       budget go in the request context ({@link #PACKAGE}, {@link #BUDGET});
 *   <li>after the model answers, its citations are verified against the sources it was given
 *       ({@link EvidenceVerifier} by default); with {@link Reask#ON_INVALID_CITATIONS} (the default)
 *       an answer citing a label that was not given is asked again once, with the verifier's
 *       feedback; the {@link CitationVerdict} goes in the response context and the chat response's
 *       metadata under {@link #VERDICT}.
 * </ol>
 *
 * <p><b>Order.</b> {@link #DEFAULT_ORDER} runs it after {@code MessageChatMemoryAdvisor} ({@code
 * Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER}) and any advisor of order 0, next to the model, so
 * it sees the messages memory added, memory stores the user's question (not ctxpack's prompt) and the
 * final answer, and a re-ask calls only the model. It replaces {@code QuestionAnswerAdvisor} or
 * {@code RetrievalAugmentationAdvisor} in a chain: both would augment the user message too.
 *
 * <p>Streaming calls are packed and budgeted the same way; their answers are not verified (there is
 * no whole answer to verify in one advisor step). Thread-safe.
 */
public final class CtxpackAdvisor implements BaseAdvisor {
  /** Request context: caller-given {@code List<Document>} to pack with (or instead of) retrieved ones. */
  public static final String DOCUMENTS = "ctxpack_documents";
  /** Request and response context: the {@link ContextPackage} the user message was built from. */
  public static final String PACKAGE = "ctxpack_package";
  /** Request and response context: the {@link WindowBudget}. */
  public static final String BUDGET = "ctxpack_budget";
  /** Response context and chat response metadata: the {@link CitationVerdict}. */
  public static final String VERDICT = "ctxpack_verdict";
  /** After memory (and order-0 advisors), before the model call ({@code Ordered.LOWEST_PRECEDENCE}). */
  public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 1000;

  /** When the advisor asks the model again. */
  public enum Reask {
    /** Never: the verdict is only reported. */
    NEVER,
    /** Once, when the answer cites a label that names no source it was given. */
    ON_INVALID_CITATIONS,
    /** Once, when the answer does not pass verification (invented labels or unsupported claims). */
    ON_FAILURE
  }

  private static final LanguageDetector LANGUAGES = new LanguageDetector();
  private final List<DocumentRetriever> retrievers;
  private final CtxpackDocumentPostProcessor packer;
  private final int evidenceTokens;
  private final int limit;
  private final JointBudget budget;
  private final Verifier verifier;
  private final Reask reask;
  private final int order;

  private CtxpackAdvisor(Builder b) {
    this.retrievers = List.copyOf(b.retrievers);
    this.evidenceTokens = b.evidenceTokens;
    this.limit = b.contextWindow - b.reserveTokens;
    this.budget = new JointBudget(b.tokenizer);
    this.packer = b.postProcessor;
    this.verifier = b.verify ? (b.verifier != null ? b.verifier : EvidenceVerifier.lexical()) : null;
    this.reask = b.reask;
    this.order = b.order;
  }

  /** A builder: 8,192-token window, 1,024 reserved, 3,000 evidence tokens, verification on. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public int getOrder() {
    return order;
  }

  @Override
  public String getName() {
    return "ctxpack";
  }

  /** Steps 1 to 5: packs the evidence, fits the history, rewrites the user message. */
  @Override
  public ChatClientRequest before(ChatClientRequest request, AdvisorChain chain) {
    List<Message> messages = request.prompt().getInstructions();
    int last = lastUser(messages);
    if (last < 0) return request; // nothing to answer: no user message
    UserMessage user = (UserMessage) messages.get(last);
    String question = user.getText();
    List<Message> system = new ArrayList<>();
    List<Message> history = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      if (i == last) continue;
      (messages.get(i).getMessageType() == MessageType.SYSTEM ? system : history).add(messages.get(i));
    }
    int systemTokens = budget.cost(system) - JointBudget.REPLY_PRIMING;
    int room = limit - budget.cost(system) - JointBudget.MESSAGE_OVERHEAD;
    int grant = Math.min(evidenceTokens, room);
    if (grant <= 0) {
      throw new IllegalArgumentException("contextWindow less reserveTokens (" + limit + ") leaves no room for "
          + "evidence after the system messages (" + systemTokens + " tokens)");
    }
    List<Document> evidence = evidence(request, question, history);
    ContextPackage p = packer.withEvidenceTokens(grant).pack(question, evidence);
    UserMessage packed = user.mutate().text(p.prompt()).build();
    int evidenceCost = budget.cost(packed);
    List<Message> kept = budget.fit(history, room + JointBudget.MESSAGE_OVERHEAD - evidenceCost);
    List<Message> out = new ArrayList<>(system);
    out.addAll(kept);
    out.add(packed);
    WindowBudget report = new WindowBudget(limit, systemTokens, evidenceCost, kept.size(),
        budget.cost(kept) - JointBudget.REPLY_PRIMING, history.size() - kept.size(), budget.cost(out));
    return request.mutate()
        .prompt(request.prompt().mutate().messages(out).build())
        .context(PACKAGE, p)
        .context(BUDGET, report)
        .build();
  }

  /** Step 6 for a response: verifies it and records the verdict (no re-ask; see {@link #adviseCall}). */
  @Override
  public ChatClientResponse after(ChatClientResponse response, AdvisorChain chain) {
    ContextPackage p = (ContextPackage) response.context().get(PACKAGE);
    if (verifier == null || p == null) return response;
    Verification v = verify(p, response);
    return withVerdict(response, new CitationVerdict(v, false, v));
  }

  /** Before, the model call, verification and at most one re-ask, then the verdict. */
  @Override
  public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
    ChatClientRequest req = before(request, chain);
    ChatClientResponse resp = chain.nextCall(req);
    ContextPackage p = (ContextPackage) req.context().get(PACKAGE);
    if (verifier == null || p == null) return resp;
    resp = withContext(resp, req);
    Verification first = verify(p, resp);
    if (!shouldReask(first)) return withVerdict(resp, new CitationVerdict(first, false, first));
    ChatClientRequest again = reaskRequest(req, p, text(resp), first);
    ChatClientResponse second = withContext(chain.copy(this).nextCall(again), again);
    return withVerdict(second, new CitationVerdict(verify(p, second), true, first));
  }

  /** Packs and budgets as for a call; the streamed answer is passed through unverified. */
  @Override
  public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
    return Flux.defer(() -> chain.nextStream(before(request, chain))).subscribeOn(getScheduler());
  }

  private boolean shouldReask(Verification v) {
    return switch (reask) {
      case NEVER -> false;
      case ON_INVALID_CITATIONS -> !v.invalidCitations().isEmpty();
      case ON_FAILURE -> !v.passed();
    };
  }

  /** The request again, with the first answer and the verifier's feedback after it, history refitted. */
  private ChatClientRequest reaskRequest(ChatClientRequest req, ContextPackage p, String answer, Verification v) {
    boolean pt = LANGUAGES.detect(p.query()) == Language.PT;
    String labels = String.join(", ", p.sources().stream().map(Source::label).toList());
    String ask = (pt
        ? "A sua resposta tem problemas de citação. Responda novamente à mesma pergunta usando apenas as fontes "
            + "acima e citando apenas os rótulos " + labels + ".\n"
        : "Your answer has citation problems. Answer the same question again using only the sources above and "
            + "citing only the labels " + labels + ".\n") + v.feedback();
    List<Message> msgs = req.prompt().getInstructions();
    List<Message> system = new ArrayList<>();
    List<Message> history = new ArrayList<>();
    for (int i = 0; i < msgs.size() - 1; i++) {
      (msgs.get(i).getMessageType() == MessageType.SYSTEM ? system : history).add(msgs.get(i));
    }
    List<Message> tail = List.of(msgs.get(msgs.size() - 1), new AssistantMessage(answer), new UserMessage(ask));
    int room = limit - budget.cost(system) - budget.cost(tail) + JointBudget.REPLY_PRIMING;
    List<Message> kept = budget.fit(history, Math.max(0, room));
    List<Message> out = new ArrayList<>(system);
    out.addAll(kept);
    out.addAll(tail);
    return req.mutate().prompt(req.prompt().mutate().messages(out).build()).build();
  }

  private List<Document> evidence(ChatClientRequest request, String question, List<Message> history) {
    List<Document> out = new ArrayList<>();
    Object given = request.context().get(DOCUMENTS);
    if (given instanceof List<?> list) {
      for (Object o : list) {
        if (!(o instanceof Document d)) {
          throw new IllegalArgumentException("context " + DOCUMENTS + " must hold Documents, found " + o);
        }
        out.add(d);
      }
    } else if (given != null) {
      throw new IllegalArgumentException("context " + DOCUMENTS + " must be a List<Document>, was " + given.getClass());
    }
    Query query = new Query(question, history, new HashMap<>(request.context()));
    List<List<Document>> found = new ArrayList<>();
    for (DocumentRetriever r : retrievers) found.add(r.retrieve(query));
    for (int rank = 0; found.stream().anyMatch(l -> !l.isEmpty()); rank++) {
      boolean any = false;
      for (List<Document> l : found) {
        if (rank < l.size()) {
          out.add(l.get(rank).mutate().score(null).build());
          any = true;
        }
      }
      if (!any) break;
    }
    return out;
  }

  private Verification verify(ContextPackage p, ChatClientResponse resp) {
    List<VerifySource> sources = p.sources().stream().map(s -> new VerifySource(s.label(), s.text())).toList();
    try {
      return verifier.verify(p.query(), sources, Answer.parse(text(resp)));
    } catch (IOException e) {
      throw new UncheckedIOException("verifying the answer's citations failed", e);
    }
  }

  private static String text(ChatClientResponse r) {
    ChatResponse c = r.chatResponse();
    if (c == null || c.getResult() == null || c.getResult().getOutput() == null) return "";
    String t = c.getResult().getOutput().getText();
    return t == null ? "" : t;
  }

  private static ChatClientResponse withContext(ChatClientResponse resp, ChatClientRequest req) {
    Map<String, Object> ctx = new HashMap<>(resp.context());
    ctx.putIfAbsent(PACKAGE, req.context().get(PACKAGE));
    ctx.putIfAbsent(BUDGET, req.context().get(BUDGET));
    return resp.mutate().context(ctx).build();
  }

  private static ChatClientResponse withVerdict(ChatClientResponse resp, CitationVerdict verdict) {
    ChatResponse c = resp.chatResponse();
    ChatClientResponse.Builder b = resp.mutate().context(VERDICT, verdict);
    if (c != null) b.chatResponse(ChatResponse.builder().from(c).metadata(VERDICT, verdict).build());
    return b.build();
  }

  private static int lastUser(List<Message> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof UserMessage) return i;
    }
    return -1;
  }

  /** Options of a {@link CtxpackAdvisor}; each has a default. */
  public static final class Builder {
    private final List<DocumentRetriever> retrievers = new ArrayList<>();
    private CtxpackDocumentPostProcessor postProcessor = CtxpackDocumentPostProcessor.builder().build();
    private int evidenceTokens = 3000;
    private int contextWindow = 8192;
    private int reserveTokens = 1024;
    private Tokenizer tokenizer = Tokenizers.defaultTokenizer();
    private boolean verify = true;
    private Verifier verifier;
    private Reask reask = Reask.ON_INVALID_CITATIONS;
    private int order = DEFAULT_ORDER;

    private Builder() {}

    /** Adds a retriever whose documents are packed for each call (several are interleaved by rank). */
    public Builder documentRetriever(DocumentRetriever r) {
      retrievers.add(Objects.requireNonNull(r, "documentRetriever"));
      return this;
    }

    /** Adds retrievers, as {@link #documentRetriever} each. */
    public Builder documentRetrievers(List<? extends DocumentRetriever> rs) {
      rs.forEach(this::documentRetriever);
      return this;
    }

    /** The most tokens ctxpack's prompt (instructions, sources, question) may take of the window. */
    public Builder evidenceTokens(int tokens) {
      if (tokens <= 0) throw new IllegalArgumentException("evidenceTokens must be > 0, was " + tokens);
      this.evidenceTokens = tokens;
      return this;
    }

    /** The model's context window in tokens. */
    public Builder contextWindow(int tokens) {
      if (tokens <= 0) throw new IllegalArgumentException("contextWindow must be > 0, was " + tokens);
      this.contextWindow = tokens;
      return this;
    }

    /** Tokens of the window kept free for the reply. */
    public Builder reserveTokens(int tokens) {
      if (tokens < 0) throw new IllegalArgumentException("reserveTokens must be >= 0, was " + tokens);
      this.reserveTokens = tokens;
      return this;
    }

    /** The post-processor that packs the evidence (its options and packer; its budget is replaced per call). */
    public Builder postProcessor(CtxpackDocumentPostProcessor p) {
      this.postProcessor = Objects.requireNonNull(p, "postProcessor");
      return this;
    }

    /** The tokenizer the window is counted with (o200k_base by default; match the model's). */
    public Builder tokenizer(Tokenizer t) {
      this.tokenizer = Objects.requireNonNull(t, "tokenizer");
      return this;
    }

    /** Whether answers are verified (default true). */
    public Builder verify(boolean on) {
      this.verify = on;
      return this;
    }

    /** The verifier; {@link EvidenceVerifier#lexical()} by default. */
    public Builder verifier(Verifier v) {
      this.verifier = Objects.requireNonNull(v, "verifier");
      return this;
    }

    /** When to ask the model once more ({@link Reask#ON_INVALID_CITATIONS} by default). */
    public Builder reask(Reask r) {
      this.reask = Objects.requireNonNull(r, "reask");
      return this;
    }

    /** The advisor's order ({@link #DEFAULT_ORDER}); keep it above the memory advisor's. */
    public Builder order(int order) {
      this.order = order;
      return this;
    }

    /**
     * The advisor.
     *
     * @throws IllegalArgumentException when the reserve leaves nothing of the window
     */
    public CtxpackAdvisor build() {
      if (reserveTokens >= contextWindow) {
        throw new IllegalArgumentException("reserveTokens " + reserveTokens + " leaves nothing of contextWindow "
            + contextWindow);
      }
      return new CtxpackAdvisor(this);
    }
  }
}
