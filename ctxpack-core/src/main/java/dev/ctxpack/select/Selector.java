package dev.ctxpack.select;

import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Chooses which passages go into the prompt under a token budget. Each passage not chosen gets a
 * {@link dev.ctxpack.model.Decision} saying why.
 */
public interface Selector {

  /**
   * Selects from {@code ranked} (best first) passages whose costs, as measured by {@code cost},
   * sum to at most {@code budget}. Returns them best first.
   */
  List<Passage> select(List<Passage> ranked, int budget, ToIntFunction<Passage> cost, Trace trace);
}
