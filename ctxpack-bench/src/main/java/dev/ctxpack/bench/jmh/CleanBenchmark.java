package dev.ctxpack.bench.jmh;

import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.clean.CleanOptions;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
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
public class CleanBenchmark extends SciFactIngest {
  @Param({"true", "false"})
  public boolean clean;

  @Benchmark
  public IngestSummary ingestNoEmbed() throws IOException {
    return ingest(o -> o.withCleaning(clean ? CleanOptions.defaults() : CleanOptions.off()));
  }
}
