package dev.ctxpack.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of {@link Evaluation#evaluate}: the mean of each metric over the {@code evaluated}
 * queries, the per-query scores behind them, and the queries left out or unanswered.
 *
 * @param means each metric's mean over the evaluated queries, in the order asked; NaN when no
 *     query could be evaluated
 * @param perQuery query id to that query's score per metric, for the evaluated queries
 * @param evaluated how many queries the means average over
 * @param excluded ids of queries without any relevant judgment (undefined measures), left out of
 *     the means
 * @param unanswered ids of judged queries that had no ranking in the run; they are evaluated, with
 *     an empty ranking (every measure 0)
 */
public record EvalReport(
    Map<Metric, Double> means,
    Map<String, Map<Metric, Double>> perQuery,
    int evaluated,
    List<String> excluded,
    List<String> unanswered) {
  public EvalReport {
    means = Collections.unmodifiableMap(new LinkedHashMap<>(means));
    TreeMap<String, Map<Metric, Double>> pq = new TreeMap<>();
    perQuery.forEach((q, m) -> pq.put(q, Collections.unmodifiableMap(new LinkedHashMap<>(m))));
    perQuery = Collections.unmodifiableMap(pq);
    excluded = List.copyOf(excluded);
    unanswered = List.copyOf(unanswered);
  }

  /** The mean of {@code metric}; fails naming the metric if it was not asked for. */
  public double mean(Metric metric) {
    Double v = means.get(metric);
    if (v == null) throw new IllegalArgumentException("metric " + metric + " was not evaluated; have " + means.keySet());
    return v;
  }
}
