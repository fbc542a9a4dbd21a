package dev.ctxpack.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine and JVM a run happened on, written next to every figure. */
public final class Environment {
  private Environment() {}

  public static Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    m.put("java.version", System.getProperty("java.version"));
    m.put("java.vendor", System.getProperty("java.vendor"));
    m.put("java.vm.name", System.getProperty("java.vm.name"));
    m.put("java.vm.version", System.getProperty("java.vm.version"));
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    m.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
    m.put("cpu", cpuModel());
    m.put("maxHeapMB", Long.toString(Runtime.getRuntime().maxMemory() / (1024 * 1024)));
    m.put("loadAverageAtStart", loadAverage());
    return m;
  }

  /** The 1, 5 and 15 minute load averages from /proc/loadavg (other work on the machine skews timings). */
  public static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).trim();
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or not readable: leave it out.
    }
    return "unknown";
  }
}
