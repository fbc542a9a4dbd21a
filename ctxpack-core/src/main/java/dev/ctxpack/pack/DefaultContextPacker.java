package dev.ctxpack.pack;

import dev.ctxpack.compress.Compressor;
import dev.ctxpack.conflict.Conflict;
import dev.ctxpack.conflict.ConflictDetector;
import dev.ctxpack.conflict.NewerFirst;
import dev.ctxpack.dedup.Deduplicator;
import dev.ctxpack.embed.RequestVectors;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Trace;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.order.Orderer;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.select.Selector;
import dev.ctxpack.token.RememberingTokenizer;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The orchestrator of {@code pack}: it sequences injected stages and does none of their work. One
 * request runs:
 *
 * <ol>
 *   <li>read the options ({@link PackRequest}): the template by the query's language, the tokenizer,
 *       the {@link EvidenceBudget}, each passage costed as its rendered block; a budget that cannot
 *       hold the instructions and the question is a {@link BudgetTooSmallException};
 *   <li>retrieve candidates ({@link Retriever}, hybrid in the shipped wiring);
 *   <li>dedup, conservative ({@link Deduplicator}: exact, near, overlap), to spare the reranker;
 *   <li>rerank ({@link Reranker}, when one is configured);
 *   <li>dedup, strict (all four levels, guarded), the last chance before the prompt;
 *   <li>select ({@link Selector}: MMR λ = 0.7 by default) up to the budget's draw ({@value
 *       EvidenceBudget#OVERSUBSCRIBE} times the grant with compression on); when dedup emptied the queue before the
 *       budget was full, refill: retrieve twice as deep (up to {@value EvidenceGatherer#MAX_REFILL_K}) and run 2–6 again;
 *   <li>compress ({@link Compressor}): the sentences that answer the query, verbatim, within the
 *       grant less the blocks' own cost; a stuff request whose relevant evidence still cannot fit
 *       falls back to {@link PackOptions.Plan#fallback()} and says why;
 *   <li>find the passages that disagree ({@link ConflictDetector}, from the pairs dedup kept apart);
 *   <li>order ({@link Orderer}, lost-in-the-middle by default), the newer of each dated conflict in
 *       the stronger position ({@link NewerFirst});
 *   <li>lay out: one prompt ({@link StuffLayout}: labels {@code S1}..., PII redaction, the injection
 *       guard, the conflict lines, the repeated key, the exact count dropping the weakest while over
 *       the limit) or a plan of calls ({@link PlanLayout}, {@link PlanBuilder}); report the budget per
 *       component and the trace.
 * </ol>
 *
 * Every stage comes in through {@link PackStages} and its builder (the shipped wiring is {@link
 * ContextPackers});
 * each can be switched off by {@link PackOptions.Stages}. Thread-safe if its stages are.
 */
public final class DefaultContextPacker implements ContextPacker {
  private final PackStages stages;
  /** The tokenizers of the models requests name, each remembering counts for this packer only. */
  private final Map<String, Tokenizer> modelTokenizers = new ConcurrentHashMap<>();

  /** A packer sequencing {@code stages}. */
  public DefaultContextPacker(PackStages stages) {
    this.stages = Objects.requireNonNull(stages, "stages");
  }

  /**
   * What a request with {@code o} counts with: its model's tokenizer, else the stages'. A model's
   * is this packer's own remembering instance ({@link RememberingTokenizer}), the stages' own when
   * it is the same encoding.
   */
  public Tokenizer tokenizer(PackOptions o) {
    Tokenizer own = stages.tokenizer();
    return o.budget().model().map(m -> m.tokenizer().equals(own.name()) ? own
        : modelTokenizers.computeIfAbsent(m.tokenizer(),
            n -> new RememberingTokenizer(m.tokenizerInstance(), PackStages.Builder.MEMORY_CHARS))).orElse(own);
  }

  /** A builder of the stages, each with its default ({@link PackStages.Builder}). */
  public static PackStages.Builder builder() {
    return new PackStages.Builder();
  }

  /** The stages this packer sequences. */
  public PackStages stages() {
    return stages;
  }

  /**
   * {@inheritDoc} One request for {@link RequestVectors}: retrieval and compression embed the query
   * once between them.
   */
  @Override
  public ContextPackage pack(String query, PackOptions o) throws IOException {
    try (RequestVectors request = RequestVectors.open()) {
      return packOnce(query, o);
    }
  }

  private ContextPackage packOnce(String query, PackOptions o) throws IOException {
    PackRequest r = new PackRequest(query, o, stages, tokenizer(o));
    EvidenceGatherer.Gathered g = EvidenceGatherer.gather(stages, r);
    Trace trace = g.trace();
    List<Passage> selected = g.selected();
    Map<String, List<Source.Dropped>> cut = new HashMap<>();
    ContextPackage.Evidence evidence = ContextPackage.Evidence.UNCHECKED;
    double line = o.stages().compress() ? o.relevance().line(r.limit()) : 0;
    if (line > 0) evidence = ContextPackage.Evidence.sufficient(line);
    if (o.stages().compress() && !selected.isEmpty()) {
      Trace judged = new Trace();
      Map<String, List<Source.Dropped>> judgedCut = new HashMap<>();
      EvidenceCompression.Compressed c = EvidenceCompression.compress(stages, r, selected, r.budget.granted(), line, judged,
          judgedCut);
      boolean insufficient = line > 0 && c.passages().isEmpty();
      if (insufficient && o.relevance().onInsufficient() == OnInsufficient.BEST_EFFORT) {
        evidence = insufficient(trace, line, o.relevance().onInsufficient(), c.closest(), selected.size());
        c = EvidenceCompression.compress(stages, r, selected, r.budget.granted(), 0, trace, cut);
      } else {
        judged.decisions().forEach(trace::add);
        cut.putAll(judgedCut);
        if (insufficient) evidence = insufficient(trace, line, o.relevance().onInsufficient(), c.closest(), selected.size());
      }
      selected = c.passages();
      r.clock.lap("compress");
      int relevant = r.budget.fixed() + c.relevantTokens();
      if (!evidence.insufficient() && !r.planned && o.plan().fallback() != Strategy.STUFF && relevant > r.limit()) {
        ContextPackage plan = StuffFallback.repack(this, query, o, relevant, trace);
        if (plan != null) return plan;
      }
    } else if (line > 0) { // nothing was found at all
      evidence = insufficient(trace, line, o.relevance().onInsufficient(), List.of(), 0);
    }
    if (evidence.insufficient() && evidence.action().equals(OnInsufficient.ABSTAIN.key())) {
      String note = RelevanceLine.note(r.template.language(), r.template.abstention());
      return StuffLayout.layout(stages, r, List.of(), Map.of(), List.of(), trace, note).withEvidence(evidence);
    }
    List<Conflict> conflicts = stages.conflicts().detect(selected, g.keptApart(), !r.pii.on());
    List<Passage> ordered = selected;
    if (o.stages().reorder()) {
      OrderMode mode = o.layout().order();
      Map<String, float[]> topicVectors = mode == OrderMode.TOPIC ? g.vectors().vectors(selected) : Map.of();
      ordered = NewerFirst.apply(stages.orderer().order(selected, mode, topicVectors, trace), conflicts, mode, trace);
      r.clock.lap("order");
    }
    ContextPackage p = r.planned ? PlanLayout.layout(stages, r, ordered, cut, conflicts, trace)
        : StuffLayout.layout(stages, r, ordered, cut, conflicts, trace, "");
    return p.withEvidence(evidence);
  }

  /**
   * The judgement that nothing cleared {@code line}, recorded in {@code trace}; with {@link
   * OnInsufficient#FAIL}, thrown instead.
   */
  private static ContextPackage.Evidence insufficient(Trace trace, double line, OnInsufficient action,
      List<ContextPackage.Closest> closest, int candidates) {
    ContextPackage.Evidence e = new ContextPackage.Evidence("insufficient", line, action.key(), closest);
    if (action == OnInsufficient.FAIL) throw new InsufficientEvidenceException(e);
    RelevanceLine.record(trace, line, action, closest, candidates);
    return e;
  }

  /** An executor of this packer's plans: {@code llm} (or offline, with this packer's compressor, when null). */
  public PlanExecutor executor(LlmClient llm, PackOptions o) {
    return new PlanExecutor(llm, stages.compressor(), tokenizer(o));
  }
}
