package dev.ctxpack.bench.dedup;

import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Passage;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Embeddings of texts, computed once per distinct text: precomputed in large batches for a whole
 * evaluation, then served to the cascade as {@link PassageVectors} by passage text. A text the cache
 * lacks (a merged passage's new text) is embedded when asked for. Not thread-safe.
 */
final class TextVectors {
  private final Embedder embedder;
  private final PrintStream log;
  private final Map<String, float[]> cache = new HashMap<>();
  private long embedded;
  private double seconds;

  TextVectors(Embedder embedder, PrintStream log) {
    this.embedder = embedder;
    this.log = log;
  }

  /** Embeds every text not cached yet, in batches of 256, logging progress. */
  void embedAll(Collection<String> texts, String what) {
    List<String> missing = new ArrayList<>(new LinkedHashSet<>(texts));
    missing.removeIf(cache::containsKey);
    long t0 = System.nanoTime();
    for (int i = 0; i < missing.size(); i += 256) {
      List<String> batch = missing.subList(i, Math.min(missing.size(), i + 256));
      List<float[]> v = embedder.embed(batch);
      for (int k = 0; k < batch.size(); k++) cache.put(batch.get(k), v.get(k));
      if ((i / 256) % 20 == 19) log.printf("  embedded %,d of %,d %s%n", i + batch.size(), missing.size(), what);
    }
    double s = (System.nanoTime() - t0) / 1e9;
    embedded += missing.size();
    seconds += s;
    log.printf("  embedded %,d new texts (%s) in %.1f s%n", missing.size(), what, s);
  }

  float[] of(String text) {
    float[] v = cache.get(text);
    if (v == null) {
      v = embedder.embed(List.of(text)).get(0);
      cache.put(text, v);
      embedded++;
    }
    return v;
  }

  double cosine(String a, String b) {
    return Embedder.dot(of(a), of(b));
  }

  /**
   * The cascade's view: a vector per passage, by its text. Fewer than two passages have nothing
   * to be grouped with, so they get none (and cost no embedding).
   */
  PassageVectors passageVectors() {
    return passages -> {
      if (passages.size() < 2) return Map.of();
      Map<String, float[]> out = new HashMap<>();
      for (Passage p : passages) out.put(p.id(), of(p.text()));
      return out;
    };
  }

  long embedded() {
    return embedded;
  }

  double seconds() {
    return seconds;
  }

  String embedderId() {
    return embedder.id();
  }
}
