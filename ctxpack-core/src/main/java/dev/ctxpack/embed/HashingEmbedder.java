package dev.ctxpack.embed;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A bag-of-words embedder with no model: each word (letters and digits, lower-cased) is hashed to one
 * of {@code dimension} signed buckets (the hashing trick), and the counts are scaled to unit length.
 * Two texts are close when they share words, in any language. It knows no synonyms; it is what
 * semantic chunking uses when no model fits the text (or in tests that must not load one), and is
 * deterministic across runs and machines (the hash is FNV-1a over UTF-8).
 */
public final class HashingEmbedder implements Embedder {
  public static final int DEFAULT_DIMENSION = 1024;
  private final int dimension;

  public HashingEmbedder(int dimension) {
    if (dimension < 2) throw new IllegalArgumentException("dimension must be >= 2, was " + dimension);
    this.dimension = dimension;
  }

  public HashingEmbedder() {
    this(DEFAULT_DIMENSION);
  }

  @Override
  public String id() {
    return "hashing-bow-" + dimension;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) out.add(embedOne(t));
    return out;
  }

  private float[] embedOne(String text) {
    float[] v = new float[dimension];
    int i = 0;
    int n = text.length();
    while (i < n) {
      while (i < n && !Character.isLetterOrDigit(text.codePointAt(i))) i += Character.charCount(text.codePointAt(i));
      int s = i;
      while (i < n && Character.isLetterOrDigit(text.codePointAt(i))) i += Character.charCount(text.codePointAt(i));
      if (i > s) {
        int h = fnv1a(text.substring(s, i).toLowerCase(Locale.ROOT));
        int bucket = Math.floorMod(h, dimension);
        v[bucket] += (h & 0x40000000) == 0 ? 1f : -1f;
      }
    }
    return Embedder.normalize(v);
  }

  private static int fnv1a(String word) {
    int h = 0x811C9DC5;
    for (byte b : word.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xFF;
      h *= 0x01000193;
    }
    return h;
  }
}
