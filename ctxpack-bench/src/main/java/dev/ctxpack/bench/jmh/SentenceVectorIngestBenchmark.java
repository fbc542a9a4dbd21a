package dev.ctxpack.bench.jmh;

import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.onnx.MiniLmEmbedder;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * What storing sentence vectors costs at ingestion: the first {@code documents} abstracts of
 * SciFact's {@code corpus.jsonl} ingested with MiniLM into a fresh index, as the evaluation runs
 * ingest (300-token chunks, ~100-token windows), with and without sentence vectors; one call is one
 * whole ingest. Each trial also prints ({@code [jmh] ...}) the size of the index it wrote, how many
 * texts were embedded, and the process CPU time of each ingest (warm-up first), which a busy machine
 * disturbs less than the wall clock; so all figures come from the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
public class SentenceVectorIngestBenchmark {
  @Param({"false", "true"})
  public boolean sentenceVectors;

  @Param({"500"})
  public int documents;

  private final CountingEmbedder embedder = new CountingEmbedder(new MiniLmEmbedder());
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
  private final List<Double> cpuSeconds = new ArrayList<>();
  private Path slice;
  private Path dir;
  private long indexBytes;
  private int chunks;
  private long cpuAtStart;

  @Setup(Level.Trial)
  public void slice() throws IOException {
    String v = System.getProperty(SciFactIndex.DATA_PROPERTY, System.getenv("CTXPACK_DATA"));
    Path data = Path.of(v == null || v.isBlank() ? "../shared/data" : v);
    Path corpus = data.resolve("scifact/beir_test/corpus.jsonl");
    if (!Files.isRegularFile(corpus)) {
      throw new IOException("no SciFact corpus at " + corpus + ": run from the project root or pass -D"
          + SciFactIndex.DATA_PROPERTY + "=DIR");
    }
    List<String> lines = new ArrayList<>(documents);
    try (BufferedReader r = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
      for (String l = r.readLine(); l != null && lines.size() < documents; l = r.readLine()) {
        if (!l.isBlank()) lines.add(l);
      }
    }
    slice = Files.createTempFile("ctxpack-jmh-scifact-" + documents, ".jsonl");
    Files.write(slice, lines, StandardCharsets.UTF_8);
  }

  @TearDown(Level.Trial)
  public void report() throws IOException {
    System.out.printf("%n[jmh] index of %d SciFact documents (%d bytes of JSON Lines, %d chunks), sentence vectors %s:"
        + " %d bytes on disk; %d texts embedded (%d chars) per ingest; process CPU s per ingest: %s%n", documents,
        Files.size(slice), chunks, sentenceVectors ? "on" : "off", indexBytes, embedder.texts / cpuSeconds.size(),
        embedder.chars / cpuSeconds.size(), cpuSeconds.stream().map(c -> String.format("%.1f", c)).toList());
    Files.deleteIfExists(slice);
  }

  @Setup(Level.Invocation)
  public void freshIndex() throws IOException {
    dir = Files.createTempDirectory("ctxpack-jmh-sv-ingest");
    cpuAtStart = os.getProcessCpuTime();
  }

  @TearDown(Level.Invocation)
  public void deleteIndex() throws IOException {
    cpuSeconds.add((os.getProcessCpuTime() - cpuAtStart) / 1e9);
    long bytes = 0;
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) bytes += Files.size(p);
    }
    indexBytes = bytes;
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }

  @Benchmark
  public IngestSummary ingest() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      IngestOptions o = CtxpackPipeline.options(embedder, null, CtxpackPipeline.CHUNK_TOKENS)
          .withSentenceVectors(sentenceVectors);
      IngestSummary s = new Ingestor(index, Loaders.defaults(), o, null).ingest(List.of(slice));
      if (!s.failed().isEmpty()) throw new IOException("ingest failed: " + s.failed());
      chunks = s.chunks();
      return s;
    }
  }

  /** Counts what goes through the model. */
  private static final class CountingEmbedder implements Embedder {
    private final Embedder delegate;
    private long texts;
    private long chars;

    CountingEmbedder(Embedder delegate) {
      this.delegate = delegate;
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public java.util.Set<dev.ctxpack.model.Language> languages() {
      return delegate.languages();
    }

    @Override
    public List<float[]> embed(List<String> batch) {
      synchronized (this) {
        texts += batch.size();
        for (String t : batch) chars += t.length();
      }
      return delegate.embed(batch);
    }
  }
}
