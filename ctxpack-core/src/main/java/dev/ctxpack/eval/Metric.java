package dev.ctxpack.eval;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** A measure at a cut-off, e.g. nDCG@10. Parses and prints as {@code nDCG@10}, {@code Recall@100}, {@code MRR@10}. */
public record Metric(Measure measure, int k) {
  public Metric {
    Objects.requireNonNull(measure, "measure");
    if (k < 1) throw new IllegalArgumentException("cut-off k of " + measure.label() + " must be >= 1, was " + k);
  }

  public static Metric ndcg(int k) {
    return new Metric(Measure.NDCG, k);
  }

  public static Metric recall(int k) {
    return new Metric(Measure.RECALL, k);
  }

  public static Metric mrr(int k) {
    return new Metric(Measure.MRR, k);
  }

  /** Parses {@code nDCG@10}, {@code recall@100}, {@code MRR@10} (case-insensitive). */
  public static Metric parse(String s) {
    Objects.requireNonNull(s, "metric");
    int at = s.indexOf('@');
    if (at < 0) throw new IllegalArgumentException("metric '" + s + "' has no cut-off: write e.g. nDCG@10");
    String name = s.substring(0, at).trim().toLowerCase(Locale.ROOT);
    Measure m = switch (name) {
      case "ndcg" -> Measure.NDCG;
      case "recall", "r" -> Measure.RECALL;
      case "mrr", "rr" -> Measure.MRR;
      default -> throw new IllegalArgumentException("unknown metric '" + s + "': use nDCG@k, Recall@k or MRR@k");
    };
    int k;
    try {
      k = Integer.parseInt(s.substring(at + 1).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("metric '" + s + "': cut-off is not a number");
    }
    return new Metric(m, k);
  }

  public double score(List<String> ranking, Judgments judgments) {
    return measure.score(ranking, judgments, k);
  }

  /** {@code nDCG@10}. */
  @Override
  public String toString() {
    return measure.label() + "@" + k;
  }
}
