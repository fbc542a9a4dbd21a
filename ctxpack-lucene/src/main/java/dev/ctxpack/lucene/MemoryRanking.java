package dev.ctxpack.lucene;

import dev.ctxpack.model.Language;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Ranks one user's memories of one kind against a query, with statistics from that user's memories
 * only: BM25 (k1 1.2, b 0.75, Lucene's IDF) over each memory analysed in its language (English,
 * Portuguese or neutral, as the document index does) and the query analysed in each; the cosine of
 * the query's and the memory's vectors; fused by reciprocal rank (k 60) when both are there. Another
 * user's memories never change a user's scores, so recall is isolated and reproducible.
 */
final class MemoryRanking {
  static final double K1 = 1.2;
  static final double B = 0.75;
  static final int RRF_K = 60;

  /** Which signals rank memories: both fused (default), or one alone (for ablations). */
  enum Scoring { HYBRID, BM25, DENSE }

  /**
   * What is ranked: a memory's text language, its terms as its language's analyzer makes them (null:
   * analysed here), and its vector (null when none).
   */
  record Item(Language language, String text, List<String> terms, float[] vector) {}

  private final Map<String, Analyzer> perField;

  MemoryRanking(Map<String, Analyzer> perField) {
    this.perField = perField;
  }

  /**
   * Each item's score (0 when it has no evidence at all: no query term and no vector), the higher the
   * better; {@code queryVector} null when the query has no usable vector.
   */
  double[] score(String query, float[] queryVector, List<Item> items, Scoring scoring) {
    int n = items.size();
    double[] bm25 = scoring == Scoring.DENSE ? new double[n] : bm25(query, items);
    double[] dense = new double[n];
    boolean hasDense = false;
    if (scoring != Scoring.BM25 && queryVector != null) {
      for (int i = 0; i < n; i++) {
        float[] v = items.get(i).vector();
        if (v == null || v.length != queryVector.length) {
          dense[i] = Double.NaN;
          continue;
        }
        double s = 0;
        for (int d = 0; d < v.length; d++) s += (double) v[d] * queryVector[d];
        dense[i] = s;
        hasDense = true;
      }
    }
    boolean hasBm25 = Arrays.stream(bm25).anyMatch(x -> x > 0);
    if (!hasDense) return bm25;
    if (!hasBm25) {
      double[] out = new double[n];
      for (int i = 0; i < n; i++) out[i] = Double.isNaN(dense[i]) ? 0 : Math.max(0, dense[i]);
      return out;
    }
    double[] out = new double[n];
    rrf(bm25, out, true);
    rrf(dense, out, false);
    return out;
  }

  /** Adds {@code 1 / (k + rank)} of each item with a score (BM25: a positive one) to {@code out}. */
  private static void rrf(double[] scores, double[] out, boolean positiveOnly) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < scores.length; i++) {
      if (Double.isNaN(scores[i]) || positiveOnly && !(scores[i] > 0)) continue;
      order.add(i);
    }
    order.sort(Comparator.<Integer>comparingDouble(i -> -scores[i]).thenComparingInt(i -> i));
    for (int r = 0; r < order.size(); r++) out[order.get(r)] += 1.0 / (RRF_K + r + 1);
  }

  private double[] bm25(String query, List<Item> items) {
    int n = items.size();
    double[] out = new double[n];
    if (query == null || query.isBlank() || n == 0) return out;
    // Per language field: each memory's term counts, the field's document frequencies and lengths.
    List<Map<String, Integer>> tf = new ArrayList<>(n);
    int[] length = new int[n];
    Map<String, Map<String, Integer>> df = new HashMap<>();
    Map<String, int[]> fieldStats = new HashMap<>(); // docs, total length
    for (int i = 0; i < n; i++) {
      String field = Analyzers.bodyField(items.get(i).language());
      List<String> terms = items.get(i).terms() != null ? items.get(i).terms() : terms(field, items.get(i).text());
      Map<String, Integer> counts = new HashMap<>();
      for (String t : terms) counts.merge(t, 1, Integer::sum);
      tf.add(counts);
      length[i] = terms.size();
      Map<String, Integer> fdf = df.computeIfAbsent(field, f -> new HashMap<>());
      for (String t : counts.keySet()) fdf.merge(t, 1, Integer::sum);
      int[] st = fieldStats.computeIfAbsent(field, f -> new int[2]);
      st[0]++;
      st[1] += terms.size();
    }
    Map<String, Map<String, Integer>> queryTerms = new HashMap<>();
    for (String field : fieldStats.keySet()) {
      Map<String, Integer> q = new HashMap<>();
      for (String t : terms(field, query)) q.merge(t, 1, Integer::sum);
      queryTerms.put(field, q);
    }
    for (int i = 0; i < n; i++) {
      String field = Analyzers.bodyField(items.get(i).language());
      int[] st = fieldStats.get(field);
      double avgdl = st[1] == 0 ? 1 : (double) st[1] / st[0];
      double s = 0;
      for (Map.Entry<String, Integer> q : queryTerms.get(field).entrySet()) {
        Integer f = tf.get(i).get(q.getKey());
        if (f == null) continue;
        int d = df.get(field).get(q.getKey());
        double idf = Math.log(1 + (st[0] - d + 0.5) / (d + 0.5));
        s += q.getValue() * idf * f * (K1 + 1) / (f + K1 * (1 - B + B * length[i] / avgdl));
      }
      out[i] = s;
    }
    return out;
  }

  /** The terms of {@code text} as the analyzer of {@code language}'s field makes them. */
  List<String> terms(Language language, String text) {
    return terms(Analyzers.bodyField(language), text);
  }

  private List<String> terms(String field, String text) {
    List<String> out = new ArrayList<>();
    Analyzer a = perField.get(field);
    try (TokenStream ts = a.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) out.add(term.toString());
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
