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
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Steps 9 to 12 of {@link DefaultContextPacker} for one prompt: label the ordered passages, redact
 * and guard them, render the prompt with the conflict lines and the repeated key, count it exactly
 * and, while it is over the limit, drop the weakest passage (with one passage left, the repeated key
 * goes first); then report the budget per component and the one-step plan.
 */
final class StuffLayout {
  private StuffLayout() {}

  static ContextPackage layout(PackStages s, PackRequest r, List<Passage> ordered, Map<String, List<Source.Dropped>> cut,
      List<Conflict> conflicts, Trace trace, String abstainNote) throws IOException {
    KeyPassage keys = r.keys;
    List<Passage> kept = new ArrayList<>(ordered);
    while (true) {
      List<Source> sources = r.pii.all(Sources.label(kept, cut)).stream().map(src -> s.guard().guard(src, r.policy)).toList();
      PromptRenderer.Rendered rendered = s.renderer().render(r.template, r.query, sources, r.policy);
      List<SourceConflict> disagree = ConflictNotes.label(conflicts, sources);
      String note = ConflictNotes.note(disagree, r.template.language()); // right after the SOURCES block
      if (!note.isEmpty()) {
        rendered = new PromptRenderer.Rendered(rendered.instructions() + rendered.sources() + note + rendered.query(),
            rendered.instructions(), rendered.sources() + note, rendered.query());
      }
      if (!abstainNote.isEmpty()) { // where the SOURCES would be: nothing cleared the relevance line
        rendered = new PromptRenderer.Rendered(rendered.instructions() + rendered.sources() + abstainNote + rendered.query(),
            rendered.instructions() + abstainNote, rendered.sources(), rendered.query());
      }
      KeyPassage.Key key = keys == null ? null : keys.of(kept, sources, s.renderer().tag(r.query, sources, r.policy)).orElse(null);
      if (key != null) { // after the SOURCES block and the conflict lines, before the question
        rendered = new PromptRenderer.Rendered(rendered.instructions() + rendered.sources() + key.block() + rendered.query(),
            rendered.instructions(), rendered.sources() + key.block(), rendered.query());
      }
      int used = r.tok.count(rendered.prompt());
      if (used <= r.limit()) {
        r.pii.record(sources, trace);
        trace = r.pii.scrub(trace);
        GuardDecisions.record(sources, trace);
        ConflictNotes.record(disagree, trace);
        int keyTokens = key == null ? 0 : r.tok.count(key.block());
        if (key != null) KeyPassage.record(key, keyTokens, trace);
        if (keys != null && key == null && !sources.isEmpty()) {
          trace.add(Stage.ORDER, Action.SKIP, "repeat-key:none", List.of(), "", 0,
              "no sentence of the strongest source could be repeated (none scored, or its text holds the fence)");
        }
        ContextPackage done = finish(r, rendered, sources, used, trace, disagree);
        if (key != null) done = KeyPassage.withKeyComponent(done, keyTokens);
        r.clock.lap("render");
        r.clock.report(s.listener());
        return done;
      }
      if (key != null && kept.size() == 1) { // the last source stays; its repeat goes
        keys = null;
        trace.add(Stage.ORDER, Action.SKIP, "repeat-key:budget", List.of(key.source().label(), key.source().passage()), "", 0,
            "the rendered prompt counted " + used + " tokens with the repeated key, over the limit of " + r.limit()
                + "; the key is left out rather than the last source");
        continue;
      }
      if (kept.isEmpty() && !abstainNote.isEmpty()) { // the budget holds the question but not the note
        trace.add(Stage.PACK, Action.SKIP, "relevance:note-too-large", List.of(), "", 0, "the prompt counted " + used
            + " tokens with the abstention note, over the limit of " + r.limit() + "; sent without it");
        abstainNote = "";
        continue;
      }
      Passage weakest = kept.stream()
          .min(Comparator.comparingDouble(Passage::score).thenComparing(Passage::id, Comparator.reverseOrder()))
          .orElseThrow();
      kept.remove(weakest);
      trace.add(Stage.SELECT, Action.DROP, "budget:exact-count", List.of(weakest.id()), "", 0,
          "the rendered prompt counted " + used + " tokens, over the limit of " + r.limit()
              + "; dropped the weakest passage");
    }
  }

  private static ContextPackage finish(PackRequest req, PromptRenderer.Rendered r, List<Source> sources, int used,
      Trace trace, List<SourceConflict> conflicts) {
    Tokenizer tok = req.tok;
    int limit = req.limit();
    // Components are counted apart; tokens can merge across their seams, so the sources get the
    // exact remainder and the instructions absorb any seam difference: the parts sum to used.
    int q = tok.count(r.query());
    int sourcesTokens = sources.isEmpty() ? 0 : Math.max(0, used - tok.count(r.instructions()) - q);
    Map<String, Integer> by = new LinkedHashMap<>();
    by.put("instructions", used - q - sourcesTokens);
    by.put("sources", sourcesTokens);
    by.put("query", q);
    BudgetReport budget = new BudgetReport(limit, used, req.options.budget().reserve(), by);
    List<PlanStep> plan = List.of(new PlanStep(1, "generate", sources.stream().map(Source::label).toList(), r.prompt()));
    trace.add(Stage.RENDER, Action.RENDER, req.options.plan().strategy().key(), sources.stream().map(Source::label).toList(), "", 0,
        sources.size() + " sources, " + used + " of " + limit + " tokens");
    return new ContextPackage(req.query, r.prompt(), sources, budget, plan, trace.decisions(), conflicts);
  }
}
