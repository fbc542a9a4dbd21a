package dev.ctxpack.bench.verify;

import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The BM25-sentence baseline. Every sentence of the request's sources is a document of the
 * collection (statistics over the request's sentences: N, document frequencies, mean length); the
 * claim is the query. Terms are {@link Terms#scan}'s (case and accents folded, plurals dropped)
 * without {@link Terms#STOP_WORDS}, each distinct claim term counted once; k1 = 1.2, b = 0.75 and
 * Lucene's IDF {@code ln(1 + (N - df + 0.5) / (df + 0.5))}, as the compression evaluation's BM25.
 *
 * <p>The score of a sentence is its BM25 divided by the BM25 that sentence would reach if it held
 * every claim term once, capped at 1: the share of the claim's BM25 weight the sentence covers (1
 * = every claim term is in it). Raw BM25 grows with the claim's length and rarity of its words, so
 * no single threshold could serve claims of five and of thirty words, and raw BM25 does not fall
 * when a claim adds words the sentence lacks (a term absent from every source gets the largest
 * IDF, so an added clause or a changed number lowers the share). The best sentence is the one
 * with the highest share, and the share is what the threshold reads.
 */
public final class Bm25Baseline extends SentenceBaseline {
  public static final double K1 = 1.2;
  public static final double B = 0.75;

  public Bm25Baseline(double threshold) {
    super("bm25", threshold);
  }

  @Override
  protected double[] scores(String claim, List<SourceSentence> sentences) {
    List<String> query = new ArrayList<>(new LinkedHashSet<>(Terms.content(claim)));
    int n = sentences.size();
    List<Map<String, Integer>> tf = new ArrayList<>(n);
    Map<String, Integer> df = new HashMap<>();
    int[] length = new int[n];
    double total = 0;
    for (int i = 0; i < n; i++) {
      Map<String, Integer> counts = new HashMap<>();
      List<String> ts = Terms.content(sentences.get(i).text());
      for (String t : ts) counts.merge(t, 1, Integer::sum);
      for (String t : counts.keySet()) df.merge(t, 1, Integer::sum);
      tf.add(counts);
      length[i] = ts.size();
      total += ts.size();
    }
    double avg = n == 0 ? 0 : total / n;
    double[] idf = new double[query.size()];
    for (int q = 0; q < idf.length; q++) {
      int d = df.getOrDefault(query.get(q), 0);
      idf[q] = Math.log(1 + (n - d + 0.5) / (d + 0.5));
    }
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      double norm = K1 * (1 - B + B * (avg == 0 ? 0 : length[i] / avg));
      double score = 0;
      double attainable = 0;
      for (int q = 0; q < idf.length; q++) {
        attainable += idf[q] * (K1 + 1) / (1 + norm);
        Integer f = tf.get(i).get(query.get(q));
        if (f != null) score += idf[q] * f * (K1 + 1) / (f + norm);
      }
      out[i] = attainable == 0 ? 0 : Math.min(1, score / attainable);
    }
    return out;
  }

}
