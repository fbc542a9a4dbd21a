package dev.ctxpack.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.bench.data.CorpusDoc;
import dev.ctxpack.retrieve.Fusion;
import dev.ctxpack.retrieve.RrfFusion;
import dev.ctxpack.retrieve.WeightedFusion;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/** The runner's small helpers: option parsing, default paths, files. */
public final class RunSupport {
  private RunSupport() {}

  static Fusion parseFusion(String spec) {
    String[] p = spec.trim().toLowerCase(Locale.ROOT).split(":");
    try {
      if (p[0].equals("rrf")) {
        int k = p.length > 1 ? Integer.parseInt(p[1]) : RrfFusion.DEFAULT_K;
        double[] w = p.length > 2 ? Arrays.stream(p[2].split(",")).mapToDouble(Double::parseDouble).toArray() : new double[0];
        return new RrfFusion(k, w);
      }
      if (p[0].equals("weighted") && p.length == 2) {
        return new WeightedFusion(Arrays.stream(p[1].split(",")).mapToDouble(Double::parseDouble).toArray());
      }
    } catch (NumberFormatException e) {
      // fall through to the usage error
    }
    throw new IllegalArgumentException("bad --fusion '" + spec + "': use rrf, rrf:K, rrf:K:Wsparse,Wdense or weighted:Wsparse,Wdense");
  }

  static Map<String, String> first(Map<String, String> m, int n) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : m.entrySet()) {
      if (out.size() >= n) break;
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }

  public static Path writeJsonl(List<CorpusDoc> docs, Path file) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Files.createDirectories(file.getParent());
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (CorpusDoc d : docs) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("_id", d.id());
        m.put("title", d.title());
        m.put("text", d.text());
        w.write(json.writeValueAsString(m));
        w.write('\n');
      }
    }
    return file;
  }

  /** {@code a} as a POSIX shell word: unchanged when safe, else in single quotes. */
  /**
   * Runs a picocli evaluation command with {@code args}: an exception becomes one line on stderr
   * prefixed {@code ctxpack eval NAME:}, exit 2 for bad input ({@link IllegalArgumentException}),
   * 1 otherwise.
   */
  public static int execute(Object command, String name, String[] args) {
    picocli.CommandLine cli = new picocli.CommandLine(command);
    cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      cmd.getErr().println("ctxpack eval " + name + ": " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
      return ex instanceof IllegalArgumentException ? 2 : 1;
    });
    return cli.execute(args);
  }

  public static String shellQuote(String a) {
    if (!a.isEmpty() && a.matches("[A-Za-z0-9_./:,=@%+-]+")) return a;
    return "'" + a.replace("'", "'\\''") + "'";
  }

  static String slug(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
  }

  public static Path defaultDataDir() {
    String env = System.getenv("CTXPACK_DATA");
    if (env != null && !env.isBlank()) return Path.of(env);
    return projectRoot().resolve("../shared/data").normalize();
  }

  static Path defaultOutDir() {
    return projectRoot().resolve("ctxpack-bench/target/eval");
  }

  /**
   * The project root: two levels above this jar when it runs from {@code
   * ctxpack-bench/target/ctxpack-bench.jar} (or {@code target/classes}), else the working directory.
   */
  public static Path projectRoot() {
    try {
      Path self = Path.of(RunSupport.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path target = self.getParent();
      if (target != null && target.getFileName() != null && target.getFileName().toString().equals("target")
          && target.getParent() != null && target.getParent().getFileName().toString().equals("ctxpack-bench")) {
        return target.getParent().getParent();
      }
    } catch (Exception e) {
      // not from a file: fall back to the working directory
    }
    return Path.of("").toAbsolutePath();
  }

  public static void deleteTree(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) return;
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }

}
