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
 * mean, p50, p90 and p99 in milliseconds. With {@code -Dctxpack.profile.jfr=FILE} a Flight
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
      for (int r = 0; r < rounds; r++) {
        for (String q : scifact.queries) {
          long t0 = System.nanoTime();
          packer.pack(q, o);
          total.add(System.nanoTime() - t0);
        }
      }
      if (recording != null) {
        recording.stop();
        recording.close();
      }
      System.out.printf("%-10s %8s %8s %8s %8s %8s%n", "stage", "calls", "mean", "p50", "p90", "p99");
      perStage.forEach((stage, v) -> print(stage, v));
      print("pack", total);
    }
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
