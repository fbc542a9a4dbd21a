package dev.ctxpack.verify;

import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The word forms the verifier compares claims and sources by: content terms (folded, plural-free,
 * no stop words, as {@link Terms} cuts them), their five-letter stems, and folded words that keep
 * numbers whole. Every part of {@link EvidenceVerifier} reads text through these, so a claim and a
 * source sentence are always cut the same way. Stateless.
 */
final class VerifyText {
  /** What separates words: anything but letters, digits and the marks numbers keep ({@code . , %}). */
  private static final Pattern BETWEEN_WORDS = Pattern.compile("[^\\p{L}\\p{N}.,%]+");
  private static final Pattern MARKS = Pattern.compile("\\p{M}");

  private VerifyText() {}

  /** Content terms: folded, plural-free, no stop words. */
  static Set<String> terms(String text) {
    return new LinkedHashSet<>(Terms.content(text));
  }

  /** Folded words of {@code text}, numbers kept whole ({@code "1,320"}, {@code "30%"}), edge punctuation cut. */
  static List<String> wordsOf(String text) {
    List<String> out = new ArrayList<>();
    for (String w : BETWEEN_WORDS.split(text)) {
      String t = trimPoints(w);
      if (!t.isEmpty()) out.add(fold(t));
    }
    return out;
  }

  /** {@code w} without its leading and trailing runs of {@code .} and {@code ,}. */
  private static String trimPoints(String w) {
    int start = 0;
    int end = w.length();
    while (start < end && isPoint(w.charAt(start))) start++;
    while (end > start && isPoint(w.charAt(end - 1))) end--;
    return w.substring(start, end);
  }

  private static boolean isPoint(char c) {
    return c == '.' || c == ',';
  }

  static String stem(String term) {
    return term.length() > 5 ? term.substring(0, 5) : term;
  }

  /** Lower case without accents ("Não" -> "nao"); ASCII text is only lower-cased. */
  static String fold(String w) {
    String lower = w.toLowerCase(Locale.ROOT);
    for (int i = 0; i < lower.length(); i++) {
      if (lower.charAt(i) >= 0x80) {
        return MARKS.matcher(java.text.Normalizer.normalize(lower, java.text.Normalizer.Form.NFKD)).replaceAll("");
      }
    }
    return lower;
  }
}
