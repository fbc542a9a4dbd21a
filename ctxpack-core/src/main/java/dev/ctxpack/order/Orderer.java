package dev.ctxpack.order;

import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.List;

/** Orders the selected passages for how models read; says which order it used in the trace. */
public interface Orderer {
  List<Passage> order(List<Passage> selected, OrderMode mode, Trace trace);
}
