package dev.ctxpack.bench.verify;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The threshold that maximises accuracy of "score >= threshold means supported" on labelled scores.
 * Candidates are every midpoint between two neighbouring distinct scores, plus one below the lowest
 * and one above the highest; among equally accurate candidates the lowest wins. NaN scores (a claim
 * with no valid citation: never supported, whatever the threshold) count as not supported.
 */
public final class ThresholdFit {
  private ThresholdFit() {}

  /** A threshold and the accuracy it reaches on the scores it was chosen on. */
  public record Result(double threshold, double accuracy, int n) {}

  public static Result best(double[] scores, boolean[] positive) {
    if (scores.length != positive.length) throw new IllegalArgumentException("one label per score");
    int n = scores.length;
    if (n == 0) return new Result(Double.NaN, Double.NaN, 0);
    List<Integer> order = new ArrayList<>();
    int nanNegatives = 0;
    int nanPositives = 0;
    for (int i = 0; i < n; i++) {
      if (Double.isNaN(scores[i])) {
        if (positive[i]) nanPositives++;
        else nanNegatives++;
      } else {
        order.add(i);
      }
    }
    order.sort(Comparator.comparingDouble(i -> scores[i]));
    // threshold below everything: every scored case is called supported
    int positivesAbove = 0;
    for (int i : order) if (positive[i]) positivesAbove++;
    int negativesBelow = 0;
    int right = positivesAbove + nanNegatives;
    double bestThreshold = order.isEmpty() ? 0 : scores[order.get(0)] - 1e-6;
    int bestRight = right;
    for (int k = 0; k < order.size(); k++) {
      int i = order.get(k);
      if (positive[i]) positivesAbove--;
      else negativesBelow++;
      if (k + 1 < order.size() && scores[order.get(k + 1)] == scores[i]) continue;
      right = positivesAbove + negativesBelow + nanNegatives;
      double t = k + 1 < order.size() ? (scores[i] + scores[order.get(k + 1)]) / 2 : scores[i] + 1e-6;
      if (right > bestRight) {
        bestRight = right;
        bestThreshold = t;
      }
    }
    return new Result(bestThreshold, (double) bestRight / n, n);
  }

  /** Accuracy of {@code threshold} on labelled scores. */
  public static double accuracy(double[] scores, boolean[] positive, double threshold) {
    int right = 0;
    for (int i = 0; i < scores.length; i++) {
      boolean called = !Double.isNaN(scores[i]) && scores[i] >= threshold;
      if (called == positive[i]) right++;
    }
    return scores.length == 0 ? Double.NaN : (double) right / scores.length;
  }
}
