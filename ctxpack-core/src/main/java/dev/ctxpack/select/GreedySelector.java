package dev.ctxpack.select;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Fills the budget with whole passages, best first; a passage that does not fit is skipped (and
 * recorded) so a smaller one further down can still use the space. Ignores the selection's MMR
 * weight and vectors.
 */
public final class GreedySelector implements Selector {
  @Override
  public List<Passage> select(List<Passage> ranked, Selection selection, Trace trace) {
    ToIntFunction<Passage> cost = selection.cost();
    List<Passage> out = new ArrayList<>();
    int left = selection.budget();
    for (Passage p : ranked) {
      int c = cost.applyAsInt(p);
      if (c <= left) {
        out.add(p);
        left -= c;
      } else {
        trace.add(Stage.SELECT, Action.DROP, "budget", List.of(p.id()), "", c,
            "needs " + c + " tokens, " + left + " left of the evidence budget");
      }
    }
    return out;
  }
}
