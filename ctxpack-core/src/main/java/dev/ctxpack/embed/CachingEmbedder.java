package dev.ctxpack.embed;

import dev.ctxpack.text.TextNormalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An {@link Embedder} that remembers vectors by the SHA-256 of the exact text, up to a bounded
 * number of entries (least recently used out first). Texts missing from the cache are sent to the
 * delegate in one batch, so a batch with repeated content costs one model call per distinct text.
 */
public final class CachingEmbedder implements Embedder {
  private final Embedder delegate;
  private final int maxEntries;
  private final Map<String, float[]> cache;
  private long hits;
  private long misses;

  public CachingEmbedder(Embedder delegate, int maxEntries) {
    if (maxEntries <= 0) throw new IllegalArgumentException("maxEntries must be > 0, was " + maxEntries);
    this.delegate = delegate;
    this.maxEntries = maxEntries;
    this.cache = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
        return size() > CachingEmbedder.this.maxEntries;
      }
    };
  }

  @Override
  public String id() {
    return delegate.id();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public java.util.Set<dev.ctxpack.model.Language> languages() {
    return delegate.languages();
  }

  @Override
  public double readableShare(String text) {
    return delegate.readableShare(text);
  }

  /** The delegate's, not remembered (one pass per passage window, rarely the same twice). */
  @Override
  public TokenStates tokenStates(String text) {
    return delegate.tokenStates(text);
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    float[][] out = new float[texts.size()][];
    Map<String, List<Integer>> missing = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>(texts.size());
    synchronized (cache) {
      for (int i = 0; i < texts.size(); i++) {
        String key = TextNormalizer.sha256Hex(texts.get(i));
        keys.add(key);
        float[] v = cache.get(key);
        if (v != null) {
          out[i] = v.clone();
          hits++;
        } else {
          missing.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
      }
    }
    if (!missing.isEmpty()) {
      List<String> toEmbed = new ArrayList<>(missing.size());
      for (List<Integer> idx : missing.values()) toEmbed.add(texts.get(idx.get(0)));
      List<float[]> vectors = delegate.embed(toEmbed);
      int j = 0;
      synchronized (cache) {
        for (Map.Entry<String, List<Integer>> e : missing.entrySet()) {
          float[] v = vectors.get(j++);
          cache.put(e.getKey(), v.clone());
          misses++;
          for (int i : e.getValue()) out[i] = v.clone();
        }
      }
    }
    return List.of(out);
  }

  /** Texts answered from the cache so far. */
  public long hits() {
    synchronized (cache) {
      return hits;
    }
  }

  /** Distinct texts sent to the delegate so far. */
  public long misses() {
    synchronized (cache) {
      return misses;
    }
  }
}
