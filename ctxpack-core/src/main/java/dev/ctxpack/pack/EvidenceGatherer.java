package dev.ctxpack.pack;

import dev.ctxpack.dedup.Deduplication;
import dev.ctxpack.dedup.KeptApart;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.select.Selection;
import dev.ctxpack.similarity.PassageVectors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Steps 2 to 6 of {@link DefaultContextPacker}: retrieve, dedup (conservative), rerank, dedup
 * (strict), quarantine and select, drawing {@link EvidenceBudget#drawn()} tokens; when dedup emptied
 * the queue before the budget was full, retrieve twice as deep (up to {@value
 * #MAX_REFILL_K} candidates) and run again. The trace keeps the {@code refill}
 * lines and the last round's decisions.
 */
final class EvidenceGatherer {
  /** The deepest a refill retrieves. */
  static final int MAX_REFILL_K = 320;

  private EvidenceGatherer() {}

  /**
   * What selection chose, the pairs dedup kept apart on the way (both passes), the round's trace
   * and the request's passage vectors (fetched at most once per passage, for ordering to reuse).
   */
  record Gathered(List<Passage> selected, List<KeptApart> keptApart, Trace trace, PassageVectors vectors) {}

  static Gathered gather(PackStages s, PackRequest r) throws IOException {
    PackOptions o = r.options;
    RetrievalOptions ro = o.retrieval();
    while (true) {
      Trace trace = r.startRound();
      List<Candidate> candidates = s.retriever().retrieve(r.query, ro, trace);
      r.clock.lap("retrieve");
      PassageVectors memo = PassageVectors.memo(s.vectors());
      List<KeptApart> keptApart = new ArrayList<>();
      List<Passage> passages = candidates.stream().map(Passage::of).toList();
      if (o.stages().dedup()) {
        Deduplication d = s.conservative().dedup(passages, r.tok, PassageVectors.none(), trace);
        keptApart.addAll(d.keptApart());
        passages = d.passages();
        r.clock.lap("dedup");
      }
      if (r.rerank) {
        passages = s.reranking().rerank(r.query, passages, trace);
        r.clock.lap("rerank");
      }
      if (o.stages().dedup()) {
        Deduplication d = s.strict().dedup(passages, r.tok, memo, trace);
        keptApart.addAll(d.keptApart());
        passages = d.passages();
        r.clock.lap("dedup");
      }
      if (r.policy == InjectionPolicy.QUARANTINE) passages = GuardDecisions.quarantine(s.guard(), passages, r.tok, trace);
      Trace selection = new Trace();
      int draw = r.budget.drawn();
      OptionalDouble lambda = o.stages().mmr() ? OptionalDouble.of(o.stages().mmrLambda()) : OptionalDouble.empty();
      List<Passage> selected = s.selector().select(passages, new Selection(draw, r.cost, lambda, memo), selection);
      int spent = 0;
      for (Passage p : selected) spent += r.cost.applyAsInt(p);
      boolean queueEmptied = selected.size() == passages.size();
      int removed = candidates.size() - passages.size();
      if (o.stages().dedup() && queueEmptied && removed > 0 && candidates.size() >= ro.k()
          && ro.k() < MAX_REFILL_K && r.budget.left(spent) > 0) {
        int max = MAX_REFILL_K;
        RetrievalOptions deeper = new RetrievalOptions(ro.mode(), Math.min(max, ro.k() * 2),
            Math.min(max, ro.sparseK() * 2), Math.min(max, ro.denseK() * 2));
        r.head.add(Stage.REFILL, Action.REFILL, "queue-emptied", List.of(), "", 0,
            "dedup removed " + removed + " of " + candidates.size() + " candidates and every passage fit with "
                + r.budget.left(spent) + " tokens left: retrieving again with k=" + deeper.k());
        ro = deeper;
        continue;
      }
      r.clock.lap("select");
      for (var d : selection.decisions()) trace.add(d);
      return new Gathered(selected, keptApart, trace, memo);
    }
  }
}
