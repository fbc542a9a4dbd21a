package dev.ctxpack.text;

import dev.ctxpack.model.Language;
import java.util.Locale;
import java.util.Set;

/**
 * Tells Portuguese from English (and from neither) by the function words and letters each language
 * uses most. Function words carry the signal in short texts and are stable across domains, so a few
 * hundred characters are enough; texts with too little evidence are {@link Language#UNKNOWN}.
 *
 * <p>ctxpack interprets two languages; a general detector covering dozens of languages would cost
 * megabytes of profiles to answer a two-way question, which is why this one is small.
 */
public final class LanguageDetector {
  private static final Set<String> EN = Set.of(
      "the", "of", "and", "to", "in", "is", "that", "for", "it", "with", "as", "was", "on", "are",
      "be", "by", "this", "from", "at", "or", "an", "which", "were", "have", "has", "not", "but",
      "they", "their", "we", "these", "been", "than", "its", "can", "there", "what", "when", "who",
      "how", "does", "did", "would", "should", "could", "between", "into", "after", "also", "more",
      "other", "such", "only", "about", "many", "most", "some", "while", "where", "our", "both");
  private static final Set<String> PT = Set.of(
      "de", "que", "e", "o", "da", "do", "em", "um", "uma", "para", "é", "com", "não", "os", "no",
      "na", "se", "por", "mais", "as", "dos", "das", "como", "mas", "foi", "ao", "ele", "ela",
      "à", "seu", "sua", "ou", "ser", "quando", "muito", "nos", "já", "está", "também", "só",
      "pelo", "pela", "até", "isso", "entre", "depois", "sem", "mesmo", "aos", "seus", "quem",
      "nas", "esse", "eles", "essa", "num", "nem", "suas", "são", "qual", "onde", "foram", "pelos",
      "tem", "têm", "estão", "sobre", "porque", "há", "cada", "ainda", "anos", "desde", "este");
  private static final double MIN_EVIDENCE = 2.0;

  /** Detects the language of {@code text}, reading at most its first 20,000 characters. */
  public Language detect(String text) {
    String sample = text.length() > 20_000 ? text.substring(0, 20_000) : text;
    double en = 0;
    double pt = 0;
    int start = -1;
    String lower = sample.toLowerCase(Locale.ROOT);
    for (int i = 0; i <= lower.length(); i++) {
      boolean letter = i < lower.length() && Character.isLetter(lower.charAt(i));
      if (letter && start < 0) start = i;
      if (!letter && start >= 0) {
        String w = lower.substring(start, i);
        if (EN.contains(w)) en += 1;
        if (PT.contains(w)) pt += 1;
        for (int j = 0; j < w.length(); j++) {
          char c = w.charAt(j);
          if (c == 'ã' || c == 'õ' || c == 'ç' || c == 'ê' || c == 'â' || c == 'ô') pt += 0.5;
        }
        if (w.endsWith("ção") || w.endsWith("ções") || w.endsWith("mente") || w.endsWith("ões")) pt += 0.5;
        if (w.endsWith("ing") || w.endsWith("tion") || w.endsWith("ly")) en += 0.3;
        start = -1;
      }
    }
    if (Math.max(en, pt) < MIN_EVIDENCE) return Language.UNKNOWN;
    if (pt > en * 1.2) return Language.PT;
    if (en > pt * 1.2) return Language.EN;
    return Language.UNKNOWN;
  }
}
