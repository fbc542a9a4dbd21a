package dev.ctxpack.app.cli;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.SearchEndpoint;
import dev.ctxpack.app.json.Views;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import dev.ctxpack.pack.StageListener;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.Retriever;
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

  @Option(names = "-k", defaultValue = "" + SearchEndpoint.DEFAULT_K, description = "Number of results. Default: ${DEFAULT-VALUE}.")
  int k;

  @Option(names = "--mode", defaultValue = SearchEndpoint.DEFAULT_MODE, description = "bm25, dense or hybrid. Default: ${DEFAULT-VALUE}.")
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
      if (batch != null) return BatchRunner.run(batch, out, SearchEndpoint.of(retriever, rr, k, mode, StageListener.NONE));
      Trace trace = new Trace();
      List<Candidate> results = SearchEndpoint.search(retriever, rr, query, m, k, StageListener.NONE, trace);
      if (common.json()) {
        out.println(Json.line(Views.searchResults(null, results, trace.decisions())));
      } else {
        Texts.partial(trace.decisions()).ifPresent(spec.commandLine().getErr()::println);
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
}
