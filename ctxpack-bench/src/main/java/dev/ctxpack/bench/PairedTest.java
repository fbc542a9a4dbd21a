package dev.ctxpack.bench;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A two-sided paired randomization (sign-flip) test of the mean per-query difference between two
 * methods on the same queries: the share of random sign assignments whose mean difference is at
 * least as large in magnitude as the observed one. Seeded, so the same input gives the same p.
 */
public final class PairedTest {
  public static final int ROUNDS = 10_000;
  public static final long SEED = 20_240_601L;

  private PairedTest() {}

  /** The comparison of {@code method} against {@code baseline} on nDCG@10. */
  record Comparison(String method, String baseline, double meanDiff, double p, int wins, int losses, int queries) {}

  /** Compares per-query scores (query id to score) over the queries of {@code baseline}. */
  static Comparison compare(String method, Map<String, Double> a, String baseline, Map<String, Double> b) {
    List<String> queries = b.keySet().stream().sorted().toList();
    double[] diff = new double[queries.size()];
    int wins = 0;
    int losses = 0;
    for (int i = 0; i < diff.length; i++) {
      String q = queries.get(i);
      diff[i] = a.getOrDefault(q, 0.0) - b.get(q);
      if (diff[i] > 0) wins++;
      if (diff[i] < 0) losses++;
    }
    return new Comparison(method, baseline, mean(diff), pValue(diff, ROUNDS, SEED), wins, losses, diff.length);
  }

  /** The two-sided p of the per-query differences {@code diff}, from {@code rounds} seeded sign flips. */
  public static double pValue(double[] diff, int rounds, long seed) {
    if (diff.length == 0) return 1.0;
    double observed = Math.abs(mean(diff));
    SplittableRandom random = new SplittableRandom(seed);
    int atLeast = 0;
    for (int r = 0; r < rounds; r++) {
      double sum = 0;
      for (double d : diff) sum += random.nextBoolean() ? d : -d;
      if (Math.abs(sum / diff.length) >= observed - 1e-15) atLeast++;
    }
    return (double) atLeast / rounds;
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) s += x;
    return v.length == 0 ? 0 : s / v.length;
  }
}
