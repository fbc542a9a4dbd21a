package dev.ctxpack.eval;

import java.util.List;

/** The per-query measures {@link RankingMetrics} computes, by the name used in reports. */
public enum Measure {
  RECALL("Recall"),
  NDCG("nDCG"),
  MRR("MRR");

  private final String label;

  Measure(String label) {
    this.label = label;
  }

  /** The name in reports, e.g. {@code nDCG}. */
  public String label() {
    return label;
  }

  /** This measure of {@code ranking} at cut-off {@code k}. */
  public double score(List<String> ranking, Judgments judgments, int k) {
    return switch (this) {
      case RECALL -> RankingMetrics.recall(ranking, judgments, k);
      case NDCG -> RankingMetrics.ndcg(ranking, judgments, k);
      case MRR -> RankingMetrics.reciprocalRank(ranking, judgments, k);
    };
  }
}
