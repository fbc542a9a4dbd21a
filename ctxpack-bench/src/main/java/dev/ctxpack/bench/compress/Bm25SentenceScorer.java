package dev.ctxpack.bench.compress;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceScorer;
import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * BM25 of each sentence against the query, the request's sentences being the collection: {@code
 * k1 = 1.2}, {@code b = 0.75}, Lucene's IDF {@code ln(1 + (N - df + 0.5) / (df + 0.5))}, terms from
 * {@link Terms#scan} (case and accents folded, plurals dropped) without {@link Terms#STOP_WORDS};
 * each distinct query term counts once; a sentence's length is its number of such terms.
 */
public final class Bm25SentenceScorer implements SentenceScorer {
  public static final double K1 = 1.2;
  public static final double B = 0.75;

  @Override
  public String id() {
    return "bm25";
  }

  @Override
  public double[] score(String query, List<CompressInput> inputs, List<Sentence> sentences) {
    List<String> queryTerms = new ArrayList<>(new LinkedHashSet<>(Terms.content(query)));
    int n = sentences.size();
    List<Map<String, Integer>> tf = new ArrayList<>(n);
    Map<String, Integer> df = new HashMap<>();
    double totalLength = 0;
    int[] length = new int[n];
    for (int i = 0; i < n; i++) {
      Map<String, Integer> counts = new HashMap<>();
      List<String> ts = Terms.content(sentences.get(i).text());
      for (String t : ts) counts.merge(t, 1, Integer::sum);
      for (String t : counts.keySet()) df.merge(t, 1, Integer::sum);
      tf.add(counts);
      length[i] = ts.size();
      totalLength += ts.size();
    }
    double avg = n == 0 ? 0 : totalLength / n;
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      double s = 0;
      double norm = K1 * (1 - B + B * (avg == 0 ? 0 : length[i] / avg));
      for (String q : queryTerms) {
        Integer f = tf.get(i).get(q);
        if (f == null) continue;
        int d = df.get(q);
        double idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
        s += idf * f * (K1 + 1) / (f + norm);
      }
      out[i] = s;
    }
    return out;
  }

}
