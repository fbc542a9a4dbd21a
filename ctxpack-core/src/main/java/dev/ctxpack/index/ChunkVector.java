package dev.ctxpack.index;

import dev.ctxpack.model.Span;
import java.util.Objects;

/**
 * A vector of one window of a chunk: {@code chunk} is the chunk's position in its entry, {@code
 * span} the window's offsets in the document (inside the chunk's span). A chunk may have several
 * windows; dense retrieval scores a chunk by its best window, so a long chunk is found by any part
 * of it even with an embedding model trained on short passages.
 */
public record ChunkVector(int chunk, Span span, float[] vector) {
  public ChunkVector {
    if (chunk < 0) throw new IllegalArgumentException("chunk ordinal must be >= 0, was " + chunk);
    Objects.requireNonNull(span, "span");
    Objects.requireNonNull(vector, "vector");
    if (vector.length == 0) throw new IllegalArgumentException("vector must not be empty");
  }
}
