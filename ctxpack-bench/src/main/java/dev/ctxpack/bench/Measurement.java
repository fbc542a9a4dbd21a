package dev.ctxpack.bench;

import dev.ctxpack.bench.pipeline.Ranker;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs every query through a ranker once, sequentially, recording the ranking and the wall time of each. */
final class Measurement {
  private Measurement() {}

  /** The rankings of one pass and each query's latency in nanoseconds, in query order. */
  record Pass(Map<String, List<String>> rankings, long[] nanos) {
    double percentileMillis(double p) {
      return percentile(nanos, p) / 1e6;
    }

    double meanMillis() {
      return Arrays.stream(nanos).average().orElse(Double.NaN) / 1e6;
    }
  }

  static Pass run(Ranker ranker, Map<String, String> queries, int depth) throws IOException {
    Map<String, List<String>> rankings = new LinkedHashMap<>();
    long[] nanos = new long[queries.size()];
    int i = 0;
    for (Map.Entry<String, String> q : queries.entrySet()) {
      long t0 = System.nanoTime();
      List<String> r = ranker.rank(q.getValue(), depth);
      nanos[i++] = System.nanoTime() - t0;
      rankings.put(q.getKey(), r);
    }
    return new Pass(rankings, nanos);
  }

  /** The nearest-rank percentile {@code p} (0 < p <= 100) of {@code values}; NaN when empty. */
  static double percentile(long[] values, double p) {
    if (values.length == 0) return Double.NaN;
    long[] s = values.clone();
    Arrays.sort(s);
    int rank = (int) Math.ceil(p / 100.0 * s.length);
    return s[Math.max(0, Math.min(s.length, rank) - 1)];
  }
}
