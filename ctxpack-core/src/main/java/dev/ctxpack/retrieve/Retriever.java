package dev.ctxpack.retrieve;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.util.List;

/** Finds candidate chunks for a query, best first, each with its score per signal. */
public interface Retriever {
  List<Candidate> retrieve(String query, RetrievalOptions options, Trace trace) throws IOException;
}
