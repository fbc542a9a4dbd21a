package dev.ctxpack.bench.jmh;

import dev.ctxpack.assemble.ToolRanker;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.bench.tools.ToolCatalogues;
import dev.ctxpack.lucene.HybridToolRanker;
import dev.ctxpack.onnx.MiniLmEmbedder;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of ranking one request's tools with the tool set cached, single-threaded: the set's index
 * and vectors are built in the setup (as the first request with those tools would), and each call
 * ranks the next labelled request of the catalogue ({@code eval tools}'s set: 86 MCP tools or 114
 * GitHub REST operations). {@code mode=bm25}: {@link HybridToolRanker} without an embedder; {@code
 * mode=hybrid}: with MiniLM run on the calling thread ({@code new MiniLmEmbedder(Runnable::run)}), so a
 * call is one query embedding, one BM25 search and the fusion.
 *
 * <p>Mode SampleTime in milliseconds: JMH reports p50, p90, p99 and p99.9.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Threads(1)
@State(Scope.Benchmark)
public class ToolRankBenchmark {
  @Param({"mcp", "github"})
  public String catalogue;

  @Param({"bm25", "hybrid"})
  public String mode;

  private ToolRanker ranker;
  private List<ToolSpec> tools;
  private List<String> queries;
  private int next;

  @Setup
  public void setup() throws IOException {
    Map<String, List<ToolSpec>> catalogues = ToolCatalogues.catalogues();
    tools = catalogues.get(catalogue);
    queries = ToolCatalogues.requests(catalogues).stream().filter(r -> r.catalogue().equals(catalogue))
        .map(ToolCatalogues.Request::text).toList();
    ranker = mode.equals("bm25") ? new HybridToolRanker(null) : new HybridToolRanker(new MiniLmEmbedder(Runnable::run));
    ranker.rank(queries.get(0), tools);
    System.out.println("\n" + catalogue + ": " + tools.size() + " tools, " + queries.size() + " requests, ranker " + ranker.id());
  }

  @Benchmark
  public List<ToolRanker.Ranked> rank() throws IOException {
    String q = queries.get(next);
    next = (next + 1) % queries.size();
    return ranker.rank(q, tools);
  }
}
