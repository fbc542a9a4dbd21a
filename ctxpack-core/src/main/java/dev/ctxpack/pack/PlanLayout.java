package dev.ctxpack.pack;

import dev.ctxpack.conflict.Conflict;
import dev.ctxpack.model.Action;
import dev.ctxpack.model.BudgetReport;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.SourceConflict;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Steps 9 to 12 of {@link DefaultContextPacker} for a plan strategy: the ordered passages labelled,
 * redacted and guarded as for one prompt, then laid out as calls that each fit the limit ({@link
 * PlanBuilder}). A passage too large for any call alone is compressed to two thirds of its text
 * (again while it does not fit) or, when too little would be left, dropped; and while the plan needs
 * more than {@code maxCalls} calls the weakest passage is dropped, each with a trace line.
 */
final class PlanLayout {
  /** A passage too large for any call is compressed further while its text keeps at least this many tokens. */
  static final int MIN_PLAN_TEXT = 24;

  private PlanLayout() {}

  static ContextPackage layout(PackStages s, PackRequest r, List<Passage> ordered, Map<String, List<Source.Dropped>> cut,
      List<Conflict> conflicts, Trace trace) throws IOException {
    PackOptions o = r.options;
    int limit = r.limit();
    List<Passage> kept = new ArrayList<>(ordered);
    PlanBuilder builder = new PlanBuilder(r.tok, s.renderer(), r.template, r.policy, r.query, limit, o.budget().reserve());
    while (true) {
      List<Source> sources = r.pii.all(Sources.label(kept, cut)).stream().map(src -> s.guard().guard(src, r.policy)).toList();
      List<SourceConflict> disagree = ConflictNotes.label(conflicts, sources);
      String note = ConflictNotes.note(disagree, r.template.language());
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
          int block = r.cost.applyAsInt(p);
          int text = r.tok.count(p.text());
          Passage smaller = null;
          if (o.stages().compress() && text * 2 / 3 >= MIN_PLAN_TEXT) {
            List<Passage> c = EvidenceCompression.compress(s, r, List.of(p), block - text + text * 2 / 3,
                o.relevance().line(r.limit()), trace, cut).passages();
            if (!c.isEmpty() && r.tok.count(c.get(0).text()) < text) smaller = c.get(0);
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
        trace.add(Stage.PLAN, Action.DROP, "plan:max-calls", List.of(weakest.id()), "", r.tok.count(weakest.text()),
            "the plan needed " + b.steps().size() + " calls, over the most of " + o.plan().maxCalls() + "; dropped the weakest passage");
        continue;
      }
      r.pii.record(sources, trace);
      trace = r.pii.scrub(trace);
      GuardDecisions.record(sources, trace);
      ConflictNotes.record(disagree, trace);
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
      r.clock.lap("render");
      r.clock.report(s.listener());
      return new ContextPackage(r.query, steps.get(steps.size() - 1).prompt(), sources, budget, steps, trace.decisions(),
          disagree, o.plan().strategy().key(), null);
    }
  }
}
