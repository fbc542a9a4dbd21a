package dev.ctxpack.bench.rerank;

import java.util.ArrayList;
import java.util.List;

/**
 * L2-regularised logistic regression by Newton's method, in plain Java: deterministic (no random
 * numbers, fixed iteration cap), small (one dense d x d system per step). Two losses over the same
 * per-query data:
 *
 * <ul>
 *   <li>{@link Loss#PAIRWISE}: {@code log(1 + exp(-w.(x_pos - x_neg)))} over every (relevant,
 *       non-relevant) pair of a query's candidates, each query weighing the same however many pairs
 *       it has; no intercept (a constant changes no order);
 *   <li>{@link Loss#POINTWISE}: {@code log(1 + exp(-y (w.x + b)))} over every candidate, the
 *       intercept not penalised.
 * </ul>
 *
 * Features are expected standardised; the objective is the mean loss plus {@code lambda / 2 * |w|^2}.
 */
public final class LogisticFit {
  public enum Loss { PAIRWISE, POINTWISE }

  /** One query's candidates: feature rows and labels. */
  public record Group(double[][] x, boolean[] relevant) {}

  public static final int MAX_ITERATIONS = 50;
  private static final double TOLERANCE = 1e-9;

  private LogisticFit() {}

  /** Weights of the features (length d); for POINTWISE the intercept is dropped. */
  public static double[] fit(List<Group> groups, int d, Loss loss, double lambda) {
    double[] all = fitAll(groups, d, loss, lambda);
    double[] out = new double[d];
    System.arraycopy(all, 0, out, 0, d);
    return out;
  }

  /** POINTWISE weights followed by the intercept (length d + 1). */
  public static double[] fitWithIntercept(List<Group> groups, int d, double lambda) {
    return fitAll(groups, d, Loss.POINTWISE, lambda);
  }

  private static double[] fitAll(List<Group> groups, int d, Loss loss, double lambda) {
    List<double[]> rows = new ArrayList<>();
    List<Double> sampleWeights = new ArrayList<>();
    List<Boolean> labels = new ArrayList<>();
    int dim = loss == Loss.POINTWISE ? d + 1 : d;
    for (Group g : groups) {
      if (loss == Loss.PAIRWISE) {
        int pos = 0;
        for (boolean r : g.relevant()) if (r) pos++;
        int neg = g.relevant().length - pos;
        if (pos == 0 || neg == 0) continue;
        double w = 1.0 / ((double) pos * neg);
        for (int i = 0; i < g.x().length; i++) {
          if (!g.relevant()[i]) continue;
          for (int j = 0; j < g.x().length; j++) {
            if (g.relevant()[j]) continue;
            double[] diff = new double[d];
            for (int f = 0; f < d; f++) diff[f] = g.x()[i][f] - g.x()[j][f];
            rows.add(diff);
            sampleWeights.add(w);
            labels.add(true);
          }
        }
      } else {
        for (int i = 0; i < g.x().length; i++) {
          double[] row = new double[d + 1];
          System.arraycopy(g.x()[i], 0, row, 0, d);
          row[d] = 1;
          rows.add(row);
          sampleWeights.add(1.0);
          labels.add(g.relevant()[i]);
        }
      }
    }
    double total = 0;
    for (double w : sampleWeights) total += w;
    double[] w = new double[dim];
    if (rows.isEmpty()) return new double[d];
    double[] penalty = new double[dim];
    for (int f = 0; f < d; f++) penalty[f] = lambda;
    if (loss == Loss.POINTWISE) penalty[d] = 1e-8; // the intercept: unpenalised, kept solvable
    double prev = objective(rows, sampleWeights, labels, w, penalty, total);
    for (int it = 0; it < MAX_ITERATIONS; it++) {
      double[] grad = new double[dim];
      double[][] hess = new double[dim][dim];
      for (int k = 0; k < rows.size(); k++) {
        double[] r = rows.get(k);
        double y = labels.get(k) ? 1 : -1;
        double z = y * dot(w, r);
        double p = sigmoid(-z); // d/dz log(1+e^-z) = -p
        double sw = sampleWeights.get(k) / total;
        double h = sw * p * (1 - p);
        for (int a = 0; a < dim; a++) {
          grad[a] -= sw * p * y * r[a];
          if (r[a] == 0) continue;
          double ha = h * r[a];
          for (int b = a; b < dim; b++) hess[a][b] += ha * r[b];
        }
      }
      for (int a = 0; a < dim; a++) {
        grad[a] += penalty[a] * w[a];
        hess[a][a] += penalty[a];
        for (int b = 0; b < a; b++) hess[a][b] = hess[b][a];
      }
      double[] step = solve(hess, grad);
      // Backtracking keeps every step a descent step.
      double t = 1;
      double[] next = new double[dim];
      double value;
      while (true) {
        for (int a = 0; a < dim; a++) next[a] = w[a] - t * step[a];
        value = objective(rows, sampleWeights, labels, next, penalty, total);
        if (value <= prev || t < 1e-6) break;
        t /= 2;
      }
      w = next.clone();
      if (prev - value < TOLERANCE) break;
      prev = value;
    }
    return w;
  }

  private static double objective(List<double[]> rows, List<Double> sw, List<Boolean> labels, double[] w,
      double[] penalty, double total) {
    double s = 0;
    for (int k = 0; k < rows.size(); k++) {
      double z = (labels.get(k) ? 1 : -1) * dot(w, rows.get(k));
      s += sw.get(k) / total * log1pExp(-z);
    }
    for (int a = 0; a < w.length; a++) s += 0.5 * penalty[a] * w[a] * w[a];
    return s;
  }

  static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }

  private static double sigmoid(double z) {
    return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
  }

  private static double log1pExp(double z) {
    return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
  }

  /** Solves {@code a x = b} for symmetric positive definite {@code a} (Cholesky). */
  static double[] solve(double[][] a, double[] b) {
    int n = b.length;
    double[][] l = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double s = a[i][j];
        for (int k = 0; k < j; k++) s -= l[i][k] * l[j][k];
        if (i == j) {
          l[i][i] = Math.sqrt(Math.max(s, 1e-12));
        } else {
          l[i][j] = s / l[j][j];
        }
      }
    }
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      double s = b[i];
      for (int k = 0; k < i; k++) s -= l[i][k] * y[k];
      y[i] = s / l[i][i];
    }
    double[] x = new double[n];
    for (int i = n - 1; i >= 0; i--) {
      double s = y[i];
      for (int k = i + 1; k < n; k++) s -= l[k][i] * x[k];
      x[i] = s / l[i][i];
    }
    return x;
  }
}
