package dev.ctxpack.rerank;

import dev.ctxpack.text.Terms;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The features {@link FeatureReranker} scores, computed from the candidate list itself: no index
 * statistics and no model. Every feature is relative to the list, so one query's lists compare
 * with another's:
 *
 * <ul>
 *   <li>{@code bm25}: BM25 score over the list's best (0 when BM25 did not see the candidate);
 *       {@code bm25_present}; {@code bm25_rr}: 1 / rank in the list's BM25 order (0 when absent, ties share a rank);
 *   <li>{@code dense}: the cosine (when absent, the list's lowest cosine: the candidate ranked below
 *       every dense hit); {@code dense_gap}: the cosine minus the list's best; {@code
 *       dense_present}; {@code dense_rr};
 *   <li>{@code fused}: fused score over the list's best; {@code input_rr}: 1 / position in the
 *       input order;
 *   <li>{@code cover}: share of the query's terms in the chunk; {@code cover_idf}: the same
 *       weighted by IDF, with document frequencies counted over the list's chunks; {@code
 *       sentence_cover_idf}: the best sentence's IDF-weighted coverage (sentences from {@link
 *       SentenceSegmenter}); {@code title_cover_idf}: the document title's.
 * </ul>
 *
 * Query terms are the query's {@link Terms} less English and Portuguese stop words (all of them
 * when the query has nothing else). A signal no candidate has gives a feature constant over the
 * list, which changes no order. Stateless and thread-safe.
 */
public final class RerankFeatures {
  /** The feature names, in the order of {@link #compute}'s columns. */
  public static final List<String> NAMES = List.of(
      "bm25", "bm25_present", "bm25_rr",
      "dense", "dense_gap", "dense_present", "dense_rr",
      "fused", "input_rr",
      "cover", "cover_idf", "sentence_cover_idf", "title_cover_idf");

  private static final int BM25 = 0;
  private static final int BM25_PRESENT = 1;
  private static final int BM25_RR = 2;
  private static final int DENSE = 3;
  private static final int DENSE_GAP = 4;
  private static final int DENSE_PRESENT = 5;
  private static final int DENSE_RR = 6;
  private static final int FUSED = 7;
  private static final int INPUT_RR = 8;
  private static final int COVER = 9;
  private static final int COVER_IDF = 10;
  private static final int SENTENCE_COVER_IDF = 11;
  private static final int TITLE_COVER_IDF = 12;

  private static final SentenceSegmenter SEGMENTER = new SentenceSegmenter();

  private RerankFeatures() {}

  /** The query terms features match: distinct, in query order, stop words left out unless nothing else remains. */
  public static List<String> queryTerms(String query) {
    LinkedHashMap<String, Boolean> all = new LinkedHashMap<>();
    Terms.scan(query, (t, s) -> {
      String term = t.toString();
      all.putIfAbsent(term, Terms.STOP_WORDS.contains(term));
    });
    List<String> content = new ArrayList<>();
    all.forEach((t, stop) -> {
      if (!stop) content.add(t);
    });
    return content.isEmpty() ? new ArrayList<>(all.keySet()) : content;
  }

  /** One row per candidate, in input order, one column per {@link #NAMES} entry. */
  public static double[][] compute(String query, List<Candidate> candidates) {
    int n = candidates.size();
    double[][] x = new double[n][NAMES.size()];
    if (n == 0) return x;
    signalFeatures(candidates, x);
    textFeatures(queryTerms(query), candidates, x);
    return x;
  }

  private static void signalFeatures(List<Candidate> cs, double[][] x) {
    int n = cs.size();
    double maxBm25 = Double.NEGATIVE_INFINITY;
    double maxDense = Double.NEGATIVE_INFINITY;
    double minDense = Double.POSITIVE_INFINITY;
    double maxFused = Double.NEGATIVE_INFINITY;
    for (Candidate c : cs) {
      var s = c.scores();
      if (s.get(Signal.BM25).isPresent()) maxBm25 = Math.max(maxBm25, s.get(Signal.BM25).getAsDouble());
      if (s.get(Signal.DENSE).isPresent()) {
        double d = s.get(Signal.DENSE).getAsDouble();
        maxDense = Math.max(maxDense, d);
        minDense = Math.min(minDense, d);
      }
      if (s.get(Signal.FUSED).isPresent()) maxFused = Math.max(maxFused, s.get(Signal.FUSED).getAsDouble());
    }
    double[] bm25Rr = reciprocalRanks(cs, Signal.BM25);
    double[] denseRr = reciprocalRanks(cs, Signal.DENSE);
    boolean anyDense = maxDense > Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      var s = cs.get(i).scores();
      double[] f = x[i];
      var b = s.get(Signal.BM25);
      if (b.isPresent()) {
        f[BM25] = maxBm25 > 0 ? b.getAsDouble() / maxBm25 : 0;
        f[BM25_PRESENT] = 1;
      }
      f[BM25_RR] = bm25Rr[i];
      var d = s.get(Signal.DENSE);
      double cos = d.isPresent() ? d.getAsDouble() : anyDense ? minDense : 0;
      f[DENSE] = cos;
      f[DENSE_GAP] = anyDense ? cos - maxDense : 0;
      f[DENSE_PRESENT] = d.isPresent() ? 1 : 0;
      f[DENSE_RR] = denseRr[i];
      var fu = s.get(Signal.FUSED);
      f[FUSED] = fu.isPresent() && maxFused > 0 ? fu.getAsDouble() / maxFused : 0;
      f[INPUT_RR] = 1.0 / (i + 1);
    }
  }

  /**
   * 1 / rank of each candidate among those carrying {@code signal}, best score first; equal scores
   * share the better rank ({@code 1, 2, 2, 4}); 0 without the signal.
   */
  private static double[] reciprocalRanks(List<Candidate> cs, Signal signal) {
    int n = cs.size();
    double[] v = new double[n];
    int m = 0;
    for (int i = 0; i < n; i++) {
      var s = cs.get(i).scores().get(signal);
      if (s.isPresent()) v[m++] = s.getAsDouble();
    }
    double[] sorted = Arrays.copyOf(v, m);
    Arrays.sort(sorted);
    double[] rr = new double[n];
    for (int i = 0; i < n; i++) {
      var s = cs.get(i).scores().get(signal);
      if (s.isEmpty()) continue;
      // rank = 1 + how many scores are strictly higher
      int higher = m - upperBound(sorted, s.getAsDouble());
      rr[i] = 1.0 / (higher + 1);
    }
    return rr;
  }

  /** The index of the first element of ascending {@code a} greater than {@code x}. */
  private static int upperBound(double[] a, double x) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Double.compare(a[mid], x) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private static void textFeatures(List<String> terms, List<Candidate> cs, double[][] x) {
    int n = cs.size();
    int q = terms.size();
    if (q == 0) return;
    Terms.Table index = new Terms.Table(terms);
    boolean[][] inChunk = new boolean[n][q];
    List<int[]> hits = new ArrayList<>(n);
    int[] hitCount = new int[n];
    int[] df = new int[q];
    for (int i = 0; i < n; i++) {
      boolean[] seen = inChunk[i];
      int[][] h = {new int[16]};
      int[] count = {0};
      Terms.scan(cs.get(i).chunk().text(), (t, start) -> {
        int k = index.get(t);
        if (k >= 0) {
          if (2 * count[0] + 2 > h[0].length) h[0] = Arrays.copyOf(h[0], h[0].length * 2);
          h[0][2 * count[0]] = k;
          h[0][2 * count[0] + 1] = start;
          count[0]++;
          seen[k] = true;
        }
      });
      hits.add(h[0]);
      hitCount[i] = count[0];
      for (int t = 0; t < q; t++) if (seen[t]) df[t]++;
    }
    double[] idf = new double[q];
    double idfSum = 0;
    for (int t = 0; t < q; t++) {
      idf[t] = Math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5));
      idfSum += idf[t];
    }
    Map<String, Double> titleCover = new HashMap<>();
    for (int i = 0; i < n; i++) {
      Candidate c = cs.get(i);
      double[] f = x[i];
      int count = 0;
      double weighted = 0;
      for (int t = 0; t < q; t++) {
        if (inChunk[i][t]) {
          count++;
          weighted += idf[t];
        }
      }
      f[COVER] = (double) count / q;
      f[COVER_IDF] = weighted / idfSum;
      // With one distinct term the best sentence is any sentence holding it: no need to split.
      double best = count <= 1 ? weighted : bestSentence(c, hits.get(i), hitCount[i], idf, q);
      f[SENTENCE_COVER_IDF] = best / idfSum;
      final double sum = idfSum;
      f[TITLE_COVER_IDF] = titleCover.computeIfAbsent(c.doc().id() + "\u0000" + c.doc().title(), k -> {
        boolean[] seen = new boolean[q];
        Terms.scan(c.doc().title(), (t, s) -> {
          int j = index.get(t);
          if (j >= 0) seen[j] = true;
        });
        double w = 0;
        for (int t = 0; t < q; t++) if (seen[t]) w += idf[t];
        return w / sum;
      });
    }
  }

  /**
   * The highest IDF-weighted query-term sum of one sentence of the chunk; {@code hits} holds
   * {@code count} (term, offset) pairs in offset order.
   */
  private static double bestSentence(Candidate c, int[] hits, int count, double[] idf, int q) {
    List<Span> sentences = SEGMENTER.split(c.chunk().text(), c.doc().language());
    boolean[] seen = new boolean[q];
    double best = 0;
    int h = 0;
    for (Span s : sentences) {
      while (h < count && hits[2 * h + 1] < s.start()) h++;
      if (h >= count) break;
      Arrays.fill(seen, false);
      double w = 0;
      while (h < count && hits[2 * h + 1] < s.end()) {
        int t = hits[2 * h];
        if (!seen[t]) {
          seen[t] = true;
          w += idf[t];
        }
        h++;
      }
      best = Math.max(best, w);
    }
    return best;
  }
}
