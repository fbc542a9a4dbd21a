package dev.ctxpack.eval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Averages {@link RankingMetrics} over a set of queries. For every query id in the judgments or in
 * the run, in id order:
 *
 * <ol>
 *   <li>a query without any relevant judgment (no judgments, or only gain-0 ones) is excluded from
 *       the means and listed in {@link EvalReport#excluded()}: its measures are undefined;
 *   <li>a judged query the run has no ranking for is evaluated with an empty ranking (scoring 0)
 *       and listed in {@link EvalReport#unanswered()};
 *   <li>every other query is scored on every metric; the means are plain averages over these
 *       evaluated queries (macro-averaging, as trec_eval).
 * </ol>
 *
 * <p>Example: two judged queries, one with nDCG@10 = 1.0 and one with 0.5, and one query with no
 * relevant judgment: mean nDCG@10 = 0.75 over 2 evaluated queries, 1 excluded.
 */
public final class Evaluation {
  private Evaluation() {}

  /**
   * @param run query id to its ranking (document ids, best first)
   * @param qrels query id to its judgments
   * @param metrics what to compute; at least one
   */
  public static EvalReport evaluate(
      Map<String, List<String>> run, Map<String, Judgments> qrels, List<Metric> metrics) {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(qrels, "qrels");
    Objects.requireNonNull(metrics, "metrics");
    if (metrics.isEmpty()) throw new IllegalArgumentException("metrics must not be empty");
    TreeSet<String> queries = new TreeSet<>(qrels.keySet());
    queries.addAll(run.keySet());
    Map<Metric, Double> sums = new LinkedHashMap<>();
    for (Metric m : metrics) sums.put(m, 0.0);
    Map<String, Map<Metric, Double>> perQuery = new LinkedHashMap<>();
    List<String> excluded = new ArrayList<>();
    List<String> unanswered = new ArrayList<>();
    for (String q : queries) {
      Judgments j = qrels.get(q);
      if (j == null || !j.hasRelevant()) {
        excluded.add(q);
        continue;
      }
      List<String> ranking = run.get(q);
      if (ranking == null) {
        unanswered.add(q);
        ranking = List.of();
      }
      Map<Metric, Double> scores = new LinkedHashMap<>();
      for (Metric m : metrics) {
        double s = m.score(ranking, j);
        scores.put(m, s);
        sums.merge(m, s, Double::sum);
      }
      perQuery.put(q, scores);
    }
    int n = perQuery.size();
    Map<Metric, Double> means = new LinkedHashMap<>();
    for (Metric m : metrics) means.put(m, n == 0 ? Double.NaN : sums.get(m) / n);
    return new EvalReport(means, perQuery, n, excluded, unanswered);
  }
}
