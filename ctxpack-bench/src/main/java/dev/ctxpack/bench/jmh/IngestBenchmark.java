package dev.ctxpack.bench.jmh;

import dev.ctxpack.ingest.IngestSummary;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ingest of SciFact's {@code corpus.jsonl} (8.02 MB) without embeddings into a fresh index, warm:
 * chunking, language detection, hashing, Lucene indexing and the commit. One call is one whole
 * ingest; MB/s is 8.02 divided by the time per call. The cold figure (first ingest in a new JVM)
 * is the evaluation runner's {@code --no-embed} row.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
public class IngestBenchmark extends SciFactIngest {
  @Benchmark
  public IngestSummary ingestNoEmbed() throws IOException {
    return ingest(o -> o);
  }
}
