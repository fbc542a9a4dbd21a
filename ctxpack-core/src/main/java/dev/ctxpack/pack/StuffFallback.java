package dev.ctxpack.pack;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.util.List;

/**
 * A stuff request whose relevant evidence cannot fit one prompt, even compressed, packed again as
 * the plan its options fall back to ({@link PackOptions.Plan#fallback()}), saying why; when the limit
 * is too small for any plan of that strategy, it stays one prompt, and its trace says so.
 */
final class StuffFallback {
  /**
   * The relevance cutoff: a sentence compression cut for room counts as relevant evidence when its
   * calibrated probability of holding the answer is at least this (more likely than not).
   */
  static final double RELEVANCE = 0.5;

  private StuffFallback() {}

  /**
   * The stuff request {@code o} as a plan of its fallback strategy: packed again with that strategy,
   * the reason first in its trace and in {@link ContextPackage#fallback()}; null when no plan of
   * that strategy fits the limit, said in {@code stuff}, the trace of the one prompt it stays.
   */
  static ContextPackage repack(ContextPacker packer, String query, PackOptions o, int relevant, Trace stuff)
      throws IOException {
    Strategy to = o.plan().fallback();
    ContextPackage p;
    try {
      p = packer.pack(query, o.toBuilder().strategy(to).fallback(Strategy.STUFF).build());
    } catch (PlanTooSmallException e) {
      stuff.add(Stage.PACK, Action.SKIP, "fallback:plan-too-small", List.of(), to.key(), 0, "the relevant evidence needs "
          + relevant + " tokens in one prompt, over the limit of " + o.limit() + ", but no " + to.key() + " plan fits it ("
          + e.getMessage() + "): packed as one prompt");
      return null;
    }
    String reason = "the relevant evidence needs " + relevant + " tokens in one prompt (the instructions and query, the"
        + " text compression kept and the sentences it cut only for room with p >= " + RELEVANCE
        + ", with their blocks), over the limit of " + o.limit() + ": planned as " + to.key() + " in " + p.plan().size() + " calls";
    Trace t = new Trace();
    t.add(Stage.PACK, Action.FALLBACK, "stuff:cannot-fit", List.of(), to.key(), 0, reason);
    for (var d : p.trace()) t.add(d);
    return new ContextPackage(p.query(), p.prompt(), p.sources(), p.budget(), p.plan(), t.decisions(), p.conflicts(),
        p.strategy(), new ContextPackage.Fallback(Strategy.STUFF.key(), to.key(), relevant, o.limit(), reason));
  }

}
