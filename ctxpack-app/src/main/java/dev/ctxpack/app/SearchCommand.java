package dev.ctxpack.app;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "search", mixinStandardHelpOptions = true,
    description = "Search the index: BM25, dense or hybrid (reciprocal rank fusion).")
final class SearchCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin CommonOptions common = new CommonOptions();
  @Mixin FusionFlags fusion = new FusionFlags();

  @Option(names = {"-q", "--query"}, paramLabel = "Q", description = "The query.")
  String query;

  @Option(names = "-k", defaultValue = "10", description = "Number of results. Default: ${DEFAULT-VALUE}.")
  int k;

  @Option(names = "--mode", defaultValue = "hybrid", description = "bm25, dense or hybrid. Default: ${DEFAULT-VALUE}.")
  String mode;

  @Option(names = "--reranker", paramLabel = "SPEC", defaultValue = "none",
      description = "Rerank before returning: none (default), features, http:URL[,...] or onnx:PATH[,...]; the"
          + " first max(k, 40) candidates are reranked and the top k returned with their rerank score.")
  String reranker;

  @Option(names = "--batch", paramLabel = "FILE", description = "JSON Lines of {\"id\", \"query\", \"k\", \"mode\"}; - for stdin.")
  String batch;

  @Option(names = "--window", paramLabel = "N", defaultValue = "0",
      description = "Widen each hit to N sentences each side, read from the stored document (for indexes built with"
          + " --chunker sentence-window; 0 = off). Default: ${DEFAULT-VALUE}.")
  int window;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (batch == null && (query == null || query.isBlank())) throw new UsageException("--query must not be empty");
    RetrievalMode m = RetrievalMode.parse(mode);
    try (Index index = Components.openExisting(common.indexSpec())) {
      Embedder embedder = Components.searchEmbedder(index, common.embedder);
      Retriever retriever = Components.windowed(Components.retriever(index, embedder, fusion.fusion()), index, window);
      Reranker rr = Components.reranker(reranker);
      if (batch != null) return BatchRunner.run(batch, out, endpoint(retriever, rr));
      List<Candidate> results = search(retriever, rr, query, m, k);
      if (common.json()) {
        out.println(Json.line(Views.searchResults(null, results)));
      } else {
        for (int i = 0; i < results.size(); i++) {
          Candidate c = results.get(i);
          out.printf("%2d. %.4f  %s  %s%n", i + 1, c.score(), c.chunk().id(), c.doc().title());
          String t = c.chunk().text().replace('\n', ' ');
          out.println("    " + (t.length() > 200 ? t.substring(0, 200) + "…" : t));
        }
        if (results.isEmpty()) out.println("no results");
      }
    }
    return ExitCodes.OK;
  }

  /**
   * One search request, {@code {"id", "query", "k", "mode"}} to {@code {"id", "results"}}, over
   * {@code index} wired from these options: a {@code --batch} line, and {@code POST /v1/search}.
   */
  JsonEndpoint endpoint(SearchableIndex index, Embedder embedder) {
    return endpoint(Components.windowed(Components.retriever(index, embedder, fusion.fusion()), index, window),
        Components.reranker(reranker));
  }

  /** Told the time of each stage (retrieve, rerank) of every request (the service's metrics); none for the CLI. */
  dev.ctxpack.pack.StageListener stages = dev.ctxpack.pack.StageListener.NONE;

  private JsonEndpoint endpoint(Retriever retriever, Reranker rr) {
    return req -> {
      String q = BatchRunner.query(req, null);
      if (q == null || q.isBlank()) throw new IllegalArgumentException("field 'query' must not be empty");
      int kk = BatchRunner.integer(req, "k", k, 1, RetrievalOptions.MAX_K);
      RetrievalMode mm = RetrievalMode.parse(BatchRunner.text(req, "mode", mode));
      List<Candidate> r = search(retriever, rr, q, mm, kk, stages);
      return Views.searchResults(BatchRunner.text(req, "id", null), r);
    };
  }

  /** The top {@code k}: retrieved, or the first {@code max(k, 40)} retrieved and reranked. */
  static List<Candidate> search(Retriever retriever, Reranker reranker, String q, RetrievalMode mode, int k)
      throws java.io.IOException {
    return search(retriever, reranker, q, mode, k, dev.ctxpack.pack.StageListener.NONE);
  }

  static List<Candidate> search(Retriever retriever, Reranker reranker, String q, RetrievalMode mode, int k,
      dev.ctxpack.pack.StageListener stages) throws java.io.IOException {
    long t0 = System.nanoTime();
    if (reranker == null) {
      List<Candidate> found = retriever.retrieve(q, RetrievalOptions.of(mode, k), new Trace());
      stages.stage("retrieve", System.nanoTime() - t0);
      return found;
    }
    int depth = Math.min(RetrievalOptions.MAX_K, Math.max(k, 40));
    List<Candidate> found = retriever.retrieve(q, RetrievalOptions.of(mode, depth), new Trace());
    long t1 = System.nanoTime();
    List<Candidate> reranked = reranker.rerank(q, found);
    stages.stage("retrieve", t1 - t0);
    stages.stage("rerank", System.nanoTime() - t1);
    return reranked.size() > k ? List.copyOf(reranked.subList(0, k)) : reranked;
  }

}
