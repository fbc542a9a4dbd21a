package dev.ctxpack.dedup;

import dev.ctxpack.model.Passage;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Unit vectors of passages for the semantic level, by passage id. A passage with no vector (no
 * embedder, a language the embedder was not trained for) is simply not grouped.
 */
@FunctionalInterface
public interface PassageVectors {
  Map<String, float[]> vectors(List<Passage> passages) throws IOException;

  /** No vectors: the semantic level groups nothing. */
  static PassageVectors none() {
    return p -> Map.of();
  }
}
