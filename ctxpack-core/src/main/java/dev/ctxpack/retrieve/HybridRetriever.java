package dev.ctxpack.retrieve;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.retrieve.CorpusPreference;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.LanguageDetector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Sparse (BM25), dense (vectors) or both fused. Dense needs an {@link Embedder} matching the one
 * the index was built with; without one, hybrid falls back to BM25 and says so in the trace. So it
 * does for a query in a language the embedder was not trained for ({@link Embedder#languages()}):
 * an English-only model's vectors of a Portuguese question would only add noise to the fusion
 * (measured on FaQuAD in docs/BENCHMARKS.md). An explicit dense request still runs dense.
 *
 * <p>The candidates then go through {@link CorpusPreference} with the corpus marks the index holds
 * ({@link SearchableIndex#chunkMarks}): boilerplate chunks down-weighted, originals preferred to their marked
 * near-duplicates, each change a trace line.
 */
public final class HybridRetriever implements Retriever {
  private final SearchableIndex index;
  private final Embedder embedder;
  private final Fusion fusion;
  private final LanguageDetector languageDetector = new LanguageDetector();
  /** Boilerplate down-weighted, originals preferred to their near-duplicates (ctxpack 0.1). */
  private final CorpusPreference corpus = CorpusPreference.defaults();

  public HybridRetriever(SearchableIndex index, Embedder embedder, Fusion fusion) {
    this.index = Objects.requireNonNull(index, "index");
    this.embedder = embedder;
    this.fusion = Objects.requireNonNull(fusion, "fusion");
  }

  public HybridRetriever(SearchableIndex index, Embedder embedder) {
    this(index, embedder, new RrfFusion());
  }

  @Override
  public List<Candidate> retrieve(String query, RetrievalOptions o, Trace trace) throws IOException {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("query must not be empty");
    RetrievalMode mode = o.mode();
    if (mode != RetrievalMode.BM25 && embedder == null) {
      if (mode == RetrievalMode.DENSE) {
        throw new IllegalStateException("dense retrieval needs an embedder, and none is configured");
      }
      mode = RetrievalMode.BM25;
      trace.add(Stage.RETRIEVE, Action.FALLBACK, "no-embedder", List.of(), "", 0,
          "no embedder configured: hybrid retrieval ran as bm25");
    }
    if (mode == RetrievalMode.HYBRID && !embedder.languages().isEmpty()) {
      Language ql = languageDetector.detect(query);
      if (ql != Language.UNKNOWN && !embedder.languages().contains(ql)) {
        mode = RetrievalMode.BM25;
        trace.add(Stage.RETRIEVE, Action.FALLBACK, "embedder-language", List.of(), "", 0,
            "the query is in " + ql.code() + " and " + embedder.id() + " is trained for "
                + embedder.languages().stream().map(Language::code).sorted().toList()
                + " only: hybrid retrieval ran as bm25");
      }
    }
    // A distributed index that answers without a shard says so, and the trace says it to the caller.
    dev.ctxpack.index.ReadCoverage coverage = new dev.ctxpack.index.ReadCoverage();
    SearchableIndex index = this.index.reportingTo(coverage);
    if (mode != RetrievalMode.BM25 && index.stats().vectors() == 0) {
      if (mode == RetrievalMode.DENSE) {
        throw new IllegalStateException("the index holds no vectors: ingest without --no-embed to use dense retrieval");
      }
      mode = RetrievalMode.BM25;
      trace.add(Stage.RETRIEVE, Action.FALLBACK, "no-vectors", List.of(), "", 0,
          "the index holds no vectors: hybrid retrieval ran as bm25");
    }
    List<Candidate> out;
    switch (mode) {
      case BM25 -> out = head(index.searchSparse(query, Math.max(o.k(), o.sparseK())), o.k());
      case DENSE -> out = head(index.searchDense(embedder.embed(query), Math.max(o.k(), o.denseK())), o.k());
      default -> {
        List<List<Candidate>> lists = new ArrayList<>();
        lists.add(index.searchSparse(query, o.sparseK()));
        lists.add(index.searchDense(embedder.embed(query), o.denseK()));
        out = fusion.fuse(lists, o.k());
      }
    }
    out = corpus.apply(out, index.chunkMarks(out.stream().map(c -> c.chunk().id()).toList()), trace);
    coverage.report(trace);
    trace.add(Stage.RETRIEVE, Action.RETRIEVE, mode.key(), List.of(), "", 0,
        out.size() + " candidates: mode=" + mode.key() + ", k=" + o.k() + ", sparseK=" + o.sparseK()
            + ", denseK=" + o.denseK() + (mode == RetrievalMode.HYBRID ? ", fusion=" + fusion.describe() : ""));
    return out;
  }

  private static List<Candidate> head(List<Candidate> list, int k) {
    return list.size() > k ? List.copyOf(list.subList(0, k)) : list;
  }
}
