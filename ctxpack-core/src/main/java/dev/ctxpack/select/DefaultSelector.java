package dev.ctxpack.select;

import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.util.List;

/**
 * The packer's selector: {@link MmrSelector} when the selection asks for diversity ({@link
 * Selection#mmrLambda()}), else {@link GreedySelector} by score. Stateless; thread-safe.
 */
public final class DefaultSelector implements Selector {
  private final Selector diverse = new MmrSelector();
  private final Selector byScore = new GreedySelector();

  @Override
  public List<Passage> select(List<Passage> ranked, Selection selection, Trace trace) throws IOException {
    return (selection.mmrLambda().isPresent() ? diverse : byScore).select(ranked, selection, trace);
  }
}
