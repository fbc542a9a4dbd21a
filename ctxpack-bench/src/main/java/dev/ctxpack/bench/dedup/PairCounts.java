package dev.ctxpack.bench.dedup;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Merge decisions on judged pairs against the gold duplicate label: precision, recall, F1 of
 * "merged", and false merges (non-duplicates merged), as a count and as a share of the
 * non-duplicate pairs. Not thread-safe.
 */
final class PairCounts {
  int tp;
  int fp;
  int fn;
  int tn;

  void add(boolean merged, boolean gold) {
    if (merged && gold) tp++;
    else if (merged) fp++;
    else if (gold) fn++;
    else tn++;
  }

  int pairs() {
    return tp + fp + fn + tn;
  }

  int merged() {
    return tp + fp;
  }

  int gold() {
    return tp + fn;
  }

  double precision() {
    return tp + fp == 0 ? Double.NaN : tp / (double) (tp + fp);
  }

  double recall() {
    return tp + fn == 0 ? Double.NaN : tp / (double) (tp + fn);
  }

  double f1() {
    double p = precision();
    double r = recall();
    if (Double.isNaN(p) || Double.isNaN(r) || p + r == 0) return tp == 0 ? 0 : Double.NaN;
    return 2 * p * r / (p + r);
  }

  /** F-beta with beta = 0.5: precision weighted twice as much as recall. */
  double fHalf() {
    double p = precision();
    double r = recall();
    if (Double.isNaN(p) || Double.isNaN(r) || p + r == 0) return tp == 0 ? 0 : Double.NaN;
    return 1.25 * p * r / (0.25 * p + r);
  }

  int falseMerges() {
    return fp;
  }

  double falseMergeRate() {
    return fp + tn == 0 ? Double.NaN : fp / (double) (fp + tn);
  }

  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pairs", pairs());
    m.put("gold", gold());
    m.put("merged", merged());
    m.put("tp", tp);
    m.put("fp", fp);
    m.put("fn", fn);
    m.put("tn", tn);
    m.put("precision", num(precision()));
    m.put("recall", num(recall()));
    m.put("f1", num(f1()));
    m.put("f0.5", num(fHalf()));
    m.put("falseMerges", fp);
    m.put("falseMergeRate", num(falseMergeRate()));
    return m;
  }

  private static Object num(double d) {
    return Double.isNaN(d) ? null : d;
  }
}
