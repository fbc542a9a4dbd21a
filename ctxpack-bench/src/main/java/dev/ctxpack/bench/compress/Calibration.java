package dev.ctxpack.bench.compress;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How far predicted probabilities are from observed frequencies: a reliability table of equal-width
 * bins (predicted mean against observed frequency, with counts), the expected calibration error
 * (ECE: the count-weighted mean of |observed − predicted| over the bins), the Brier score (mean
 * squared error of the probability against the 0/1 label) and the signed gap where a relevance line
 * would sit. Pure arithmetic, deterministic.
 */
public final class Calibration {
  /** The range in which a relevance line is expected: the signed gap is measured over it. */
  public static final double MID_LO = 0.2;

  public static final double MID_HI = 0.8;

  private Calibration() {}

  /**
   * One bin {@code [lo, hi)} (the last one includes 1): its sentences, their mean probability and
   * the share of them that are positive (NaN when empty).
   */
  public record Bin(double lo, double hi, int count, int positives, double predicted, double observed) {}

  /**
   * The figures of one set of predictions: {@code ece} over {@code bins}; {@code midGap} the
   * observed minus the predicted frequency over the {@code midCount} predictions in [{@value
   * #MID_LO}, {@value #MID_HI}) (positive: under-confident there; NaN when none).
   */
  public record Result(int n, int positives, double meanPredicted, double baseRate, double ece, double maxGap,
      double brier, double midGap, int midCount, List<Bin> bins) {
    public Result {
      bins = List.copyOf(bins);
    }
  }

  /** The bin of probability {@code p} among {@code bins} equal-width bins of [0, 1]. */
  static int bin(double p, int bins) {
    if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("a probability must be in [0, 1], was " + p);
    return Math.min(bins - 1, (int) Math.floor(p * bins));
  }

  /** The figures of probabilities {@code p} against labels {@code y}, over {@code bins} equal-width bins. */
  public static Result of(double[] p, boolean[] y, int bins) {
    if (p.length != y.length) throw new IllegalArgumentException(p.length + " probabilities for " + y.length + " labels");
    if (bins < 1) throw new IllegalArgumentException("bins must be >= 1, was " + bins);
    int[] count = new int[bins];
    int[] pos = new int[bins];
    double[] sum = new double[bins];
    double brier = 0;
    double sumP = 0;
    int positives = 0;
    double midP = 0;
    int midY = 0;
    int mid = 0;
    for (int i = 0; i < p.length; i++) {
      int b = bin(p[i], bins);
      int label = y[i] ? 1 : 0;
      count[b]++;
      pos[b] += label;
      sum[b] += p[i];
      sumP += p[i];
      positives += label;
      brier += (p[i] - label) * (p[i] - label);
      if (p[i] >= MID_LO && p[i] < MID_HI) {
        mid++;
        midP += p[i];
        midY += label;
      }
    }
    int n = p.length;
    List<Bin> out = new ArrayList<>(bins);
    double ece = 0;
    double maxGap = 0;
    for (int b = 0; b < bins; b++) {
      double predicted = count[b] == 0 ? Double.NaN : sum[b] / count[b];
      double observed = count[b] == 0 ? Double.NaN : (double) pos[b] / count[b];
      if (count[b] > 0) {
        ece += (double) count[b] / n * Math.abs(observed - predicted);
        maxGap = Math.max(maxGap, Math.abs(observed - predicted));
      }
      out.add(new Bin((double) b / bins, (double) (b + 1) / bins, count[b], pos[b], predicted, observed));
    }
    return new Result(n, positives, n == 0 ? Double.NaN : sumP / n, n == 0 ? Double.NaN : (double) positives / n,
        n == 0 ? Double.NaN : ece, n == 0 ? Double.NaN : maxGap, n == 0 ? Double.NaN : brier / n,
        mid == 0 ? Double.NaN : (midY - midP) / mid, mid, out);
  }

  /**
   * A percentile 95 % interval of the ECE from {@code rounds} resamples of whole questions with
   * replacement ({@code question[i]} numbers the question of prediction {@code i}, 0-based, so the
   * sentences of one request stay together), seeded.
   */
  public static double[] eceInterval(double[] p, boolean[] y, int[] question, int bins, int rounds, long seed) {
    int q = 0;
    for (int g : question) q = Math.max(q, g + 1);
    if (q == 0) return new double[] {Double.NaN, Double.NaN};
    int[] start = new int[q + 1];
    for (int g : question) start[g + 1]++;
    for (int g = 0; g < q; g++) start[g + 1] += start[g];
    int[] members = new int[p.length];
    int[] fill = Arrays.copyOf(start, q);
    for (int i = 0; i < p.length; i++) members[fill[question[i]]++] = i;
    SplittableRandom random = new SplittableRandom(seed);
    double[] eces = new double[rounds];
    int[] count = new int[bins];
    int[] pos = new int[bins];
    double[] sum = new double[bins];
    for (int r = 0; r < rounds; r++) {
      Arrays.fill(count, 0);
      Arrays.fill(pos, 0);
      Arrays.fill(sum, 0);
      int n = 0;
      for (int k = 0; k < q; k++) {
        int g = random.nextInt(q);
        for (int m = start[g]; m < start[g + 1]; m++) {
          int i = members[m];
          int b = bin(p[i], bins);
          count[b]++;
          pos[b] += y[i] ? 1 : 0;
          sum[b] += p[i];
          n++;
        }
      }
      double ece = 0;
      for (int b = 0; b < bins; b++) {
        if (count[b] > 0) ece += (double) count[b] / n * Math.abs((double) pos[b] / count[b] - sum[b] / count[b]);
      }
      eces[r] = n == 0 ? 0 : ece;
    }
    Arrays.sort(eces);
    return new double[] {eces[(int) Math.floor(0.025 * (rounds - 1))], eces[(int) Math.ceil(0.975 * (rounds - 1))]};
  }
}
