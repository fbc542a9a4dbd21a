package dev.ctxpack.retrieve;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.similarity.Boilerplate;
import dev.ctxpack.similarity.Words;
import dev.ctxpack.index.Index;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Applies what ingestion learned about the corpus to retrieved candidates (ctxpack 0.1), right after
 * retrieval and before the dedup cascade:
 *
 * <ol>
 *   <li><b>boilerplate</b>: a chunk whose normalised text is held by at least {@code minDocuments}
 *       stored documents ({@link Index.ChunkMarks#recurrence()}) has every score multiplied by
 *       {@code factor} ({@value Boilerplate#DEFAULT_FACTOR} by default); trace {@code retrieve /
 *       down-weight / corpus:boilerplate};
 *   <li><b>near-duplicate documents</b>: when a chunk of a document marked {@code near-duplicate-of}
 *       X ranks above a chunk of X that repeats it (word 5-shingle Jaccard at least {@value
 *       #SAME_PASSAGE}), the two swap scores, so the original's chunk leads and the dedup cascade
 *       keeps it and merges the copy into it (recorded there as a duplicate); trace {@code dedup /
 *       prefer / corpus:near-duplicate-of}.
 * </ol>
 *
 * Then candidates are sorted by score (ties by chunk id). Scores are only swapped or scaled, so
 * the set of candidates never changes. Stateless; thread-safe.
 */
public final class CorpusPreference {
  /** The shingle Jaccard at which a marked document's chunk repeats a chunk of its original. */
  public static final double SAME_PASSAGE = 0.5;

  private final int minDocuments;
  private final double factor;

  public CorpusPreference(int minDocuments, double factor) {
    if (minDocuments < 2) throw new IllegalArgumentException("minDocuments must be >= 2, was " + minDocuments);
    if (!(factor > 0 && factor <= 1)) throw new IllegalArgumentException("factor must be in (0, 1], was " + factor);
    this.minDocuments = minDocuments;
    this.factor = factor;
  }

  public static CorpusPreference defaults() {
    return new CorpusPreference(Boilerplate.DEFAULT_MIN_DOCUMENTS, Boilerplate.DEFAULT_FACTOR);
  }

  /** The candidates with boilerplate down-weighted and originals preferred, by score. */
  public List<Candidate> apply(List<Candidate> candidates, Map<String, Index.ChunkMarks> marks, Trace trace) {
    if (marks.isEmpty()) return candidates;
    List<Candidate> out = new ArrayList<>(candidates);
    for (int i = 0; i < out.size(); i++) {
      Candidate c = out.get(i);
      Index.ChunkMarks m = marks.get(c.chunk().id());
      if (m == null || m.recurrence() < minDocuments) continue;
      Scores s = Scores.empty();
      for (var e : c.scores().asMap().entrySet()) s = s.with(e.getKey(), e.getValue() * factor);
      out.set(i, c.withScores(s));
      trace.add(Stage.RETRIEVE, Action.DOWN_WEIGHT, "corpus:boilerplate", List.of(c.chunk().id()), "", 0,
          "its text recurs in " + m.recurrence() + " documents (>= " + minDocuments + "): scores x " + factor);
    }
    for (int i = 0; i < out.size(); i++) {
      Candidate copy = out.get(i);
      Index.ChunkMarks m = marks.get(copy.chunk().id());
      if (m == null || m.nearDuplicateOf().isEmpty()) continue;
      int best = -1;
      double bestJ = SAME_PASSAGE;
      for (int j = 0; j < out.size(); j++) {
        Candidate o = out.get(j);
        if (!o.chunk().docId().equals(m.nearDuplicateOf())) continue;
        double jac = Words.shingleJaccard(copy.chunk().text(), o.chunk().text(), 5);
        if (jac >= bestJ) {
          best = j;
          bestJ = jac;
        }
      }
      if (best < 0) continue;
      Candidate original = out.get(best);
      if (copy.score() <= original.score()) continue;
      out.set(best, original.withScores(copy.scores()));
      out.set(i, copy.withScores(original.scores()));
      trace.add(Stage.DEDUP, Action.PREFER, "corpus:near-duplicate-of", List.of(copy.chunk().id(), original.chunk().id()),
          original.chunk().id(), 0, "document " + copy.chunk().docId() + " is a near-duplicate of " + m.nearDuplicateOf()
              + String.format(java.util.Locale.ROOT, " (estimated Jaccard %.2f)", m.similarity())
              + " and these chunks repeat each other (Jaccard " + String.format(java.util.Locale.ROOT, "%.2f", bestJ)
              + "): the original's chunk takes the better score");
    }
    out.sort(Comparator.comparingDouble((Candidate c) -> -c.score()).thenComparing(c -> c.chunk().id()));
    return out;
  }
}
