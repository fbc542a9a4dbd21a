package dev.ctxpack.select;

import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.util.List;

/**
 * Chooses which passages go into the prompt under a token budget: the stage between dedup and
 * compression. Each passage not chosen gets a {@link dev.ctxpack.model.Decision} saying why.
 */
public interface Selector {

  /**
   * Selects from {@code ranked} (best first) passages whose costs, as measured by {@code
   * selection.cost()}, sum to at most {@code selection.budget()}. Returns them best first.
   */
  List<Passage> select(List<Passage> ranked, Selection selection, Trace trace) throws IOException;
}
