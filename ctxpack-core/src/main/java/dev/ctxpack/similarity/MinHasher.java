package dev.ctxpack.similarity;

import dev.ctxpack.text.Terms;

/**
 * MinHash signatures of texts over word shingles, for finding near-duplicate documents and chunks
 * in a whole corpus (with {@link LshIndex}) without comparing every pair.
 *
 * <p>Words are the terms of {@link Terms#scan}: letters and digits, lower-cased, accents folded
 * ({@code Ação} = {@code acao}), a plural {@code s} dropped, one-letter words skipped — so case,
 * accents, punctuation and whitespace never make two copies differ, in Portuguese or English.
 * Each word is hashed as it is scanned, each {@code shingle}-word shingle gets one 64-bit hash, and
 * the {@code k} minima come from {@code k} multiply-shift hashes {@code (a_i·x + b_i) >>> 32} of that
 * one hash (odd 64-bit {@code a_i} from a fixed seed): primitive arrays only, no strings per word.
 * The fraction of equal positions of two signatures estimates the Jaccard similarity of the two
 * shingle sets ({@link #similarity}); its standard error is about {@code sqrt(J(1-J)/k)}.
 *
 * <p>A text with fewer words than {@code shingle} is one shingle of all its words; a text with no
 * word has the signature of the empty set (every position {@link #EMPTY}), similar only to itself.
 * Immutable and thread-safe; the same parameters give the same signatures on every JVM.
 */
public final class MinHasher {
  /** Signature positions (hash functions) by default: 128, an error of about ±0.035 at J = 0.8. */
  public static final int DEFAULT_HASHES = 128;
  /** Words per shingle by default: 5, the request-time near level's shingle (docs/ARCHITECTURE.md). */
  public static final int DEFAULT_SHINGLE = 5;
  /** The value of every position of the signature of a text with no words. */
  public static final int EMPTY = -1;

  private final int k;
  private final int shingle;
  private final long[] a;
  private final long[] b;

  /** {@code k} hash functions over {@code shingle}-word shingles, drawn from {@code seed}. */
  public MinHasher(int k, int shingle, long seed) {
    if (k < 1 || k > 1024) throw new IllegalArgumentException("k (hash functions) must be in [1, 1024], was " + k);
    if (shingle < 1 || shingle > 16) throw new IllegalArgumentException("shingle (words) must be in [1, 16], was " + shingle);
    this.k = k;
    this.shingle = shingle;
    this.a = new long[k];
    this.b = new long[k];
    long s = seed;
    for (int i = 0; i < k; i++) {
      s += 0x9E3779B97F4A7C15L;
      a[i] = mix(s) | 1L;
      s += 0x9E3779B97F4A7C15L;
      b[i] = mix(s);
    }
  }

  /** {@value #DEFAULT_HASHES} hash functions over {@value #DEFAULT_SHINGLE}-word shingles, seed 0. */
  public static MinHasher defaults() {
    return new MinHasher(DEFAULT_HASHES, DEFAULT_SHINGLE, 0L);
  }

  public int hashes() {
    return k;
  }

  public int shingle() {
    return shingle;
  }

  /** The signature of {@code text}: {@link #hashes()} minima, unsigned 32-bit values held in ints. */
  public int[] signature(String text) {
    return signatureOf(shingles(text, shingle));
  }

  /** The signature of a set of 64-bit shingle hashes (repeats allowed). */
  public int[] signatureOf(long[] shingleHashes) {
    int[] sig = new int[k];
    if (shingleHashes.length == 0) {
      java.util.Arrays.fill(sig, EMPTY);
      return sig;
    }
    // Minimum over unsigned 32-bit values: flip the sign bit so that signed comparison orders them.
    java.util.Arrays.fill(sig, Integer.MAX_VALUE);
    for (long x : shingleHashes) {
      for (int i = 0; i < k; i++) {
        int h = (int) ((a[i] * x + b[i]) >>> 32) ^ Integer.MIN_VALUE;
        if (h < sig[i]) sig[i] = h;
      }
    }
    for (int i = 0; i < k; i++) {
      sig[i] ^= Integer.MIN_VALUE;
      if (sig[i] == EMPTY) sig[i] = EMPTY - 1; // keep EMPTY for the empty set alone
    }
    return sig;
  }

  /** The estimated Jaccard similarity of the shingle sets behind two signatures of the same hasher. */
  public static double similarity(int[] x, int[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException("signatures of " + x.length + " and " + y.length + " positions: not the same hasher");
    }
    int same = 0;
    for (int i = 0; i < x.length; i++) if (x[i] == y[i]) same++;
    return same / (double) x.length;
  }

  /**
   * The hashes of the {@code w}-word shingles of {@code text} (words as {@link Terms#scan} finds
   * them), in text order, repeats kept; one shingle of all words when there are fewer than {@code w}.
   */
  public static long[] shingles(String text, int w) {
    long[][] words = {new long[Math.max(8, text.length() / 5)]};
    int[] count = {0};
    Terms.scan(text, (term, start) -> {
      long h = 0xCBF29CE484222325L;
      for (int i = 0; i < term.length(); i++) h = (h ^ term.charAt(i)) * 0x100000001B3L;
      if (count[0] == words[0].length) words[0] = java.util.Arrays.copyOf(words[0], count[0] * 2);
      words[0][count[0]++] = mix(h);
    });
    int n = count[0];
    if (n == 0) return new long[0];
    long[] wh = words[0];
    int m = Math.max(1, n - w + 1);
    long[] out = new long[m];
    for (int s = 0; s < m; s++) {
      long h = 0x9E3779B97F4A7C15L;
      for (int j = s, end = Math.min(n, s + w); j < end; j++) h = (h + wh[j]) * 0xBF58476D1CE4E5B9L + j - s;
      out[s] = mix(h);
    }
    return out;
  }

  /** Exact Jaccard of the {@code w}-word shingle sets of two texts (what signatures estimate). */
  public static double jaccard(String x, String y, int w) {
    long[] a = distinct(shingles(x, w));
    long[] b = distinct(shingles(y, w));
    if (a.length == 0 && b.length == 0) return 1;
    int inter = Words.intersection(a, b);
    return inter / (double) (a.length + b.length - inter);
  }

  /** The sorted distinct values of {@code v} (a new array). */
  public static long[] distinct(long[] v) {
    long[] s = v.clone();
    java.util.Arrays.sort(s);
    int u = 0;
    for (int i = 0; i < s.length; i++) if (i == 0 || s[i] != s[i - 1]) s[u++] = s[i];
    return java.util.Arrays.copyOf(s, u);
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
