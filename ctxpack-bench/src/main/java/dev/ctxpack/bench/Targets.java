package dev.ctxpack.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The project's nDCG@10 targets, checked against a run's figures and printed as met or missed. */
final class Targets {
  private Targets() {}

  static List<String> check(String dataset, List<MethodResult> methods) {
    List<String> out = new ArrayList<>();
    double bm25 = ndcg(methods, "ctxpack bm25");
    double dense = ndcg(methods, "ctxpack dense");
    double hybrid = ndcg(methods, "ctxpack hybrid");
    switch (dataset.toLowerCase(Locale.ROOT)) {
      case "scifact" -> {
        out.add(line("bm25 nDCG@10 >= 0.68", bm25, bm25 >= 0.68));
        out.add(line("dense nDCG@10 >= 0.62", dense, dense >= 0.62));
        out.add(line("hybrid nDCG@10 >= 0.72", hybrid, hybrid >= 0.72));
      }
      case "cranfield" -> {
        out.add(line("hybrid nDCG@10 >= 0.41", hybrid, hybrid >= 0.41));
        out.add(line("hybrid nDCG@10 >= max(bm25, dense) = " + fmt(Math.max(bm25, dense)), hybrid,
            hybrid >= Math.max(bm25, dense)));
      }
      default -> { }
    }
    return out;
  }

  /** nDCG@10 of the first method whose name starts with {@code prefix} (for hybrid: the first --fusion, per chunk). */
  private static double ndcg(List<MethodResult> methods, String prefix) {
    for (MethodResult m : methods) {
      if (m.name().startsWith(prefix)) return m.metrics().getOrDefault("nDCG@10", Double.NaN);
    }
    return Double.NaN;
  }

  private static String line(String what, double value, boolean met) {
    return (met ? "met: " : "MISSED: ") + what + " (ctxpack: " + fmt(value) + ")";
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
