package dev.ctxpack.testing;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import java.util.Map;

/** Small builders of model values for tests. */
public final class Fixtures {
  private Fixtures() {}

  public static Candidate candidate(String id, String docId, String text, int tokens, Scores scores) {
    return candidate(id, docId, 0, text, tokens, scores);
  }

  public static Candidate candidate(String id, String docId, int start, String text, int tokens, Scores scores) {
    return new Candidate(
        new Chunk(id, docId, new Span(start, start + text.length()), text, "", 0, tokens),
        new DocInfo(docId, "", "", Language.EN, Map.of()),
        scores);
  }

  public static Candidate bm25(String id, double score) {
    return candidate(id, "doc-" + id, "text of " + id, 3, Scores.of(Signal.BM25, score));
  }

  public static Candidate dense(String id, double score) {
    return candidate(id, "doc-" + id, "text of " + id, 3, Scores.of(Signal.DENSE, score));
  }

  public static Passage passage(String id, String docId, int start, String text, int tokens, double score) {
    return Passage.of(candidate(id, docId, start, text, tokens, Scores.of(Signal.RERANK, score)));
  }
}
