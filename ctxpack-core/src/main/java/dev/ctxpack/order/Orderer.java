package dev.ctxpack.order;

import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.List;
import java.util.Map;

/** Orders the selected passages for how models read; says which order it used in the trace. */
public interface Orderer {
  List<Passage> order(List<Passage> selected, OrderMode mode, Trace trace);

  /**
   * As {@link #order(List, OrderMode, Trace)}, with the passages' unit vectors by passage id (may be
   * empty or partial) for the orders that compare passages ({@link OrderMode#TOPIC}). By default the
   * vectors are not used.
   */
  default List<Passage> order(List<Passage> selected, OrderMode mode, Map<String, float[]> vectors, Trace trace) {
    return order(selected, mode, trace);
  }
}
