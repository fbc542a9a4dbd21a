package dev.ctxpack.rerank;

import dev.ctxpack.model.Candidate;
import java.io.IOException;
import java.util.List;

/**
 * Re-scores retrieved candidates against the query with a stronger model than first-stage
 * retrieval. Implementations set {@link dev.ctxpack.model.Signal#RERANK} on every candidate (keeping
 * its other scores) and return all of them, best first, ties broken by chunk id. Thread-safe.
 */
public interface Reranker {

  List<Candidate> rerank(String query, List<Candidate> candidates) throws IOException;

  /** What the trace names this reranker by, e.g. {@code features:v1} or {@code http:https://...}. */
  String id();
}
