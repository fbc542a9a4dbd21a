package dev.ctxpack.app.json;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import dev.ctxpack.pack.StageListener;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.retrieve.Retriever;
import java.io.IOException;
import java.util.List;

/**
 * {@code search}: {@code {"id", "query", "k", "mode"}} to {@code {"id", "results"}} (docs/API.md),
 * a {@code --batch} line and {@code POST /v1/search}.
 */
public final class SearchEndpoint {
  /** Results when a request gives no {@code k} (and {@code ctxpack search}'s {@code -k}). */
  public static final int DEFAULT_K = 10;
  /** The retrieval mode when a request gives none. */
  public static final String DEFAULT_MODE = "hybrid";
  /** Candidates a reranker sees at least: the first {@code max(k, 40)} retrieved. */
  public static final int RERANK_DEPTH = 40;

  private SearchEndpoint() {}

  /**
   * The endpoint over {@code retriever}, reranking with {@code reranker} (null: none), with {@code k}
   * and {@code mode} when a request gives none, telling {@code stages} the time of retrieval and
   * reranking.
   */
  public static JsonEndpoint of(Retriever retriever, Reranker reranker, int k, String mode, StageListener stages) {
    return req -> {
      String q = Requests.query(req, null);
      if (q == null || q.isBlank()) throw new IllegalArgumentException("field 'query' must not be empty");
      int kk = Requests.integer(req, "k", k, 1, RetrievalOptions.MAX_K);
      RetrievalMode mm = RetrievalMode.parse(Requests.text(req, "mode", mode));
      Trace trace = new Trace();
      List<Candidate> r = search(retriever, reranker, q, mm, kk, stages, trace);
      return Views.searchResults(Requests.text(req, "id", null), r, trace.decisions());
    };
  }

  /**
   * The top {@code k}: retrieved, or the first {@code max(k, 40)} retrieved and reranked; the
   * retriever's trace lines go to {@code trace} (a search answered without a shard says so there).
   */
  public static List<Candidate> search(Retriever retriever, Reranker reranker, String q, RetrievalMode mode, int k,
      StageListener stages, Trace trace) throws IOException {
    long t0 = System.nanoTime();
    if (reranker == null) {
      List<Candidate> found = retriever.retrieve(q, RetrievalOptions.of(mode, k), trace);
      stages.stage("retrieve", System.nanoTime() - t0);
      return found;
    }
    int depth = Math.min(RetrievalOptions.MAX_K, Math.max(k, RERANK_DEPTH));
    List<Candidate> found = retriever.retrieve(q, RetrievalOptions.of(mode, depth), trace);
    long t1 = System.nanoTime();
    List<Candidate> reranked = reranker.rerank(q, found);
    stages.stage("retrieve", t1 - t0);
    stages.stage("rerank", System.nanoTime() - t1);
    return reranked.size() > k ? List.copyOf(reranked.subList(0, k)) : reranked;
  }
}
