package dev.ctxpack.springai;

import dev.ctxpack.model.ContextPackage;

/**
 * Told of every package ctxpack builds inside Spring AI (post-processor, augmenter, advisor), with its
 * trace: every merge, stitch, drop and trim as a {@link dev.ctxpack.model.Decision}. Called on the
 * thread that packed; implementations must be thread-safe. {@link #NONE} by default.
 */
@FunctionalInterface
public interface PackListener {
  /** Does nothing. */
  PackListener NONE = (query, p) -> {};

  /**
   * Called once per package, right after it was packed.
   *
   * @param query the question it was packed for
   * @param pack the package: prompt, sources, budget report and trace
   */
  void packed(String query, ContextPackage pack);
}
