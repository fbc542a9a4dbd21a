package dev.ctxpack.bench.jmh;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of {@link FeatureReranker#rerank} alone on real candidate lists: the 40 chunks hybrid
 * search returns (RRF k = 60, 100 candidates per signal) for each of the 300 SciFact test claims,
 * retrieved once in the setup; each call reranks the next claim's list. Mode SampleTime.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Threads(1)
public class RerankBenchmark {
  private final FeatureReranker reranker = FeatureReranker.defaults();
  private final List<String> queries = new ArrayList<>();
  private final List<List<Candidate>> lists = new ArrayList<>();
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    try (SciFactIndex scifact = SciFactIndex.openOrBuild()) {
      HybridRetriever retriever = new HybridRetriever(scifact.index, scifact.embedder);
      for (String q : scifact.queries) {
        queries.add(q);
        lists.add(retriever.retrieve(q, new RetrievalOptions(RetrievalMode.HYBRID, 40, 100, 100), new Trace()));
      }
    }
  }

  @Benchmark
  public List<Candidate> rerank() {
    int i = next;
    next = (next + 1) % queries.size();
    return reranker.rerank(queries.get(i), lists.get(i));
  }
}
