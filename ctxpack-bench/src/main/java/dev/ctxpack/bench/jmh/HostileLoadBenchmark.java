package dev.ctxpack.bench.jmh;

import dev.ctxpack.ingest.IngestException;
import dev.ctxpack.ingest.LoadGuard;
import dev.ctxpack.ingest.LoadLimits;
import dev.ctxpack.ingest.LoadedDocument;
import dev.ctxpack.ingest.Loaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long hostile files take to load or be refused, through the same {@link LoadGuard} as
 * {@code ingest}: an HTML page of {@code depth} nested {@code <div>}s (the target: 100,000
 * parsed or refused in under a second, without a StackOverflowError), and a 60 MB text file refused
 * by the default 50 MB cap before it is read.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
public class HostileLoadBenchmark {
  @Param({"100000"})
  public int depth;

  private Path dir;
  private Path nested;
  private Path oversized;
  private final Loaders loaders = Loaders.defaults();
  private final LoadGuard guard = new LoadGuard(LoadLimits.DEFAULTS);

  @Setup
  public void files() throws IOException {
    dir = Files.createTempDirectory("ctxpack-jmh-hostile");
    StringBuilder sb = new StringBuilder(depth * 11 + 64);
    for (int i = 0; i < depth; i++) sb.append("<div>");
    sb.append("<p>found at the bottom</p>");
    for (int i = 0; i < depth; i++) sb.append("</div>");
    nested = Files.writeString(dir.resolve("nested.html"), sb, StandardCharsets.UTF_8);
    oversized = dir.resolve("big.txt");
    byte[] line = "Plain text line repeated to pass the size cap.\n".getBytes(StandardCharsets.UTF_8);
    try (var out = Files.newOutputStream(oversized)) {
      for (long n = 0; n < 60_000_000L; n += line.length) out.write(line);
    }
  }

  @TearDown
  public void delete() throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }

  @Benchmark
  public List<LoadedDocument> nestedDivs() throws IngestException {
    List<LoadedDocument> docs = guard.load(loaders.forFile(nested).orElseThrow(), nested);
    if (!docs.get(0).text().contains("found at the bottom")) throw new IllegalStateException("text lost");
    return docs;
  }

  @Benchmark
  public String oversizedRefused() {
    try {
      guard.load(loaders.forFile(oversized).orElseThrow(), oversized);
      throw new IllegalStateException("a 60 MB file was loaded under a 50 MB cap");
    } catch (IngestException e) {
      return e.getMessage();
    }
  }
}
