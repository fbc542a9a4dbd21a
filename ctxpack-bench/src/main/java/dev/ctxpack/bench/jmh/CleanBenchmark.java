package dev.ctxpack.bench.jmh;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.ingest.clean.CleanOptions;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * What cleaning costs at ingestion: SciFact's {@code corpus.jsonl} (8.02 MB) ingested without
 * embeddings into a fresh index, warm, with cleaning on (the default: pre-pass over the file, then
 * each document cleaned) and off ({@code --no-clean}), in the same run. One call is one whole
 * ingest, as in {@link IngestBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
public class CleanBenchmark {
  @Param({"true", "false"})
  public boolean clean;

  private Path corpus;
  private Path dir;

  @Setup(Level.Trial)
  public void corpus() throws IOException {
    String v = System.getProperty(SciFactIndex.DATA_PROPERTY, System.getenv("CTXPACK_DATA"));
    Path data = Path.of(v == null || v.isBlank() ? "../shared/data" : v);
    corpus = data.resolve("scifact/beir_test/corpus.jsonl");
    if (!Files.isRegularFile(corpus)) {
      throw new IOException("no SciFact corpus at " + corpus + ": run from the project root or pass -D"
          + SciFactIndex.DATA_PROPERTY + "=DIR");
    }
  }

  @Setup(Level.Invocation)
  public void freshIndex() throws IOException {
    dir = Files.createTempDirectory("ctxpack-jmh-clean");
  }

  @TearDown(Level.Invocation)
  public void deleteIndex() throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }

  @Benchmark
  public IngestSummary ingestNoEmbed() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      IngestOptions o = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 300, 0.15), null)
          .withCleaning(clean ? CleanOptions.defaults() : CleanOptions.off());
      IngestSummary s = new Ingestor(index, Loaders.defaults(), o, null).ingest(List.of(corpus));
      if (!s.failed().isEmpty()) throw new IOException("ingest failed: " + s.failed());
      return s;
    }
  }
}
