package dev.ctxpack.bench.jmh;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of one request on a SciFact index, single-threaded, cycling through the 300 SciFact test
 * claims so no two consecutive calls share a query. The embedder is uncached: every call embeds its
 * query. Mode SampleTime, so JMH reports p50, p90, p99 and p99.9.
 *
 * <ul>
 *   <li>{@code search}: {@link HybridRetriever#retrieve} with {@code RetrievalOptions.of(mode, 10)}
 *       (hybrid by default: 20 sparse + 20 dense candidates, RRF k = 60, top 10);
 *   <li>{@code pack}: {@link DefaultContextPacker#pack} with {@link PackOptions#defaults()} (medium
 *       preset, 4,000 tokens; hybrid k = 40, exact dedup, lost-in-the-middle order).
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 10)
@Measurement(iterations = 5, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Threads(1)
public class RequestBenchmark {

  /** Retrieval mode of {@code search}: bm25, dense or hybrid. */
  @Param({"hybrid"})
  public String mode;

  /**
   * {@code full}: every pack stage as shipped; {@code no-compress}: every stage but compression;
   * {@code off}: dedup, rerank, MMR and compression off (their cost).
   */
  @Param({"full"})
  public String stages;

  /**
   * {@code all}: the index itself; {@code labels}: the index as a principal with access labels reads
   * it ({@code SearchableIndex.readableBy}): every read filtered and BM25's statistics counted over the
   * readable documents (SciFact's documents carry no labels, so all are readable: the filter's
   * whole cost, nothing skipped).
   */
  @Param({"all"})
  public String access;

  private SciFactIndex scifact;
  private HybridRetriever retriever;
  private DefaultContextPacker packer;
  private RetrievalOptions searchOptions;
  private PackOptions packOptions;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    scifact = SciFactIndex.openOrBuild();
    dev.ctxpack.index.SearchableIndex view = switch (access) {
      case "all" -> scifact.index;
      case "labels" -> scifact.index.readableBy(dev.ctxpack.index.Access.labels(List.of("team")));
      default -> throw new IllegalArgumentException("access must be all or labels, was " + access);
    };
    retriever = new HybridRetriever(view, scifact.embedder);
    // As the CLI builds it: the learned reranker, and the index's vectors for semantic dedup and MMR.
    packer = SciFactIndex.packer(retriever, view, scifact.embedder);
    searchOptions = RetrievalOptions.of(RetrievalMode.parse(mode), 10);
    packOptions = switch (stages) {
      case "off" -> PackOptions.builder().dedup(false).rerank(false).mmr(false).compress(false).build();
      case "no-compress" -> PackOptions.builder().compress(false).build();
      case "full" -> PackOptions.defaults();
      default -> throw new IllegalArgumentException("stages must be full, no-compress or off, was " + stages);
    };
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    scifact.close();
  }

  private String nextQuery() {
    List<String> q = scifact.queries;
    String s = q.get(next);
    next = (next + 1) % q.size();
    return s;
  }

  @Benchmark
  public List<Candidate> search() throws IOException {
    return retriever.retrieve(nextQuery(), searchOptions, new Trace());
  }

  @Benchmark
  public ContextPackage pack() throws IOException {
    return packer.pack(nextQuery(), packOptions);
  }
}
