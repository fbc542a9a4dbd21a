package dev.ctxpack.verify;

import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The word forms the verifier compares claims and sources by: content terms (folded, plural-free,
 * no stop words, as {@link Terms} cuts them), their five-letter stems, and folded words that keep
 * numbers whole. Every part of {@link EvidenceVerifier} reads text through these, so a claim and a
 * source sentence are always cut the same way. Stateless.
 */
final class VerifyText {
  private VerifyText() {}

  /** Content terms: folded, plural-free, no stop words. */
  static Set<String> terms(String text) {
    return new LinkedHashSet<>(Terms.content(text));
  }

  /** Folded words of {@code text}, numbers kept whole ({@code "1,320"}, {@code "30%"}), edge punctuation cut. */
  static List<String> wordsOf(String text) {
    List<String> out = new ArrayList<>();
    for (String w : text.split("[^\\p{L}\\p{N}.,%]+")) {
      String t = w.replaceAll("^[.,]+|[.,]+$", "");
      if (!t.isEmpty()) out.add(fold(t));
    }
    return out;
  }

  static String stem(String term) {
    return term.length() > 5 ? term.substring(0, 5) : term;
  }

  /** Lower case without accents ("Não" -> "nao"); ASCII text is only lower-cased. */
  static String fold(String w) {
    String lower = w.toLowerCase(Locale.ROOT);
    for (int i = 0; i < lower.length(); i++) {
      if (lower.charAt(i) >= 0x80) {
        return java.text.Normalizer.normalize(lower, java.text.Normalizer.Form.NFKD).replaceAll("\\p{M}", "");
      }
    }
    return lower;
  }
}
