package dev.ctxpack.bench.pipeline;

import dev.ctxpack.model.Candidate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Turns a ranked list of chunks into a ranked list of documents. */
public final class DocRankings {
  private DocRankings() {}

  /**
   * Each document takes the rank of its best chunk, i.e. its first appearance in {@code chunks};
   * later chunks of the same document are skipped. Example: chunks d1#0, d2#0, d1#1, d3#0 give d1,
   * d2, d3.
   */
  public static List<String> fromChunks(List<Candidate> chunks) {
    Set<String> docs = new LinkedHashSet<>();
    for (Candidate c : chunks) docs.add(c.chunk().docId());
    return new ArrayList<>(docs);
  }
}
