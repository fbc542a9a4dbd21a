package dev.ctxpack.similarity;

import dev.ctxpack.text.TextNormalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Word-level views of a text for duplicate detection: words are runs of letters and digits after
 * Unicode NFKC and lower-casing, so punctuation, case and whitespace never make two copies differ.
 * Accents are kept: {@code é} and {@code e} are different words. Stateless; thread-safe.
 */
public final class Words {
  private Words() {}

  /** The words of {@code text} in order. */
  public static List<String> of(String text) {
    String n = TextNormalizer.fold(text);
    List<String> out = new ArrayList<>();
    int i = 0;
    int len = n.length();
    while (i < len) {
      int cp = n.codePointAt(i);
      if (Character.isLetterOrDigit(cp)) {
        int start = i;
        while (i < len) {
          int c = n.codePointAt(i);
          if (!Character.isLetterOrDigit(c) && Character.getType(c) != Character.NON_SPACING_MARK) break;
          i += Character.charCount(c);
        }
        out.add(n.substring(start, i));
      } else {
        i += Character.charCount(cp);
      }
    }
    return out;
  }

  /**
   * The {@code k}-word shingles of {@code text} as sorted distinct hashes, the same words as {@link
   * #of} but hashed as they are scanned (no word strings are made): what the near level compares.
   */
  public static long[] shingleHashes(String text, int k) {
    return shingleHashesOfFolded(TextNormalizer.fold(text), k);
  }

  /** {@link Character#isLetterOrDigit(int)}, ASCII answered without the character tables. */
  private static boolean letterOrDigit(int c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    return Character.isLetterOrDigit(c);
  }

  /** {@link #shingleHashes} of a text already {@link TextNormalizer#fold folded}. */
  public static long[] shingleHashesOfFolded(String n, int k) {
    long[] words = new long[Math.max(4, n.length() / 4)];
    int count = 0;
    int i = 0;
    int len = n.length();
    while (i < len) {
      char first = n.charAt(i);
      int cp = first < 0x80 ? first : n.codePointAt(i);
      if (letterOrDigit(cp)) {
        long h = 0x2545F4914F6CDD1DL;
        while (i < len) {
          char ch = n.charAt(i);
          int c = ch < 0x80 ? ch : n.codePointAt(i);
          if (!letterOrDigit(c) && (c < 0x80 || Character.getType(c) != Character.NON_SPACING_MARK)) break;
          h = (h ^ c) * 0x100000001B3L;
          i += c < 0x80 ? 1 : Character.charCount(c);
        }
        if (count == words.length) words = java.util.Arrays.copyOf(words, count * 2);
        words[count++] = mix(h);
      } else {
        i += Character.charCount(cp);
      }
    }
    if (count == 0) return new long[0];
    // A shingle is its words' hashes as a polynomial in SHINGLE_BASE (mod 2^64), mixed: rolled from
    // one shingle to the next by taking the first word out and the next one in, one mix per shingle.
    int n2 = Math.max(1, count - k + 1);
    int m = Math.min(count, k);
    long[] out = new long[n2];
    long poly = 0;
    long top = 1; // SHINGLE_BASE^(m - 1)
    for (int b = 0; b < m; b++) {
      poly = poly * SHINGLE_BASE + words[b];
      if (b > 0) top *= SHINGLE_BASE;
    }
    out[0] = mix(poly);
    for (int a = 1; a < n2; a++) {
      poly = (poly - words[a - 1] * top) * SHINGLE_BASE + words[a + k - 1];
      out[a] = mix(poly);
    }
    java.util.Arrays.sort(out);
    int u = 0;
    for (int a = 0; a < out.length; a++) if (a == 0 || out[a] != out[a - 1]) out[u++] = out[a];
    return java.util.Arrays.copyOf(out, u);
  }

  /** Jaccard of the {@code k}-word shingles of two texts, as the near level measures it. */
  public static double shingleJaccard(String a, String b, int k) {
    long[] x = shingleHashes(a, k);
    long[] y = shingleHashes(b, k);
    if (x.length == 0 && y.length == 0) return 1;
    int inter = intersection(x, y);
    return inter / (double) (x.length + y.length - inter);
  }

  /** Size of the intersection of two sorted distinct arrays. */
  public static int intersection(long[] a, long[] b) {
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        n++;
        i++;
        j++;
      }
    }
    return n;
  }

  /** |a ∩ b| / |a ∪ b|; 1 for two empty sets. */
  public static double jaccard(Set<?> a, Set<?> b) {
    if (a.isEmpty() && b.isEmpty()) return 1;
    Set<?> small = a.size() <= b.size() ? a : b;
    Set<?> large = small == a ? b : a;
    int inter = 0;
    for (Object o : small) if (large.contains(o)) inter++;
    return inter / (double) (a.size() + b.size() - inter);
  }

  /** The base of a shingle's polynomial: odd, so that every power of it is too. */
  private static final long SHINGLE_BASE = 0x9E3779B97F4A7C15L;

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
