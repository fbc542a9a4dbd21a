package dev.ctxpack.dedup;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
    String n = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
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
   * Hashes of the {@code k}-word shingles of {@code words}; a text shorter than {@code k} words is
   * one shingle of all its words (so two short texts compare by equality), an empty text none.
   */
  public static Set<Long> shingles(List<String> words, int k) {
    Set<Long> out = new HashSet<>();
    if (words.isEmpty()) return out;
    int n = Math.max(1, words.size() - k + 1);
    long[] h = new long[words.size()];
    for (int i = 0; i < h.length; i++) h[i] = mix(words.get(i).hashCode() * 0x9E3779B97F4A7C15L + words.get(i).length());
    for (int i = 0; i < n; i++) {
      long s = 0x2545F4914F6CDD1DL;
      for (int j = i; j < Math.min(words.size(), i + k); j++) s = mix(s * 31 + h[j]);
      out.add(s);
    }
    return out;
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

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
