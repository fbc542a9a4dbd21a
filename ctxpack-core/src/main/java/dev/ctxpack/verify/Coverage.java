package dev.ctxpack.verify;

import static dev.ctxpack.verify.VerifyText.stem;

import java.util.List;
import java.util.Set;

/**
 * How much of a claim the sources cover: the share of the claim's rarity-weighted terms (or of one
 * clause's) found, by the term or its five-letter stem, in a window of sentences, in one whole
 * source, or in the cited sources together. The lexical measure every verdict of the evidence
 * search rests on. Stateless.
 */
final class Coverage {
  private Coverage() {}

  /** The claim's weighted coverage by the sentences of {@code window} together. */
  static double of(ClaimTerms ct, SourceSentences r, List<Integer> window) {
    double total = 0;
    double hit = 0;
    for (int i = 0; i < ct.terms().size(); i++) {
      String t = ct.terms().get(i);
      double w = ct.weights()[i];
      total += w;
      String st = stem(t);
      for (int s : window) {
        if (r.terms.get(s).contains(t) || r.stems.get(s).contains(st)) {
          hit += w;
          break;
        }
      }
    }
    return total == 0 ? 0 : hit / total;
  }

  /** The claim's weighted coverage by the words of source {@code input} as a whole (an upper bound of any window's). */
  static double ofSource(ClaimTerms ct, SourceSentences r, int input) {
    Set<String> words = r.sourceTerms(input);
    Set<String> stems = r.sourceStems(input);
    double total = 0;
    double hit = 0;
    for (int i = 0; i < ct.terms().size(); i++) {
      total += ct.weights()[i];
      String t = ct.terms().get(i);
      if (words.contains(t) || stems.contains(stem(t))) hit += ct.weights()[i];
    }
    return total == 0 ? 0 : hit / total;
  }

  /** One clause's weighted coverage by the cited sources' terms ({@code union}) and stems; 1 for a clause of no weight. */
  static double ofClause(List<String> clause, SourceSentences r, Set<String> union, Set<String> unionStems) {
    double total = 0;
    double hit = 0;
    for (String t : clause) {
      double w = r.idf(t);
      total += w;
      if (union.contains(t) || unionStems.contains(stem(t))) hit += w;
    }
    return total == 0 ? 1 : hit / total;
  }
}
