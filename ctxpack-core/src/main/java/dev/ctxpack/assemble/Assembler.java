package dev.ctxpack.assemble;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Trace;
import dev.ctxpack.pack.Budgets;
import dev.ctxpack.pack.BudgetTooSmallException;
import dev.ctxpack.pack.ContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.pack.Strategy;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.RememberingTokenizer;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The orchestrator of {@code assemble}: one token budget, the window less the generation reserve,
 * shared by the system prompt, tools, memories, few-shot examples, history, retrieved evidence and
 * the query. One request runs:
 *
 * <ol>
 *   <li>take the model's tokenizer and window (less its safety margin when its tokenizer is
 *       approximated); the limit is the window less the reserve;
 *   <li>gather the memories: the request's, then what the {@link MemoryStore} recalls for the user;
 *   <li>measure what each component needs ({@link MessageCost} for messages, the serialized schema
 *       for tools; evidence needs its retrieval budget) and what it must have: a pinned component
 *       whole, pinned tools, pinned history turns (with the tool calls they belong to), and its
 *       floor; fail with {@link PinnedOverLimitException} when that alone is over the limit;
 *   <li>serve the components in descending priority (system and query pinned; tools, then evidence
 *       by need; memories; history and few-shot from what is left), each granted its floor plus
 *       what is unreserved, up to its cap, and each giving back what it did not use:
 *       <ul>
 *         <li>tools: ranked by the {@link ToolRanker}; pinned ones always, the others in rank order
 *             while they fit;
 *         <li>evidence: the {@link ContextPacker} packs the query into the grant (the final user
 *             message is the packed prompt: instructions, fenced sources, the question);
 *         <li>memories: one system message, taken in order while they fit;
 *         <li>history: the {@link HistoryCompactor} fits the turns to the grant;
 *         <li>few-shot: the examples most similar to the query that fit ({@link FewShotSelector});
 *       </ul>
 *   <li>lay out the messages: system, memories, few-shot pairs, history, the final user message;
 *       count the budget per component (the reply priming once, in {@code query}); flag every
 *       component over {@value #WASTE_SHARE} of the window with what would shrink it.
 * </ol>
 *
 * Every allocation, kept and dropped tool, memory, example and turn is a decision in the trace.
 * Thread-safe if its components are; the same request gives the same messages.
 */
public final class Assembler {
  /** A component above this share of the window is flagged in the waste report. */
  public static final double WASTE_SHARE = 0.30;
  /** Characters of tool schemas, turns and examples whose counts each tokenizer of this assembler remembers. */
  static final long TOKEN_MEMORY_CHARS = 8_000_000;

  private final ToolRanker toolRanker;
  private final HistoryCompactor compactor;
  private final MemoryStore memoryStore;
  private final ContextPacker packer;
  private final Embedder embedder;
  private final FewShotSelector fewShot;
  private final LanguageDetector languages = new LanguageDetector();
  private final Map<String, RememberingTokenizer> tokenizers = new ConcurrentHashMap<>();

  private Assembler(Builder b) {
    this.toolRanker = b.toolRanker;
    this.compactor = b.compactor;
    this.memoryStore = b.memoryStore;
    this.packer = b.packer;
    this.embedder = b.embedder;
    this.fewShot = new FewShotSelector(b.embedder);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether evidence can be retrieved (a packer is configured). */
  public boolean retrieves() {
    return packer != null;
  }

  /** Per-request state: the measured needs and what has been realised so far. */
  private static final class Work {
    final AssembleRequest r;
    final Tokenizer tok;
    final Trace trace = new Trace();
    final String focus;
    final Language lang;
    final EnumMap<Component, Integer> need = new EnumMap<>(Component.class);
    final EnumMap<Component, Integer> must = new EnumMap<>(Component.class);
    final EnumMap<Component, Integer> used = new EnumMap<>(Component.class);
    List<Memory> memories = List.of();
    int[] toolCost;
    boolean sendSystem;
    boolean sendQuery;
    List<ToolSpec> tools = List.of();
    String memoryText = "";
    List<FewShot> examples = List.of();
    HistoryCompactor.Compacted history;
    ContextPackage evidence;

    Work(AssembleRequest r, Tokenizer tok, String focus, Language lang) {
      this.r = r;
      this.tok = tok;
      this.focus = focus;
      this.lang = lang;
    }
  }

  public Assembly assemble(AssembleRequest r) throws IOException {
    if (r.query().isEmpty() && r.history().isEmpty()) {
      throw new IllegalArgumentException("the query is empty and there is no history: nothing to answer (give 'query')");
    }
    Tokenizer tok = tokenizers.computeIfAbsent(r.model().tokenizer(), n -> new RememberingTokenizer(r.model().tokenizerInstance(), TOKEN_MEMORY_CHARS));
    String focus = r.query().isEmpty() ? lastUserTurn(r.history()) : r.query();
    Work w = new Work(r, tok, focus, languages.detect(focus));
    w.trace.add(Stage.ASSEMBLE, Action.CONFIGURE, "defaults", List.of(), "", 0,
        "model=" + r.model().name() + ", window=" + r.window() + (r.window() != r.contextWindow()
            ? " (" + r.contextWindow() + " less a safety margin of " + r.model().safetyMargin() + ")" : "")
            + ", reserve=" + r.reserve() + ", limit=" + r.limit() + ", tokenizer=" + tok.name()
            + ", tools=" + toolRanker.id() + ", history=" + compactor.id()
            + ", fewShot=" + (embedder != null ? "cosine:" + embedder.id() + " else terms" : "terms")
            + ", retrieval=" + (r.retrieval().isPresent() ? "on" : "off")
            + (r.query().isEmpty() ? ", no query: ranking by the last user turn" : ""));
    gatherMemories(w);
    measure(w);
    allocate(w);
    return finish(w);
  }

  private void gatherMemories(Work w) throws IOException {
    List<Memory> all = new ArrayList<>(w.r.memories());
    if (!w.r.memoryUser().isEmpty()) {
      if (memoryStore == null) {
        throw new IllegalArgumentException("memories of user '" + w.r.memoryUser() + "' were asked for, but no memory store is configured");
      }
      List<Memory> recalled = w.focus.isBlank() ? List.of() : memoryStore.recall(w.r.memoryUser(), w.focus, w.r.memoryK());
      w.trace.add(Stage.MEMORIES, Action.RECALL, "memories:store", recalled.stream().map(Memory::id).toList(), "", 0,
          recalled.size() + " memories of user '" + w.r.memoryUser() + "' recalled (k=" + w.r.memoryK() + ")");
      all.addAll(recalled);
    }
    w.memories = all;
  }

  /** What each component needs whole and what it must have (pinned parts), before any allocation. */
  private void measure(Work w) {
    AssembleRequest r = w.r;
    Tokenizer tok = w.tok;
    w.need.put(Component.SYSTEM, r.system().isEmpty() ? 0 : MessageCost.of(r.system(), tok));
    w.need.put(Component.QUERY, (r.query().isEmpty() ? 0 : MessageCost.of(r.query(), tok)) + MessageCost.REPLY_PRIMING);
    w.toolCost = new int[r.tools().size()];
    int tools = 0;
    int pinnedTools = 0;
    for (int i = 0; i < w.toolCost.length; i++) {
      w.toolCost[i] = tok.count(r.tools().get(i).schemaJson());
      tools += w.toolCost[i];
      if (r.tools().get(i).pinned()) pinnedTools += w.toolCost[i];
    }
    w.need.put(Component.TOOLS, tools);
    int history = 0;
    int pinnedHistory = 0;
    for (int[] u : RecentHistoryCompactor.units(r.history())) {
      int cost = 0;
      boolean pinned = false;
      for (int i = u[0]; i < u[1]; i++) {
        cost += MessageCost.of(r.history().get(i), tok);
        pinned |= r.history().get(i).pinned();
      }
      history += cost;
      if (pinned) pinnedHistory += cost;
    }
    w.need.put(Component.HISTORY, history);
    int examples = 0;
    for (FewShot f : r.fewShot()) examples += f.cost(tok);
    w.need.put(Component.FEW_SHOT, examples);
    w.need.put(Component.MEMORIES, MemoryBlock.need(w.memories, w.lang, tok));
    boolean retrieve = r.retrieval().isPresent() && !r.query().isEmpty();
    w.need.put(Component.EVIDENCE, retrieve ? r.retrieval().get().budget().tokens() : 0);
    for (Component c : Component.values()) {
      ComponentLimit l = r.limit(c);
      int must = l.pinned() ? w.need.get(c) : switch (c) {
        case TOOLS -> pinnedTools;
        case HISTORY -> pinnedHistory;
        case QUERY -> MessageCost.REPLY_PRIMING;
        default -> 0;
      };
      w.must.put(c, must);
    }
  }

  /** The part set aside for {@code c} before anything is served: what it must have, or its floor up to its need and cap. */
  private static int floor(Work w, Component c) {
    ComponentLimit l = w.r.limit(c);
    return Math.max(w.must.get(c), Math.min(l.floor(), Math.min(l.cap(), w.need.get(c))));
  }

  private void allocate(Work w) throws IOException {
    int limit = w.r.limit();
    int reserved = 0;
    StringBuilder parts = new StringBuilder();
    for (Component c : Component.values()) {
      int f = floor(w, c);
      reserved += f;
      if (f > 0) parts.append(parts.length() > 0 ? ", " : "").append(c.key()).append(' ').append(f);
    }
    if (reserved > limit) {
      throw new PinnedOverLimitException(limit, reserved, parts + "; window " + w.r.window() + " − reserve " + w.r.reserve());
    }
    int free = limit - reserved;
    List<Component> order = new ArrayList<>(Arrays.asList(Component.values()));
    // The query is the request itself: served first whatever its priority.
    order.sort(Comparator.comparing((Component c) -> c != Component.QUERY)
        .thenComparing(c -> -w.r.limit(c).priority()).thenComparing(Component::ordinal));
    for (Component c : order) {
      ComponentLimit l = w.r.limit(c);
      int f = floor(w, c);
      int grant = Math.max(f, (int) Math.min(l.cap(), (long) f + free));
      int got = realise(w, c, grant);
      if (got > grant) {
        throw new IllegalStateException(c.key() + " took " + got + " tokens of a grant of " + grant
            + (c == Component.HISTORY ? " (history compactor '" + compactor.id() + "')" : ""));
      }
      w.used.put(c, got);
      free += f - got;
      w.trace.add(Stage.ASSEMBLE, Action.ALLOCATE, "limit:" + c.key(), List.of(c.key()), "", Math.max(0, w.need.get(c) - got),
          "need " + w.need.get(c) + " (" + l.describe() + "): granted " + grant + ", used " + got);
    }
  }

  private int realise(Work w, Component c, int grant) throws IOException {
    AssembleRequest r = w.r;
    return switch (c) {
      case SYSTEM -> {
        w.sendSystem = !r.system().isEmpty() && w.need.get(c) <= grant;
        if (!r.system().isEmpty() && !w.sendSystem) dropWhole(w, c, grant);
        yield w.sendSystem ? w.need.get(c) : 0;
      }
      case QUERY -> {
        w.sendQuery = !r.query().isEmpty() && w.need.get(c) <= grant;
        if (!r.query().isEmpty() && !w.sendQuery) dropWhole(w, c, grant);
        yield w.sendQuery ? w.need.get(c) : MessageCost.REPLY_PRIMING;
      }
      case TOOLS -> tools(w, grant);
      case EVIDENCE -> evidence(w, grant);
      case MEMORIES -> {
        MemoryBlock.Chosen m = MemoryBlock.choose(w.memories, w.lang, grant, w.tok, w.trace);
        w.memoryText = m.text();
        yield m.tokens();
      }
      case HISTORY -> {
        if (r.history().isEmpty()) {
          w.history = new HistoryCompactor.Compacted(List.of(), 0, 0, 0);
          yield 0;
        }
        w.history = compactor.compact(w.focus, r.history(), grant, w.tok, w.trace);
        int cost = 0;
        for (Turn t : w.history.turns()) cost += MessageCost.of(t, w.tok);
        yield cost;
      }
      case FEW_SHOT -> {
        FewShotSelector.Chosen f = fewShot.select(w.focus, r.fewShot(), grant, w.tok, w.trace);
        w.examples = f.examples();
        yield f.tokens();
      }
    };
  }

  private static void dropWhole(Work w, Component c, int grant) {
    w.trace.add(Stage.ASSEMBLE, Action.DROP, "limit:" + c.key(), List.of(c.key()), "", w.need.get(c),
        "not pinned and its " + w.need.get(c) + " tokens do not fit the " + grant + " granted");
  }

  private int tools(Work w, int grant) throws IOException {
    ToolSelection.Chosen c = ToolSelection.select(toolRanker, w.focus, w.r.tools(), w.toolCost, grant, w.trace);
    w.tools = c.tools();
    return c.tokens();
  }

  /**
   * Packs the query into at most {@code grant} tokens of evidence, and no more than its retrieval
   * budget; the packed prompt replaces the bare query as the final message.
   */
  private int evidence(Work w, int grant) throws IOException {
    Optional<PackOptions> o = w.r.retrieval();
    if (o.isEmpty() || !w.sendQuery) return 0;
    if (packer == null) throw new IllegalArgumentException("retrieval was asked for, but no index is configured");
    if (grant <= 0) {
      w.trace.add(Stage.EVIDENCE, Action.SKIP, "evidence:no-room", List.of(), "", 0, "no tokens left for evidence");
      return 0;
    }
    int q = w.tok.count(w.r.query());
    // The grant may hold all the window's free room; the evidence asks for its retrieval budget only,
    // since pack fills whatever budget it is given. A window's evidence is one prompt (its final
    // message), never a plan of calls.
    int budget = (int) Math.min(Budgets.MAX, (long) Math.min(grant, w.need.get(Component.EVIDENCE)) + q);
    ContextPackage p;
    try {
      p = packer.pack(w.r.query(), o.get().toBuilder().budget(budget).model(w.r.model(), 0)
          .strategy(Strategy.STUFF).fallback(Strategy.STUFF).build());
    } catch (BudgetTooSmallException e) {
      w.trace.add(Stage.EVIDENCE, Action.SKIP, "evidence:too-small", List.of(), "", 0,
          "the " + grant + " tokens granted cannot hold the evidence instructions: " + e.getMessage());
      return 0;
    }
    for (Decision d : p.trace()) w.trace.add(d);
    if (p.sources().isEmpty() && p.evidence().insufficient()) {
      // Nothing cleared the relevance line: the final message asks the model to abstain, and the
      // tokens the evidence did not use go back to the components served after it.
      int note = MessageCost.of(p.prompt(), w.tok) - MessageCost.of(w.r.query(), w.tok);
      w.trace.add(Stage.EVIDENCE, Action.SKIP, "evidence:insufficient", List.of(), "", 0,
          "no evidence cleared the relevance line: the final message asks the model to abstain (" + note + " tokens)");
      if (note < 0 || note > grant) return 0;
      w.evidence = p;
      return note;
    }
    if (p.sources().isEmpty()) {
      w.trace.add(Stage.EVIDENCE, Action.SKIP, "evidence:none", List.of(), "", 0, "retrieval kept no source: the query is sent alone");
      return 0;
    }
    int extra = MessageCost.of(p.prompt(), w.tok) - MessageCost.of(w.r.query(), w.tok);
    if (extra < 0 || extra > grant) {
      w.trace.add(Stage.EVIDENCE, Action.SKIP, "evidence:count", List.of(), "", 0,
          "the packed prompt costs " + extra + " tokens beyond the query, outside [0, " + grant + "]: the query is sent alone");
      return 0;
    }
    w.evidence = p;
    return extra;
  }

  private Assembly finish(Work w) {
    AssembleRequest r = w.r;
    List<Assembly.Message> messages = new ArrayList<>();
    if (w.sendSystem) messages.add(new Assembly.Message(Turn.of("system", r.system()), Component.SYSTEM));
    if (!w.memoryText.isEmpty()) messages.add(new Assembly.Message(Turn.of("system", w.memoryText), Component.MEMORIES));
    for (FewShot f : w.examples) {
      messages.add(new Assembly.Message(Turn.of("user", f.input()), Component.FEW_SHOT));
      messages.add(new Assembly.Message(Turn.of("assistant", f.output()), Component.FEW_SHOT));
    }
    for (Turn t : w.history.turns()) messages.add(new Assembly.Message(t, Component.HISTORY));
    if (w.sendQuery) {
      String content = w.evidence != null ? w.evidence.prompt() : r.query();
      messages.add(new Assembly.Message(Turn.of("user", content), Component.QUERY));
    }
    int used = 0;
    EnumMap<Component, Integer> by = new EnumMap<>(Component.class);
    for (Component c : Component.values()) {
      by.put(c, w.used.get(c));
      used += w.used.get(c);
    }
    Assembly.WindowBudget budget = new Assembly.WindowBudget(r.window(), r.reserve(), r.limit(), used, by);
    List<Assembly.WasteFlag> waste = WasteReport.flags(r, by);
    for (Assembly.WasteFlag f : waste) {
      w.trace.add(Stage.ASSEMBLE, Action.FLAG, "waste:" + f.component().key(), List.of(f.component().key()), "", 0,
          f.component().key() + " takes " + f.tokens() + " tokens, " + percent(f.share()) + " of the window: " + f.shrink());
    }
    w.trace.add(Stage.ASSEMBLE, Action.RENDER, "messages", List.of(), "", 0, messages.size() + " messages and " + w.tools.size()
        + " tools, " + used + " of " + r.limit() + " tokens");
    return new Assembly(messages, w.tools, Optional.ofNullable(w.evidence), budget, waste, historyReport(r, w.history),
        w.trace.decisions());
  }

  private Assembly.HistoryReport historyReport(AssembleRequest r, HistoryCompactor.Compacted c) {
    // Turns of the request not sent as they were: left out, summarised or pruned.
    Map<Turn, Integer> sent = new java.util.HashMap<>();
    for (Turn t : c.turns()) sent.merge(t, 1, Integer::sum);
    int missing = 0;
    for (Turn t : r.history()) {
      Integer n = sent.get(t);
      if (n == null || n == 0) missing++;
      else sent.put(t, n - 1);
    }
    int dropped = Math.max(0, missing - c.summarised() - c.pruned());
    return new Assembly.HistoryReport(r.history().size(), c.turns().size(), dropped, c.summarised(), c.pruned(), compactor.id());
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  private static String lastUserTurn(List<Turn> history) {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i).role().equals("user")) return history.get(i).content();
    }
    return "";
  }

  /**
   * Components with defaults: tools in request order ({@link ToolRanker#inOrder()}), the {@link
   * RecentHistoryCompactor}, no memory store (a request naming a user then fails), no packer (a
   * request asking for retrieval then fails), and few-shot examples chosen by shared terms (an
   * embedder adds cosine similarity).
   */
  public static final class Builder {
    private ToolRanker toolRanker = ToolRanker.inOrder();
    private HistoryCompactor compactor = new RecentHistoryCompactor();
    private MemoryStore memoryStore;
    private ContextPacker packer;
    private Embedder embedder;

    private Builder() {}

    public Builder toolRanker(ToolRanker r) {
      this.toolRanker = java.util.Objects.requireNonNull(r, "toolRanker");
      return this;
    }

    public Builder historyCompactor(HistoryCompactor h) {
      this.compactor = java.util.Objects.requireNonNull(h, "historyCompactor");
      return this;
    }

    public Builder memoryStore(MemoryStore m) {
      this.memoryStore = m;
      return this;
    }

    public Builder packer(ContextPacker p) {
      this.packer = p;
      return this;
    }

    public Builder embedder(Embedder e) {
      this.embedder = e;
      return this;
    }

    public Assembler build() {
      return new Assembler(this);
    }
  }
}
