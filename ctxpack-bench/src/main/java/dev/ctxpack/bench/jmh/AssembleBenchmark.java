package dev.ctxpack.bench.jmh;

import dev.ctxpack.assemble.AssembleRequest;
import dev.ctxpack.assemble.Assembler;
import dev.ctxpack.assemble.Assembly;
import dev.ctxpack.assemble.Component;
import dev.ctxpack.assemble.ComponentLimit;
import dev.ctxpack.assemble.DefaultHistoryCompactor;
import dev.ctxpack.assemble.Memory;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.assemble.Turn;
import dev.ctxpack.bench.tools.ToolCatalogues;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.lucene.HybridToolRanker;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.ModelProfiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
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
 * Latency of assembling one whole window on a SciFact index, single-threaded, cycling through the
 * 300 SciFact test claims as queries: model gpt-4o (128,000 tokens, reserve 4,000), 50 tools (the
 * first 50 of the MCP catalogue of {@code eval tools}), a 40-turn history (SciFact claims as user
 * turns, retrieved abstracts as answers, every fifth exchange through a tool call whose result is
 * five abstracts), 20 memories, and evidence packed with {@link PackOptions#defaults()}
 * (4,000 tokens; {@code evidence=no-compress}: without compression). Components as the app wires them: {@link HybridToolRanker} over the index's
 * embedder, {@link DefaultHistoryCompactor}, and the pack command's packer (learned reranker, index
 * vectors). One {@link CachingEmbedder} of 8 entries stands for the service's per-caller cache: the
 * tool ranker and the retriever embed the same query once, and no query is cached from an earlier
 * call (300 queries cycle).
 *
 * <ul>
 *   <li>{@code assemble}: the whole request, retrieval included;
 *   <li>{@code assembleWithoutRetrieval}: the same request with no evidence: what assembly itself
 *       costs (ranking 50 tools, fitting the history, memories, layout and exact counts);
 *   <li>{@code pack}: the evidence alone, {@code pack} of the query with the same options;
 *   <li>{@code search}: retrieval alone, hybrid k = 10.
 * </ul>
 *
 * <p>{@code history=whole}: the history fits (about 40,000 tokens); {@code history=compacted}: the
 * history is capped at 8,000 tokens, so old tool results are pruned and older turns summarised on
 * every call. Mode SampleTime: JMH reports p50, p90, p99 and p99.9.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 10)
@Measurement(iterations = 5, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Threads(1)
public class AssembleBenchmark {
  /** {@code whole}: the history fits; {@code compacted}: capped at 8,000 tokens, summarised on every call. */
  @Param({"whole", "compacted"})
  public String history;

  /**
   * The evidence's pack options: {@code full}, {@link PackOptions#defaults()} (every stage, as
   * shipped); {@code no-compress}, the same without query-aware compression (its cost).
   */
  @Param({"full"})
  public String evidence;

  private SciFactIndex scifact;
  private PackOptions packOptions;
  private HybridRetriever retriever;
  private DefaultContextPacker packer;
  private Assembler assembler;
  private AssembleRequest base;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    scifact = SciFactIndex.openOrBuild();
    CachingEmbedder embedder = new CachingEmbedder(scifact.embedder, 8);
    retriever = new HybridRetriever(scifact.index, embedder);
    packer = SciFactIndex.packer(retriever, scifact.index, embedder);
    assembler = Assembler.builder().embedder(embedder).packer(packer).toolRanker(new HybridToolRanker(embedder))
        .historyCompactor(DefaultHistoryCompactor.defaults()).build();
    packOptions = switch (evidence) {
      case "full" -> PackOptions.defaults();
      case "no-compress" -> PackOptions.builder().compress(false).build();
      default -> throw new IllegalArgumentException("evidence must be full or no-compress, was " + evidence);
    };
    List<ToolSpec> tools = ToolCatalogues.catalogues().get("mcp").subList(0, 50);
    AssembleRequest.Builder b = AssembleRequest.builder(ModelProfiles.builtIn().get("gpt-4o"))
        .system("You are a research assistant for biomedical literature. Answer from the sources and cite them.")
        .tools(tools).history(history()).memories(memories()).retrieval(packOptions);
    if (history.equals("compacted")) b.limit(Component.HISTORY, ComponentLimit.defaults(Component.HISTORY).withCap(8_000));
    base = b.build();
    // The first request with these tools builds the ranker's index of them, as a service's first request would.
    Assembly first = assembler.assemble(base.withConversation(base.history(), scifact.queries.get(0)));
    System.out.println("\nwindow: used " + first.budget().used() + " of " + first.budget().limit() + " tokens, "
        + first.budget().byComponent());
  }

  /**
   * 40 turns over the last claims: each claim as a user turn, answered by its top two abstracts; every
   * fifth exchange goes through a tool call whose result is the top five abstracts.
   */
  private List<Turn> history() throws IOException {
    List<Turn> turns = new ArrayList<>();
    List<String> q = scifact.queries;
    for (int i = 0; turns.size() < 40; i++) {
      String claim = q.get(q.size() - 1 - i);
      List<Candidate> found = retriever.retrieve(claim, RetrievalOptions.of(dev.ctxpack.retrieve.RetrievalMode.BM25, 5), new Trace());
      turns.add(Turn.of("user", "Is this true? " + claim));
      if (i % 5 == 4 && turns.size() <= 37) {
        String id = "call_" + i;
        turns.add(new Turn("assistant", "", "", "", "[{\"id\":\"" + id + "\",\"type\":\"function\",\"function\":"
            + "{\"name\":\"brave-search__brave_web_search\",\"arguments\":\"{\\\"query\\\":\\\"" + i + "\\\"}\"}}]", false));
        turns.add(new Turn("tool", found.stream().map(c -> c.chunk().text()).collect(Collectors.joining("\n\n")),
            "brave-search__brave_web_search", id, "", false));
      }
      turns.add(Turn.of("assistant", "The sources say: "
          + found.stream().limit(2).map(c -> c.chunk().text()).collect(Collectors.joining(" "))));
    }
    return turns;
  }

  private static List<Memory> memories() {
    List<Memory> out = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      out.add(new Memory("m" + i, "bench", i % 2 == 0 ? Memory.Kind.FACT : Memory.Kind.EPISODE,
          "Memory " + i + ": the user studies " + (i % 2 == 0 ? "immunology and prefers short answers with citations"
              : "vitamin D trials and asked last week about dosage in older adults"), "", 0));
    }
    return out;
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
  public Assembly assemble() throws IOException {
    return assembler.assemble(base.withConversation(base.history(), nextQuery()));
  }

  @Benchmark
  public Assembly assembleWithoutRetrieval() throws IOException {
    AssembleRequest r = base.withConversation(base.history(), nextQuery());
    return assembler.assemble(new AssembleRequest(r.model(), r.contextWindow(), r.reserve(), r.system(), r.tools(), r.history(),
        r.fewShot(), r.memories(), r.memoryUser(), r.memoryK(), r.query(), java.util.Optional.empty(), r.limits()));
  }

  @Benchmark
  public ContextPackage pack() throws IOException {
    return packer.pack(nextQuery(), packOptions);
  }

  @Benchmark
  public List<Candidate> search() throws IOException {
    return retriever.retrieve(nextQuery(), RetrievalOptions.of(dev.ctxpack.retrieve.RetrievalMode.HYBRID, 10), new Trace());
  }
}
