package dev.ctxpack.pack;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.Compressor;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.dedup.CascadeDeduplicator;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.guard.InjectionDetector;
import dev.ctxpack.guard.InjectionGuard;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.BudgetReport;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.GuardReport;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.SourceConflict;
import dev.ctxpack.model.Trace;
import dev.ctxpack.order.DefaultOrderer;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.order.Orderer;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.select.GreedySelector;
import dev.ctxpack.select.MmrSelector;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.function.ToIntFunction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The orchestrator of {@code pack}. One request runs:
 *
 * <ol>
 *   <li>choose the template by the query's language (unless one is given) and measure the fixed
 *       part of the prompt; reject a budget that cannot hold it;
 *   <li>retrieve candidates ({@link Retriever}, hybrid by default);
 *   <li>dedup, conservative (exact, near, overlap), to spare the reranker;
 *   <li>rerank ({@link Reranker}, when one is configured);
 *   <li>dedup, strict (all four levels, guarded), the last chance before the prompt;
 *   <li>select passages to fill the evidence budget, with MMR (λ = 0.7) for diversity, each costed
 *       exactly as its rendered block (with compression on, {@value #OVERSUBSCRIBE} times the
 *       budget, for compression to cut back); when dedup emptied the queue before the budget was
 *       full, refill: retrieve twice as deep (up to {@value #MAX_REFILL_K} candidates) and run again;
 *   <li>compress ({@link Compressor}): keep the sentences of the selected passages that answer the
 *       query, verbatim, until the evidence budget less the blocks' own cost is spent; passages left
 *       with nothing are dropped; every dropped span is in the trace with its reason;
 *   <li>find the passages that disagree ({@link Conflicts}: a number or date the dedup guard tells
 *       apart, or two dated versions of one document) and order them ({@link Orderer},
 *       lost-in-the-middle by default), the newer of each dated pair in the stronger position;
 *   <li>label sources {@code S1}, {@code S2}... in prompt order; with {@link PackOptions#redactPii()} on,
 *       their text has its PII replaced by placeholders first (selection above costs the redacted
 *       blocks too); guard them ({@link InjectionGuard}: strip invisible characters, escape
 *       look-alikes, flag instruction-like spans, on the redacted text; under quarantine, flagged
 *       passages were already dropped before selection) and render ({@link PromptRenderer}) with the
 *       request's boundary token;
 *   <li>with {@link PackOptions#repeatKey()} on, repeat the strongest source's best sentence after the
 *       SOURCES block under its label ({@code KeyPassage}; room for it was set aside before selection);
 *   <li>count the whole prompt exactly and, while it is over the limit, drop the weakest passage (with
 *       one passage left, the repeated key goes first);
 *   <li>report the budget per component, the one-step plan, and the trace.
 * </ol>
 *
 * <p>With a plan strategy ({@link Strategy#MAP_REDUCE}, {@link Strategy#REFINE}, {@link
 * Strategy#TREE}), step 6 draws and compresses to {@code maxCalls - 1} prompts' worth of evidence
 * instead of one, and steps 8 to 10 become {@link PlanBuilder}: the labelled sources laid out as calls
 * that each fit the limit, the weakest passage dropped while the plan needs more than {@code
 * maxCalls} calls. With {@link PackOptions#fallback()} set, a stuff request whose relevant evidence
 * cannot fit (after step 7: the instructions, the query, the text compression kept and every sentence
 * it cut only for room with a probability of holding the answer of at least {@value
 * #FALLBACK_RELEVANCE}, with their passages' blocks, count more than the limit) is packed again as
 * that plan, and says why ({@link ContextPackage#fallback()}, a {@code pack}/{@code fallback} trace
 * line). {@link #executor} runs a plan.
 *
 * Every stage comes in through the {@link Builder}; each can be switched off by {@link PackOptions}.
 * Thread-safe if its stages are.
 */
public final class DefaultContextPacker implements ContextPacker {
  /** The deepest a refill retrieves. */
  public static final int MAX_REFILL_K = 320;
  /** With compression on, selection draws this many times the evidence budget for it to cut back. */
  public static final int OVERSUBSCRIBE = 2;
  /**
   * The fallback's relevance cutoff: a sentence compression cut for room counts as relevant evidence
   * when its calibrated probability of holding the answer is at least this (more likely than not).
   */
  public static final double FALLBACK_RELEVANCE = 0.5;
  /** A passage too large for any call of a plan is compressed further while its text keeps at least this many tokens. */
  static final int MIN_PLAN_TEXT = 24;

  private final Retriever retriever;
  private final Tokenizer tokenizer;
  private final DedupOptions conservative;
  private final DedupOptions strict;
  private final PassageVectors vectors;
  private final Reranker reranker;
  private final Compressor compressor;
  private final Orderer orderer;
  private final PromptRenderer renderer;
  private final StageListener stages;
  private final InjectionGuard guard;
  private final LanguageDetector languageDetector = new LanguageDetector();

  private DefaultContextPacker(Builder b) {
    this.retriever = Objects.requireNonNull(b.retriever, "retriever");
    this.tokenizer = b.tokenizer;
    this.conservative = b.conservative;
    this.strict = b.strict;
    this.vectors = b.vectors;
    this.reranker = b.reranker;
    this.compressor = b.compressor != null ? b.compressor : ExtractiveCompressor.defaults(b.sentenceVectors);
    this.orderer = b.orderer;
    this.renderer = b.renderer;
    this.stages = b.stages;
    this.guard = b.guard;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public ContextPackage pack(String query, PackOptions o) throws IOException {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("query must not be empty");
    boolean planned = o.plan().strategy() != Strategy.STUFF;
    Trace head = new Trace();
    Tokenizer tok = o.budget().model().map(m -> m.tokenizerInstance()).orElse(tokenizer);
    int limit = o.limit();
    Language queryLanguage = languageDetector.detect(query);
    PromptTemplate template = o.layout().template().map(t -> t.forQuery(queryLanguage)).orElse(PromptTemplate.forLanguage(queryLanguage));
    boolean rerank = o.stages().rerank() && reranker != null;
    SourceRedactor pii = SourceRedactor.of(o.safety().redactPii());
    if (pii.on()) head.add(Stage.OPTIONS, Action.CONFIGURE, "pii", List.of(), "", 0, "redact PII: " + o.safety().redactPii().describe());
    // A plan has no single prompt to repeat the key in: the repeat is for stuff prompts.
    KeyPassage keys = o.layout().repeatKey() && !planned ? new KeyPassage(compressor, renderer, guard, query, template.language(), o.safety().injection()) : null;
    if (keys != null) {
      head.add(Stage.OPTIONS, Action.CONFIGURE, "repeat-key", List.of(), "", 0,
          "repeat the strongest source's best sentence (at most " + KeyPassage.MAX_TOKENS + " tokens) before the question");
    }
    head.add(Stage.OPTIONS, Action.CONFIGURE, "defaults", List.of(), "", 0,
        "budget=" + o.budget().tokens() + ", limit=" + limit + ", reserve=" + o.budget().reserve()
            + o.budget().model().map(m -> ", model=" + m.name()).orElse("") + ", tokenizer=" + tok.name()
            + ", strategy=" + o.plan().strategy().key() + ", order=" + (o.stages().reorder() ? o.layout().order().key() : "none")
            + ", dedup=" + (o.stages().dedup() ? "conservative[" + conservative.describe() + "] then strict[" + strict.describe() + "]" : "off")
            + ", rerank=" + (rerank ? reranker.id() : "off")
            + ", mmr=" + (o.stages().mmr() ? "lambda " + o.stages().mmrLambda() : "off")
            + ", compress=" + (o.stages().compress() ? compressorId() : "off")
            + ", template=" + template.name() + " (query language " + queryLanguage.code() + ")"
            + ", injection=" + o.safety().injection().key());

    InjectionPolicy policy = o.safety().injection();
    int base = tok.count(renderer.render(template, query, List.of(), policy).prompt());
    if (base > limit) throw new BudgetTooSmallException(limit, base);
    // The evidence budget of one prompt: what the fixed part leaves, less the room set aside for a repeated key.
    int room = limit - base - (keys == null ? 0 : Math.min(keys.reserve(tok), limit - base));
    String tag = policy == InjectionPolicy.OFF ? "source" : "source-3fa2c19b04de";
    // Cost each passage as a rendered block with a two-digit label (the common case), redacted and
    // guarded as it will be (a typical boundary token); the exact count of the whole prompt below
    // corrects any difference.
    Map<String, Integer> guardedCost = new HashMap<>();
    ToIntFunction<Passage> cost = policy == InjectionPolicy.OFF
        ? p -> tok.count(renderer.block(pii.one(toSource(p, "S10")), tag)) + 1
        : p -> guardedCost.computeIfAbsent(p.id() + '\u0000' + p.text(),
            k -> tok.count(renderer.block(guard.guard(pii.one(toSource(p, "S10")), policy), tag, template.language())) + 1);

    // A plan gathers what maxCalls - 1 prompts hold (one call is left for the step that answers).
    int evidence = planned ? (int) Math.min(Integer.MAX_VALUE / OVERSUBSCRIBE, (long) (o.plan().maxCalls() - 1) * (limit - base))
        : room;
    RetrievalOptions r = o.retrieval();
    Trace trace;
    List<Passage> selected;
    Clock clock = new Clock();
    Memo memo;
    while (true) {
      trace = new Trace();
      for (var d : head.decisions()) trace.add(d);
      List<Candidate> candidates = retriever.retrieve(query, r, trace);
      clock.lap("retrieve");
      memo = new Memo(vectors);
      List<Passage> passages = evidence(query, candidates, o, rerank, tok, memo, trace, clock);
      if (policy == InjectionPolicy.QUARANTINE) passages = quarantine(passages, tok, trace);
      Trace selection = new Trace();
      int draw = o.stages().compress() ? (int) Math.min(Integer.MAX_VALUE, (long) OVERSUBSCRIBE * evidence) : evidence;
      selected = o.stages().mmr()
          ? new MmrSelector(o.stages().mmrLambda(), memo.vectors(passages)).select(passages, draw, cost, selection)
          : new GreedySelector().select(passages, draw, cost, selection);
      int spent = 0;
      for (Passage p : selected) spent += cost.applyAsInt(p);
      boolean queueEmptied = selected.size() == passages.size();
      int removed = candidates.size() - passages.size();
      if (o.stages().dedup() && queueEmptied && removed > 0 && candidates.size() >= r.k() && r.k() < MAX_REFILL_K
          && draw - spent > 0) {
        RetrievalOptions deeper = new RetrievalOptions(r.mode(), Math.min(MAX_REFILL_K, r.k() * 2),
            Math.min(MAX_REFILL_K, r.sparseK() * 2), Math.min(MAX_REFILL_K, r.denseK() * 2));
        head.add(Stage.REFILL, Action.REFILL, "queue-emptied", List.of(), "", 0,
            "dedup removed " + removed + " of " + candidates.size() + " candidates and every passage fit with "
                + (draw - spent) + " tokens left: retrieving again with k=" + deeper.k());
        r = deeper;
        continue;
      }
      clock.lap("select");
      for (var d : selection.decisions()) trace.add(d);
      break;
    }

    Map<String, List<Source.Dropped>> cut = new HashMap<>();
    if (o.stages().compress() && !selected.isEmpty()) {
      Compressed c = compress(query, selected, evidence, cost, tok, trace, cut, policy);
      selected = c.passages();
      clock.lap("compress");
      // Cannot fit: the relevant evidence (what compression kept or cut only for room, with its blocks, the
      // instructions and the query) needs more than the limit. Numbers compression computed anyway.
      int relevant = base + c.relevantTokens();
      if (!planned && o.plan().fallback() != Strategy.STUFF && relevant > limit) return fallback(query, o, relevant, limit);
    }
    List<Conflicts.Found> conflicts = new Conflicts().detect(selected, trace.decisions(), !pii.on());
    List<Passage> ordered = selected;
    if (o.stages().reorder()) {
      Map<String, float[]> topicVectors = o.layout().order() == OrderMode.TOPIC ? memo.vectors(selected) : Map.of();
      ordered = Conflicts.preferNewer(orderer.order(selected, o.layout().order(), topicVectors, trace), conflicts, o.layout().order(), trace);
      clock.lap("order");
    }
    if (planned) return plan(query, o, template, tok, ordered, cut, conflicts, pii, trace, clock, cost);
    List<Passage> kept = new ArrayList<>(ordered);
    while (true) {
      List<Source> sources = pii.all(label(kept, cut)).stream().map(s -> guard.guard(s, policy)).toList();
      PromptRenderer.Rendered rendered = renderer.render(template, query, sources, policy);
      List<SourceConflict> disagree = Conflicts.label(conflicts, sources);
      String note = Conflicts.note(disagree, template.language()); // right after the SOURCES block
      if (!note.isEmpty()) {
        rendered = new PromptRenderer.Rendered(rendered.instructions() + rendered.sources() + note + rendered.query(),
            rendered.instructions(), rendered.sources() + note, rendered.query());
      }
      KeyPassage.Key key = keys == null ? null : keys.of(kept, sources, renderer.tag(query, sources, policy)).orElse(null);
      if (key != null) { // after the SOURCES block and the conflict lines, before the question
        rendered = new PromptRenderer.Rendered(rendered.instructions() + rendered.sources() + key.block() + rendered.query(),
            rendered.instructions(), rendered.sources() + key.block(), rendered.query());
      }
      int used = tok.count(rendered.prompt());
      if (used <= limit) {
        pii.record(sources, trace);
        trace = pii.scrub(trace);
        guardTrace(sources, trace);
        Conflicts.record(disagree, trace);
        int keyTokens = key == null ? 0 : tok.count(key.block());
        if (key != null) KeyPassage.record(key, keyTokens, trace);
        if (keys != null && key == null && !sources.isEmpty()) {
          trace.add(Stage.ORDER, Action.SKIP, "repeat-key:none", List.of(), "", 0,
              "no sentence of the strongest source could be repeated (none scored, or its text holds the fence)");
        }
        ContextPackage done = finish(query, rendered, sources, used, limit, o, tok, trace, disagree);
        if (key != null) done = KeyPassage.withKeyComponent(done, keyTokens);
        clock.lap("render");
        clock.report(stages);
        return done;
      }
      if (key != null && kept.size() == 1) { // the last source stays; its repeat goes
        keys = null;
        trace.add(Stage.ORDER, Action.SKIP, "repeat-key:budget", List.of(key.source().label(), key.source().passage()), "", 0,
            "the rendered prompt counted " + used + " tokens with the repeated key, over the limit of " + limit
                + "; the key is left out rather than the last source");
        continue;
      }
      Passage weakest = kept.stream()
          .min(Comparator.comparingDouble(Passage::score).thenComparing(Passage::id, Comparator.reverseOrder()))
          .orElseThrow();
      kept.remove(weakest);
      trace.add(Stage.SELECT, Action.DROP, "budget:exact-count", List.of(weakest.id()), "", 0,
          "the rendered prompt counted " + used + " tokens, over the limit of " + limit
              + "; dropped the weakest passage");
    }
  }

  /**
   * The stuff request {@code o} as a plan of {@code o.fallback()}: packed again with that strategy,
   * the reason first in its trace and in {@link ContextPackage#fallback()}.
   */
  private ContextPackage fallback(String query, PackOptions o, int relevant, int limit) throws IOException {
    Strategy to = o.plan().fallback();
    ContextPackage p = pack(query, o.toBuilder().strategy(to).fallback(Strategy.STUFF).build());
    String reason = "the relevant evidence needs " + relevant + " tokens in one prompt (the instructions and query, the"
        + " text compression kept and the sentences it cut only for room with p >= " + FALLBACK_RELEVANCE
        + ", with their blocks), over the limit of " + limit
        + ": planned as " + to.key() + " in " + p.plan().size() + " calls";
    Trace t = new Trace();
    t.add(Stage.PACK, Action.FALLBACK, "stuff:cannot-fit", List.of(), to.key(), 0, reason);
    for (var d : p.trace()) t.add(d);
    return new ContextPackage(p.query(), p.prompt(), p.sources(), p.budget(), p.plan(), t.decisions(), p.conflicts(),
        p.strategy(), new ContextPackage.Fallback(Strategy.STUFF.key(), to.key(), relevant, limit, reason));
  }

  /**
   * Lays the ordered passages out as {@code o.strategy()}'s plan ({@link PlanBuilder}): a passage too
   * large for any call alone is compressed to two thirds of its text (again while it does not fit) or,
   * when too little would be left, dropped; and while the plan needs more than {@code o.maxCalls()}
   * calls the weakest passage is dropped, each with a trace line.
   */
  private ContextPackage plan(String query, PackOptions o, PromptTemplate template, Tokenizer tok, List<Passage> ordered,
      Map<String, List<Source.Dropped>> cut, List<Conflicts.Found> conflicts, SourceRedactor pii, Trace trace, Clock clock,
      ToIntFunction<Passage> cost) throws IOException {
    InjectionPolicy policy = o.safety().injection();
    int limit = o.limit();
    List<Passage> kept = new ArrayList<>(ordered);
    PlanBuilder builder = new PlanBuilder(tok, renderer, template, policy, query, limit, o.budget().reserve());
    while (true) {
      List<Source> sources = pii.all(label(kept, cut)).stream().map(s -> guard.guard(s, policy)).toList();
      List<SourceConflict> disagree = Conflicts.label(conflicts, sources);
      String note = Conflicts.note(disagree, template.language());
      PlanBuilder.Built b = builder.build(o.plan().strategy(), sources, note);
      if (!b.tooLarge().isEmpty()) {
        // A passage too large for any call alone is compressed to two thirds of its block, again while it
        // does not fit; one left with too little text is dropped.
        List<Passage> left = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
          Passage p = kept.get(i);
          if (!b.tooLarge().contains("S" + (i + 1))) {
            left.add(p);
            continue;
          }
          int block = cost.applyAsInt(p);
          int text = tok.count(p.text());
          Passage smaller = null;
          if (o.stages().compress() && text * 2 / 3 >= MIN_PLAN_TEXT) {
            List<Passage> c = compress(query, List.of(p), block - text + text * 2 / 3, cost, tok, trace, cut, policy).passages();
            if (!c.isEmpty() && tok.count(c.get(0).text()) < text) smaller = c.get(0);
          }
          if (smaller != null) {
            left.add(smaller);
          } else {
            trace.add(Stage.PLAN, Action.DROP, "plan:too-large", List.of(p.id()), "", text,
                "its block alone does not fit a call of " + limit + " tokens with the step's instructions and the query");
          }
        }
        kept = left;
        continue;
      }
      if (b.steps().size() > o.plan().maxCalls() && !kept.isEmpty()) {
        Passage weakest = kept.stream()
            .min(Comparator.comparingDouble(Passage::score).thenComparing(Passage::id, Comparator.reverseOrder()))
            .orElseThrow();
        kept.remove(weakest);
        trace.add(Stage.PLAN, Action.DROP, "plan:max-calls", List.of(weakest.id()), "", tok.count(weakest.text()),
            "the plan needed " + b.steps().size() + " calls, over the most of " + o.plan().maxCalls() + "; dropped the weakest passage");
        continue;
      }
      pii.record(sources, trace);
      trace = pii.scrub(trace);
      guardTrace(sources, trace);
      Conflicts.record(disagree, trace);
      int used = 0;
      for (PlanStep st : b.steps()) {
        used = Math.max(used, st.tokens());
        trace.add(Stage.PLAN, Action.parse(st.kind()), o.plan().strategy().key(), st.sees(), "step:" + st.step(), 0,
            "step " + st.step() + " (" + st.kind() + ") sees " + String.join(", ", st.sees()) + "; " + st.tokens()
                + " tokens with its inputs at their bounds" + (st.maxOutput() > 0 ? ", output at most " + st.maxOutput() + " tokens" : ""));
      }
      List<String> labels = sources.stream().map(Source::label).toList();
      trace.add(Stage.RENDER, Action.RENDER, o.plan().strategy().key(), labels, "", 0, sources.size() + " sources in a plan of "
          + b.steps().size() + " calls, the largest " + used + " of " + limit + " tokens");
      BudgetReport budget = new BudgetReport(limit, used, o.budget().reserve(), b.largestByComponent());
      List<PlanStep> steps = b.steps();
      clock.lap("render");
      clock.report(stages);
      return new ContextPackage(query, steps.get(steps.size() - 1).prompt(), sources, budget, steps, trace.decisions(),
          disagree, o.plan().strategy().key(), null);
    }
  }

  /** An executor of this packer's plans: {@code llm} (or offline, with this packer's compressor, when null). */
  public PlanExecutor executor(dev.ctxpack.llm.LlmClient llm, PackOptions o) {
    return new PlanExecutor(llm, compressor, o.budget().model().map(m -> m.tokenizerInstance()).orElse(tokenizer));
  }

  /** Drops every passage with an instruction-like span, each recorded with its rules and where they matched. */
  private List<Passage> quarantine(List<Passage> passages, Tokenizer tok, Trace trace) {
    List<Passage> out = new ArrayList<>(passages.size());
    for (Passage p : passages) {
      List<InjectionDetector.Hit> hits = guard.detector().detect(p.text());
      if (hits.isEmpty()) {
        out.add(p);
        continue;
      }
      GuardReport g = guard.inspect(p.text(), p.pieces(), InjectionPolicy.FLAG);
      trace.add(Stage.GUARD, Action.QUARANTINE, g.rules().get(0), List.of(p.id()), "", tok.count(p.text()),
          "instruction-like text (" + String.join(", ", g.rules()) + "): " + where(g.flags()));
    }
    return out;
  }

  /** One decision per source for what the guard stripped, escaped and flagged. */
  private static void guardTrace(List<Source> sources, Trace trace) {
    for (Source s : sources) {
      GuardReport g = s.guard();
      List<String> ids = List.of(s.label(), s.passage());
      if (g.strippedTotal() > 0) {
        trace.add(Stage.GUARD, Action.STRIP, "invisible", ids, "", 0, "stripped invisible characters " + g.stripped());
      }
      if (g.escapedTotal() > 0) trace.add(Stage.GUARD, Action.ESCAPE, "look-alike", ids, "", 0, "escaped " + g.escaped());
      for (String rule : g.rules()) {
        trace.add(Stage.GUARD, Action.FLAG, rule, ids, "", 0,
            where(g.flags().stream().filter(f -> f.rule().equals(rule)).toList()) + "; kept with a warning (policy " + g.policy() + ")");
      }
    }
  }

  private static String where(List<GuardReport.Flag> flags) {
    StringBuilder sb = new StringBuilder();
    for (GuardReport.Flag f : flags) {
      if (sb.length() > 0) sb.append("; ");
      String t = f.text().length() > 60 ? f.text().substring(0, 60) + "…" : f.text();
      sb.append(f.docId().isEmpty() ? "text" : f.docId()).append(" [").append(f.docId().isEmpty() ? f.start() : f.docStart())
          .append(", ").append(f.docId().isEmpty() ? f.end() : f.docEnd()).append(") \"").append(t).append('"');
    }
    return sb.toString();
  }

  private String compressorId() {
    return compressor instanceof ExtractiveCompressor e ? e.scorer().id() : compressor.getClass().getSimpleName();
  }

  /**
   * Compresses the selected passages so that their blocks fit {@code evidence} tokens: the text's
   * budget is what the blocks leave once their labels and metadata are paid for. Each passage keeps
   * its kept spans as pieces at their document offsets; a passage left with nothing is dropped. The
   * spans dropped from each passage go into {@code cut}, by passage id, for its source to show.
   */
  private Compressed compress(String query, List<Passage> selected, int evidence, ToIntFunction<Passage> cost,
      Tokenizer tok, Trace trace, Map<String, List<Source.Dropped>> cut, InjectionPolicy policy) throws IOException {
    List<CompressInput> inputs = new ArrayList<>(selected.size());
    int overhead = 0;
    int textTokens = 0;
    // Under datamark a text costs more in the prompt than plain: the compressor's plain budget is scaled by that.
    long markedTokens = 0;
    Map<String, Integer> blockOverhead = new HashMap<>();
    for (Passage p : selected) {
      List<CompressInput.Part> parts = new ArrayList<>(p.pieces().size());
      for (Passage.Piece piece : p.pieces()) parts.add(new CompressInput.Part(piece.text(), piece.docId(), piece.span().start()));
      List<String> chunkIds = p.sources().stream().map(c -> c.chunk().id()).toList();
      inputs.add(new CompressInput(p.id(), parts, p.primary().doc().title(), p.score(), chunkIds));
      int text = tok.count(p.text());
      textTokens += text;
      int inPrompt = policy == InjectionPolicy.DATAMARK ? tok.count(guard.inspect(p.text(), p.pieces(), policy).promptText()) : text;
      markedTokens += inPrompt;
      int own = Math.max(0, cost.applyAsInt(p) - inPrompt);
      blockOverhead.put(p.id(), own);
      overhead += own;
    }
    int budget = evidence - overhead;
    if (markedTokens > textTokens && budget > 0) budget = (int) ((long) budget * textTokens / markedTokens);
    if (budget <= 0) {
      trace.add(Stage.COMPRESS, Action.SKIP, "budget:blocks", List.of(), "", 0,
          "the blocks' labels and metadata alone take " + overhead + " of " + evidence + " tokens; nothing compressed");
      return new Compressed(selected, 0);
    }
    Compression c = compressor.compress(query, inputs, CompressOptions.budget(budget));
    Map<String, Compression.Compressed> kept = new HashMap<>();
    for (Compression.Compressed k : c.passages()) kept.put(k.id(), k);
    Map<String, Passage> byId = new HashMap<>();
    for (Passage p : selected) byId.put(p.id(), p);
    Map<String, Map<String, Integer>> reasons = new LinkedHashMap<>();
    int roomless = 0; // relevant sentences cut only for room
    java.util.Set<String> relevantPassages = new java.util.HashSet<>(kept.keySet());
    for (Compression.Dropped d : c.dropped()) {
      if (d.reason() == dev.ctxpack.compress.DropReason.BUDGET && d.score() >= FALLBACK_RELEVANCE) {
        roomless += d.tokens();
        relevantPassages.add(d.id());
      }
      Passage p = byId.get(d.id());
      Passage.Piece piece = p.pieces().get(d.span().part());
      int start = piece.span().start() + d.span().start();
      int end = piece.span().start() + d.span().end();
      trace.add(Stage.COMPRESS, Action.DROP, "compress:" + d.reason().key(), List.of(d.id()), "", d.tokens(),
          piece.docId() + " [" + start + ", " + end + ") score " + String.format(java.util.Locale.ROOT, "%.4f", d.score()));
      reasons.computeIfAbsent(d.id(), x -> new LinkedHashMap<>()).merge(d.reason().key(), 1, Integer::sum);
      cut.computeIfAbsent(d.id(), x -> new ArrayList<>()).add(new Source.Dropped(piece.docId(), start, end,
          piece.text().substring(d.span().start(), d.span().end()), d.reason().key(), d.score()));
    }
    List<Passage> out = new ArrayList<>(selected.size());
    for (Passage p : selected) {
      Compression.Compressed k = kept.get(p.id());
      if (k == null) {
        trace.add(Stage.COMPRESS, Action.DROP, "compress:empty", List.of(p.id()), "", tok.count(p.text()),
            "no sentence of the passage was kept (" + reasons.getOrDefault(p.id(), Map.of()) + ")");
        continue;
      }
      List<Passage.Piece> pieces = new ArrayList<>(k.spans().size());
      for (Compression.Span sp : k.spans()) {
        Passage.Piece piece = p.pieces().get(sp.part());
        int start = piece.span().start() + sp.start();
        pieces.add(new Passage.Piece(piece.docId(), new dev.ctxpack.model.Span(start, piece.span().start() + sp.end()),
            piece.text().substring(sp.start(), sp.end())));
      }
      Passage compressed = Passage.of(p.id(), pieces, p.sources(), p.score());
      if (!compressed.text().equals(p.text())) {
        trace.add(Stage.COMPRESS, Action.COMPRESS, compressorId(), List.of(p.id()), "", Math.max(0, tok.count(p.text()) - k.tokens()),
            "kept " + k.spans().size() + " span(s), " + k.tokens() + " tokens; dropped " + reasons.getOrDefault(p.id(), Map.of()));
      }
      out.add(compressed);
    }
    trace.add(Stage.COMPRESS, Action.SUMMARY, compressorId(), List.of(), "", Math.max(0, textTokens - c.tokensOut()),
        "text of " + selected.size() + " passages: " + textTokens + " -> " + c.tokensOut() + " tokens (budget " + budget
            + " after " + overhead + " tokens of block overhead); " + out.size() + " passages keep text");
    int relevant = c.tokensOut() + roomless;
    for (String id : relevantPassages) relevant += blockOverhead.getOrDefault(id, 0);
    return new Compressed(out, relevant);
  }

  /**
   * What compression kept, and what the relevant evidence would take in one prompt without the
   * instructions and query: the kept text, the sentences cut only for room whose probability of
   * holding the answer is at least {@link #FALLBACK_RELEVANCE}, and the blocks of the passages holding
   * either.
   */
  private record Compressed(List<Passage> passages, int relevantTokens) {}

  /** Conservative dedup, rerank, strict dedup: the ranked passages selection draws from. */
  private List<Passage> evidence(String query, List<Candidate> candidates, PackOptions o, boolean rerank,
      Tokenizer tok, Memo memo, Trace trace, Clock clock) throws IOException {
    List<Passage> passages = candidates.stream().map(Passage::of).toList();
    if (o.stages().dedup()) {
      passages = new CascadeDeduplicator(conservative, tok, PassageVectors.none()).dedup(passages, trace);
      clock.lap("dedup");
    }
    if (rerank) {
      passages = rerank(query, passages, trace);
      clock.lap("rerank");
    }
    if (o.stages().dedup()) {
      passages = new CascadeDeduplicator(strict, tok, memo).dedup(passages, trace);
      clock.lap("dedup");
    }
    return passages;
  }

  /** Time per stage of one request, summed over repeats (a refill retrieves again), reported at its end. */
  private static final class Clock {
    private final Map<String, Long> spent = new LinkedHashMap<>();
    private long last = System.nanoTime();

    void lap(String stage) {
      long now = System.nanoTime();
      spent.merge(stage, now - last, Long::sum);
      last = now;
    }

    void report(StageListener listener) {
      spent.forEach(listener::stage);
    }
  }

  private List<Passage> rerank(String query, List<Passage> passages, Trace trace) throws IOException {
    Map<String, Passage> byLead = new LinkedHashMap<>();
    List<Candidate> leads = new ArrayList<>(passages.size());
    for (Passage p : passages) {
      byLead.put(p.primary().chunk().id(), p);
      leads.add(p.primary());
    }
    List<Candidate> reranked = reranker.rerank(query, leads);
    List<Passage> out = new ArrayList<>(reranked.size());
    for (Candidate c : reranked) {
      Passage p = byLead.get(c.chunk().id());
      List<Candidate> sources = new ArrayList<>(p.sources());
      sources.set(0, c);
      out.add(new Passage(p.id(), p.text(), p.pieces(), sources, c.score()));
    }
    trace.add(Stage.RERANK, Action.RERANK, reranker.id(), out.stream().limit(10).map(Passage::id).toList(), "", 0,
        out.size() + " passages reranked by " + reranker.id() + "; ids lists the new top 10");
    return out;
  }

  /** Passage vectors fetched at most once per request, shared by the semantic level and MMR. */
  private static final class Memo implements PassageVectors {
    private final PassageVectors inner;
    private final Map<String, float[]> cache = new HashMap<>();

    Memo(PassageVectors inner) {
      this.inner = inner;
    }

    @Override
    public Map<String, float[]> vectors(List<Passage> passages) throws IOException {
      List<Passage> missing = passages.stream().filter(p -> !cache.containsKey(p.id())).toList();
      if (!missing.isEmpty()) {
        Map<String, float[]> got = inner.vectors(missing);
        for (Passage p : missing) cache.put(p.id(), got.get(p.id()));
      }
      Map<String, float[]> out = new HashMap<>();
      for (Passage p : passages) {
        float[] v = cache.get(p.id());
        if (v != null) out.put(p.id(), v);
      }
      return out;
    }
  }

  private ContextPackage finish(String query, PromptRenderer.Rendered r, List<Source> sources, int used, int limit,
      PackOptions o, Tokenizer tok, Trace trace, List<SourceConflict> conflicts) {
    // Components are counted apart; tokens can merge across their seams, so the sources get the
    // exact remainder and the instructions absorb any seam difference: the parts sum to used.
    int q = tok.count(r.query());
    int sourcesTokens = sources.isEmpty() ? 0 : Math.max(0, used - tok.count(r.instructions()) - q);
    Map<String, Integer> by = new LinkedHashMap<>();
    by.put("instructions", used - q - sourcesTokens);
    by.put("sources", sourcesTokens);
    by.put("query", q);
    BudgetReport budget = new BudgetReport(limit, used, o.budget().reserve(), by);
    List<PlanStep> plan = List.of(new PlanStep(1, "generate", sources.stream().map(Source::label).toList(), r.prompt()));
    trace.add(Stage.RENDER, Action.RENDER, o.plan().strategy().key(), sources.stream().map(Source::label).toList(), "", 0,
        sources.size() + " sources, " + used + " of " + limit + " tokens");
    return new ContextPackage(query, r.prompt(), sources, budget, plan, trace.decisions(), conflicts);
  }

  private static List<Source> label(List<Passage> passages, Map<String, List<Source.Dropped>> cut) {
    List<Source> out = new ArrayList<>(passages.size());
    for (int i = 0; i < passages.size(); i++) {
      Passage p = passages.get(i);
      out.add(toSource(p, "S" + (i + 1), cut.getOrDefault(p.id(), List.of())));
    }
    return out;
  }

  static Source toSource(Passage p, String label) {
    return toSource(p, label, List.of());
  }

  private static Source toSource(Passage p, String label, List<Source.Dropped> dropped) {
    Candidate c = p.primary();
    List<Source.DocSpan> spans = p.sources().stream()
        .map(s -> new Source.DocSpan(s.doc().id(), s.chunk().span().start(), s.chunk().span().end(), s.chunk().id()))
        .toList();
    return new Source(label, c.doc().id(), c.doc().title(), c.doc().uri(), c.chunk().section(), c.chunk().page(),
        c.doc().date(), spans, p.text(), p.id(), p.pieces(), dropped);
  }

  /**
   * Stages with defaults: conservative and strict dedup options, no vectors (the semantic level and
   * MMR fall back to word overlap), no reranker, the fitted extractive compressor without sentence
   * vectors, the default orderer, o200k_base.
   */
  public static final class Builder {
    private Retriever retriever;
    private Tokenizer tokenizer = Tokenizers.defaultTokenizer();
    private DedupOptions conservative = DedupOptions.conservative();
    private DedupOptions strict = DedupOptions.strict();
    private PassageVectors vectors = PassageVectors.none();
    private Reranker reranker;
    private Compressor compressor;
    private SentenceVectors sentenceVectors = SentenceVectors.none();
    private Orderer orderer = new DefaultOrderer();
    private PromptRenderer renderer = new PromptRenderer();
    private StageListener stages = StageListener.NONE;
    private InjectionGuard guard = InjectionGuard.defaults();

    /** The injection guard (its rule set); the policy is per request ({@link PackOptions#injection}). */
    public Builder injectionGuard(InjectionGuard g) {
      this.guard = Objects.requireNonNull(g, "injectionGuard");
      return this;
    }

    /** Told the time of each stage of every request (e.g. the service's per-stage latency metrics). */
    public Builder stageListener(StageListener l) {
      this.stages = Objects.requireNonNull(l, "stageListener");
      return this;
    }

    public Builder retriever(Retriever r) {
      this.retriever = Objects.requireNonNull(r, "retriever");
      return this;
    }

    public Builder tokenizer(Tokenizer t) {
      this.tokenizer = Objects.requireNonNull(t, "tokenizer");
      return this;
    }

    /** The options of the two dedup passes, before and after reranking. */
    public Builder dedup(DedupOptions beforeRerank, DedupOptions afterRerank) {
      this.conservative = Objects.requireNonNull(beforeRerank, "beforeRerank");
      this.strict = Objects.requireNonNull(afterRerank, "afterRerank");
      return this;
    }

    /** Passage vectors for the semantic level and MMR. */
    public Builder vectors(PassageVectors v) {
      this.vectors = Objects.requireNonNull(v, "vectors");
      return this;
    }

    /** The reranker; {@code null} for none. */
    public Builder reranker(Reranker r) {
      this.reranker = r;
      return this;
    }

    /** The compressor; by default the fitted {@link ExtractiveCompressor} over {@link #sentenceVectors}. */
    public Builder compressor(Compressor c) {
      this.compressor = Objects.requireNonNull(c, "compressor");
      return this;
    }

    /** Where the default compressor's sentence vectors come from (none by default: lexical scoring). */
    public Builder sentenceVectors(SentenceVectors v) {
      this.sentenceVectors = Objects.requireNonNull(v, "sentenceVectors");
      return this;
    }

    public Builder orderer(Orderer o) {
      this.orderer = Objects.requireNonNull(o, "orderer");
      return this;
    }

    public Builder renderer(PromptRenderer r) {
      this.renderer = Objects.requireNonNull(r, "renderer");
      return this;
    }

    public DefaultContextPacker build() {
      if (retriever == null) throw new IllegalStateException("a retriever is required");
      return new DefaultContextPacker(this);
    }
  }
}
