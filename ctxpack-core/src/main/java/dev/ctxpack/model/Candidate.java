package dev.ctxpack.model;

import java.util.Objects;

/** A retrieved chunk with the document it comes from and its score per signal. */
public record Candidate(Chunk chunk, DocInfo doc, Scores scores) {
  public Candidate {
    Objects.requireNonNull(chunk, "chunk");
    Objects.requireNonNull(doc, "doc");
    Objects.requireNonNull(scores, "scores");
  }

  /** The score that ranks this candidate: rerank, else fused, else dense, else bm25. */
  public double score() {
    for (Signal s : new Signal[] {Signal.RERANK, Signal.FUSED, Signal.DENSE, Signal.BM25}) {
      var v = scores.get(s);
      if (v.isPresent()) return v.getAsDouble();
    }
    return 0;
  }

  public Candidate withScores(Scores newScores) {
    return new Candidate(chunk, doc, newScores);
  }
}
