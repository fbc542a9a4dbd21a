package dev.ctxpack.bench.jmh;

import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.retrieve.HybridRetriever;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where one {@code pack} spends its time: the packer {@link RequestBenchmark#pack} measures (same
 * index, same wiring, {@link PackOptions#defaults()}), single-threaded, with a stage listener that
 * records each stage's time per request. Runs the 300 SciFact test claims {@code warmup} times
 * unmeasured, then {@code rounds} times measured, and prints per stage and for the whole request the
 * mean, p50, p90 and p99 in milliseconds, and whether the slowest requests are slow queries or slow
 * moments (the same query's time across rounds). With {@code -Dctxpack.profile.jfr=FILE} a Flight
 * Recorder recording (the JDK's {@code profile} settings) covers the measured rounds only, for the
 * methods inside each stage ({@code jfr print --events jdk.ExecutionSample FILE}).
 *
 * <pre>java -Dctxpack.bench.index=DIR [-Dctxpack.profile.jfr=FILE] -cp ctxpack-bench/target/ctxpack-bench.jar dev.ctxpack.bench.jmh.PackProfile [warmup] [rounds]</pre>
 */
public final class PackProfile {
  private PackProfile() {}

  public static void main(String[] args) throws Exception {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    try (SciFactIndex scifact = SciFactIndex.openOrBuild()) {
      Map<String, List<Long>> perStage = new LinkedHashMap<>();
      boolean[] measuring = {false};
      HybridRetriever retriever = new HybridRetriever(scifact.index, scifact.embedder);
      DefaultContextPacker packer = SciFactIndex.packer(retriever, scifact.index, scifact.embedder, (stage, nanos) -> {
        if (measuring[0]) perStage.computeIfAbsent(stage, s -> new ArrayList<>()).add(nanos);
      });
      PackOptions o = PackOptions.defaults();
      for (int w = 0; w < warmup; w++) {
        for (String q : scifact.queries) packer.pack(q, o);
      }
      measuring[0] = true;
      String jfr = System.getProperty("ctxpack.profile.jfr");
      jdk.jfr.Recording recording = null;
      if (jfr != null && !jfr.isBlank()) {
        recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
        recording.setDestination(java.nio.file.Path.of(jfr));
        recording.start();
      }
      List<Long> total = new ArrayList<>();
      long[][] perQuery = new long[rounds][scifact.queries.size()];
      for (int r = 0; r < rounds; r++) {
        for (int qi = 0; qi < scifact.queries.size(); qi++) {
          long t0 = System.nanoTime();
          packer.pack(scifact.queries.get(qi), o);
          perQuery[r][qi] = System.nanoTime() - t0;
          total.add(perQuery[r][qi]);
        }
      }
      if (recording != null) {
        recording.stop();
        recording.close();
      }
      System.out.printf("%-10s %8s %8s %8s %8s %8s%n", "stage", "calls", "mean", "p50", "p90", "p99");
      perStage.forEach((stage, v) -> print(stage, v));
      print("pack", total);
      tail(perQuery);
    }
  }

  /**
   * Whether the slowest requests are slow queries (more work) or slow moments (the collector, the
   * machine): the requests at or above the whole run's p99, how many distinct queries they are, and
   * how many of those queries were also that slow in every other round; then the p99 over each
   * query's fastest round, the tail that the queries' own work accounts for.
   */
  private static void tail(long[][] perQuery) {
    int rounds = perQuery.length;
    if (rounds < 2) return;
    long[] all = Arrays.stream(perQuery).flatMapToLong(Arrays::stream).sorted().toArray();
    double p99 = at(all, 0.99);
    java.util.Set<Integer> slow = new java.util.TreeSet<>();
    int slowEverywhere = 0;
    for (int r = 0; r < rounds; r++) {
      for (int q = 0; q < perQuery[r].length; q++) if (perQuery[r][q] / 1e6 >= p99) slow.add(q);
    }
    for (int q : slow) {
      boolean every = true;
      for (long[] round : perQuery) every &= round[q] / 1e6 >= 0.8 * p99;
      if (every) slowEverywhere++;
    }
    long[] best = new long[perQuery[0].length];
    for (int q = 0; q < best.length; q++) {
      best[q] = Long.MAX_VALUE;
      for (long[] round : perQuery) best[q] = Math.min(best[q], round[q]);
    }
    Arrays.sort(best);
    System.out.printf("tail: %d requests at or above p99 %.2f ms, %d distinct queries, %d of them at least 0.8 x p99 in every round;"
        + " per query, fastest of %d rounds: p50 %.2f, p99 %.2f ms%n", Arrays.stream(all).filter(v -> v / 1e6 >= p99).count(),
        p99, slow.size(), slowEverywhere, rounds, at(best, 0.5), at(best, 0.99));
  }

  private static void print(String stage, List<Long> nanos) {
    long[] v = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    double mean = Arrays.stream(v).average().orElse(0) / 1e6;
    System.out.printf("%-10s %8d %8.2f %8.2f %8.2f %8.2f%n", stage, v.length, mean, at(v, 0.5), at(v, 0.9), at(v, 0.99));
  }

  private static double at(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
  }
}
