package dev.ctxpack.compress;

import dev.ctxpack.text.Terms;
import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * How much of a query one passage speaks to: the share of the query's content terms it holds,
 * each weighted by its IDF over the request's sentences (a term no candidate sentence holds weighs
 * the most). A query term and a text term match when they share their first {@link
 * SentenceFeatures#STEM} characters (or are equal, when shorter): "located" and "location",
 * "renovação" and "renovar". This is what tells a question the corpus speaks about from one it does
 * not: the passages retrieved for a question off the corpus hold few of its rarer terms, however
 * likely their best sentence looks.
 */
final class QueryCoverage {
  private QueryCoverage() {}

  /** The coverage in [0, 1] of {@code queryTerms} by the sentences of input {@code input}; 0 for no query term. */
  static double of(Set<String> queryTerms, List<Sentence> sentences, int input) {
    List<String> keys = new ArrayList<>();
    for (String t : queryTerms) {
      String k = key(t);
      if (!keys.contains(k)) keys.add(k);
    }
    int qn = keys.size();
    if (qn == 0 || sentences.isEmpty()) return 0;
    Terms.Table table = new Terms.Table(keys);
    int[] df = new int[qn];
    boolean[] held = new boolean[qn];
    boolean[] seen = new boolean[qn];
    for (Sentence s : sentences) {
      Arrays.fill(seen, false);
      Terms.scan(s.text(), (t, at) -> {
        int k = table.get(t.length() > SentenceFeatures.STEM ? CharBuffer.wrap(t, 0, SentenceFeatures.STEM) : t);
        if (k >= 0) seen[k] = true;
      });
      for (int k = 0; k < qn; k++) {
        if (!seen[k]) continue;
        df[k]++;
        if (s.input() == input) held[k] = true;
      }
    }
    int n = sentences.size();
    double all = 0;
    double hit = 0;
    for (int k = 0; k < qn; k++) {
      double idf = Math.log(1 + (n - df[k] + 0.5) / (df[k] + 0.5));
      all += idf;
      if (held[k]) hit += idf;
    }
    return all > 0 ? hit / all : 0;
  }

  private static String key(String term) {
    return term.length() > SentenceFeatures.STEM ? term.substring(0, SentenceFeatures.STEM) : term;
  }
}
