package dev.ctxpack.dedup;

import dev.ctxpack.model.Passage;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.similarity.Words;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cascade as the packer runs it after reranking: all four levels, the semantic one over
 * feature-hashed word vectors (unit length, 64 dimensions), so passages that share most of their
 * words group there and the guard is exercised at that level too.
 */
class StrictCascadeDeduplicatorContractTest extends DeduplicatorContract {
  @Override
  protected Deduplicator deduplicator() {
    return new CascadeDeduplicator(DedupOptions.strict());
  }

  @Override
  protected PassageVectors vectors() {
    return passages -> {
      Map<String, float[]> out = new HashMap<>();
      for (Passage p : passages) out.put(p.id(), hashed(Words.of(p.text())));
      return out;
    };
  }

  private static float[] hashed(List<String> words) {
    float[] v = new float[64];
    for (String w : words) v[Math.floorMod(w.hashCode(), 64)] += 1;
    double n = 0;
    for (float x : v) n += x * x;
    float norm = (float) Math.sqrt(n);
    if (norm > 0) for (int i = 0; i < v.length; i++) v[i] /= norm;
    return v;
  }
}
