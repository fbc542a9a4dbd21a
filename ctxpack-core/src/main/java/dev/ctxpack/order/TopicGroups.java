package dev.ctxpack.order;

import dev.ctxpack.model.Passage;
import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Groups passages by topic: average-linkage agglomerative clustering with a similarity threshold.
 * Starting from one group per passage, the two groups of highest average pairwise similarity are
 * merged while that average is at least the threshold (ties: the pair that comes first in the input
 * order). Deterministic: no randomness, and groups are compared in a fixed order.
 *
 * <p>Similarity is the cosine of the passages' vectors when every passage has one (of one length);
 * otherwise the cosine of their TF-IDF vectors over {@link Terms#content content terms} (accents
 * folded, plural {@code s} dropped, English and Portuguese stop words left out), IDF counted over
 * the passages being grouped, so the terms every passage shares (the query's, mostly) weigh least.
 * The two measures have their own thresholds ({@link Similarity}).
 */
public final class TopicGroups {
  /** What two passages are compared by. */
  public enum Similarity {
    VECTORS("vector cosine"),
    TERMS("term tf-idf cosine");

    private final String description;

    Similarity(String description) {
      this.description = description;
    }

    public String description() {
      return description;
    }
  }

  /** The groups of a call, each a list of indices into the input in ascending order, and the measure used. */
  public record Grouping(List<List<Integer>> groups, Similarity similarity) {}

  private TopicGroups() {}

  /**
   * Groups {@code passages} (in the order given: a group is listed at its first member, members in
   * input order). {@code vectors} are unit vectors by passage id (may be empty).
   */
  public static Grouping group(List<Passage> passages, Map<String, float[]> vectors, double vectorThreshold,
      double termThreshold) {
    int n = passages.size();
    boolean useVectors = n > 0 && allHaveVectors(passages, vectors);
    double[][] sim = useVectors ? vectorSimilarities(passages, vectors) : termSimilarities(passages);
    return new Grouping(cluster(sim, useVectors ? vectorThreshold : termThreshold),
        useVectors ? Similarity.VECTORS : Similarity.TERMS);
  }

  /** Average-linkage clustering of the similarity matrix {@code sim} (it is modified). */
  static List<List<Integer>> cluster(double[][] sim, double threshold) {
    int n = sim.length;
    List<List<Integer>> members = new ArrayList<>(n);
    for (int i = 0; i < n; i++) members.add(new ArrayList<>(List.of(i)));
    boolean[] alive = new boolean[n];
    java.util.Arrays.fill(alive, true);
    while (true) {
      int bi = -1;
      int bj = -1;
      double best = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < n; i++) {
        if (!alive[i]) continue;
        for (int j = i + 1; j < n; j++) {
          if (alive[j] && sim[i][j] > best) { // strict: ties keep the earlier pair
            best = sim[i][j];
            bi = i;
            bj = j;
          }
        }
      }
      if (bi < 0 || !(best >= threshold)) break;
      // Lance-Williams update for average linkage: the merged group's similarity to k is the
      // size-weighted mean of its two parts' similarities to k.
      int si = members.get(bi).size();
      int sj = members.get(bj).size();
      for (int k = 0; k < n; k++) {
        if (!alive[k] || k == bi || k == bj) continue;
        double v = (si * sim[bi][k] + sj * sim[bj][k]) / (si + sj);
        sim[bi][k] = v;
        sim[k][bi] = v;
      }
      members.get(bi).addAll(members.get(bj));
      members.get(bi).sort(null);
      alive[bj] = false;
    }
    List<List<Integer>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) if (alive[i]) out.add(List.copyOf(members.get(i)));
    return out;
  }

  private static boolean allHaveVectors(List<Passage> passages, Map<String, float[]> vectors) {
    int dim = -1;
    for (Passage p : passages) {
      float[] v = vectors.get(p.id());
      if (v == null || v.length == 0 || (dim >= 0 && v.length != dim)) return false;
      dim = v.length;
    }
    return true;
  }

  private static double[][] vectorSimilarities(List<Passage> passages, Map<String, float[]> vectors) {
    int n = passages.size();
    double[][] unit = new double[n][];
    for (int i = 0; i < n; i++) unit[i] = normalised(vectors.get(passages.get(i).id()));
    double[][] sim = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double s = 0;
        for (int d = 0; d < unit[i].length; d++) s += unit[i][d] * unit[j][d];
        sim[i][j] = s;
        sim[j][i] = s;
      }
    }
    return sim;
  }

  private static double[] normalised(float[] v) {
    double norm = 0;
    for (float x : v) norm += (double) x * x;
    norm = Math.sqrt(norm);
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) out[i] = norm == 0 ? 0 : v[i] / norm;
    return out;
  }

  /** Cosine of TF-IDF vectors ({@code (1 + ln tf) · (ln((n + 1) / (df + 1)) + 1)}) over content terms. */
  static double[][] termSimilarities(List<Passage> passages) {
    int n = passages.size();
    List<TreeMap<String, Integer>> tfs = new ArrayList<>(n);
    Map<String, Integer> df = new HashMap<>();
    for (Passage p : passages) {
      TreeMap<String, Integer> tf = new TreeMap<>();
      for (String t : Terms.content(p.text())) tf.merge(t, 1, Integer::sum);
      for (String t : tf.keySet()) df.merge(t, 1, Integer::sum);
      tfs.add(tf);
    }
    List<TreeMap<String, Double>> weights = new ArrayList<>(n);
    double[] norms = new double[n];
    for (int i = 0; i < n; i++) {
      TreeMap<String, Double> w = new TreeMap<>();
      double norm = 0;
      for (Map.Entry<String, Integer> e : tfs.get(i).entrySet()) {
        double idf = Math.log((n + 1.0) / (df.get(e.getKey()) + 1.0)) + 1.0;
        double x = (1 + Math.log(e.getValue())) * idf;
        w.put(e.getKey(), x);
        norm += x * x;
      }
      weights.add(w);
      norms[i] = Math.sqrt(norm);
    }
    double[][] sim = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        TreeMap<String, Double> a = weights.get(i);
        TreeMap<String, Double> b = weights.get(j);
        if (a.size() > b.size()) {
          TreeMap<String, Double> t = a;
          a = b;
          b = t;
        }
        double dot = 0;
        for (Map.Entry<String, Double> e : a.entrySet()) {
          Double y = b.get(e.getKey());
          if (y != null) dot += e.getValue() * y;
        }
        double s = norms[i] == 0 || norms[j] == 0 ? 0 : dot / (norms[i] * norms[j]);
        sim[i][j] = s;
        sim[j][i] = s;
      }
    }
    return sim;
  }
}
