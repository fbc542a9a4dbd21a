package dev.ctxpack.eval;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Per-query measures of one ranking (document ids, best first) against a query's {@link
 * Judgments}. Each looks at the first {@code k} positions of the ranking; a shorter ranking is
 * simply shorter (a {@code k} larger than the list is not an error). A document that appears
 * again later in the ranking counts only at its first position: its later copies keep their
 * positions but earn nothing, so a ranking cannot gain by repeating a good document.
 *
 * <p>The query must have at least one relevant document: without one these measures are undefined
 * (0/0), and {@link Evaluation} excludes such queries from its means instead of calling here.
 *
 * <p>Trap: {@link #ndcg} normalises by the ideal DCG of <em>all</em> the query's relevant
 * documents, so a ranking that finds one of three relevant documents does not score 1 just
 * because it put that one first.
 */
public final class RankingMetrics {
  private RankingMetrics() {}

  /**
   * Recall@k: the share of the query's relevant documents found in the first {@code k} positions.
   * {@code |relevant ∩ top-k| / |relevant|}.
   */
  public static double recall(List<String> ranking, Judgments judgments, int k) {
    check(ranking, judgments, k);
    int found = 0;
    Set<String> seen = new HashSet<>();
    int n = Math.min(k, ranking.size());
    for (int i = 0; i < n; i++) {
      String d = ranking.get(i);
      if (seen.add(d) && judgments.isRelevant(d)) found++;
    }
    return (double) found / judgments.relevantCount();
  }

  /**
   * nDCG@k with linear gains and a {@code log2(rank + 1)} discount (rank 1-based), as trec_eval's
   * {@code ndcg_cut}: {@code DCG = sum over the first k positions of gain / log2(rank + 1)},
   * divided by the DCG of the ideal ranking of every judged relevant document (highest gain first),
   * also cut at {@code k}.
   */
  public static double ndcg(List<String> ranking, Judgments judgments, int k) {
    check(ranking, judgments, k);
    double dcg = 0;
    Set<String> seen = new HashSet<>();
    int n = Math.min(k, ranking.size());
    for (int i = 0; i < n; i++) {
      String d = ranking.get(i);
      if (seen.add(d)) dcg += judgments.gain(d) / log2(i + 2);
    }
    double idcg = 0;
    List<Integer> ideal = judgments.idealGains();
    for (int i = 0; i < Math.min(k, ideal.size()); i++) idcg += ideal.get(i) / log2(i + 2);
    return dcg / idcg;
  }

  /**
   * The reciprocal rank of the first relevant document within the first {@code k} positions, or 0
   * if none is there. Its mean over queries is MRR@k.
   */
  public static double reciprocalRank(List<String> ranking, Judgments judgments, int k) {
    check(ranking, judgments, k);
    int n = Math.min(k, ranking.size());
    for (int i = 0; i < n; i++) {
      if (judgments.isRelevant(ranking.get(i))) return 1.0 / (i + 1);
    }
    return 0;
  }

  private static double log2(int x) {
    return Math.log(x) / Math.log(2);
  }

  private static void check(List<String> ranking, Judgments judgments, int k) {
    Objects.requireNonNull(ranking, "ranking");
    Objects.requireNonNull(judgments, "judgments");
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, was " + k);
    if (!judgments.hasRelevant()) {
      throw new IllegalArgumentException("the query has no relevant judgment: the measure is undefined");
    }
    for (int i = 0; i < ranking.size(); i++) {
      if (ranking.get(i) == null) throw new IllegalArgumentException("ranking has a null id at position " + (i + 1));
    }
  }
}
