package dev.ctxpack.onnx;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Signal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** What every reranker in this package does the same way: the text it scores, the final order. */
final class Reranking {
  private Reranking() {}

  private static final Comparator<Candidate> BEST_FIRST =
      Comparator.comparingDouble((Candidate c) -> c.scores().getOr(Signal.RERANK, 0)).reversed()
          .thenComparing(c -> c.chunk().id());

  /**
   * The passage a model scores for {@code c}: the chunk text, after the document title and a blank
   * line when the document has a title ({@code title\n\ntext}), as the index embeds it.
   */
  static String passage(Candidate c) {
    String title = c.doc().title();
    return title.isBlank() ? c.chunk().text() : title.strip() + "\n\n" + c.chunk().text();
  }

  /**
   * {@code candidates} with {@code scores[i]} set as {@link Signal#RERANK} on candidate {@code i}
   * (other scores kept), best first, ties broken by chunk id.
   *
   * @throws IllegalStateException if a score is not finite (a broken model), naming the candidate
   */
  static List<Candidate> ranked(List<Candidate> candidates, double[] scores) {
    if (scores.length != candidates.size()) {
      throw new IllegalStateException(scores.length + " scores for " + candidates.size() + " candidates");
    }
    List<Candidate> out = new ArrayList<>(candidates.size());
    for (int i = 0; i < scores.length; i++) {
      Candidate c = candidates.get(i);
      if (!Double.isFinite(scores[i])) {
        throw new IllegalStateException("rerank score of " + c.chunk().id() + " is " + scores[i]);
      }
      out.add(c.withScores(c.scores().with(Signal.RERANK, scores[i])));
    }
    out.sort(BEST_FIRST);
    return List.copyOf(out);
  }

  /** Checks the arguments every {@link dev.ctxpack.rerank.Reranker#rerank} call gets. */
  static void check(String query, List<Candidate> candidates) {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("query must not be blank");
    if (candidates == null) throw new IllegalArgumentException("candidates must not be null");
    for (int i = 0; i < candidates.size(); i++) {
      if (candidates.get(i) == null) throw new IllegalArgumentException("candidates[" + i + "] is null");
    }
  }
}
