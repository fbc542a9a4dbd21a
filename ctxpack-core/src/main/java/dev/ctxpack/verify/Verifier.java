package dev.ctxpack.verify;

import java.io.IOException;
import java.util.List;

/** Checks an answer's claims against the sources it was given. */
public interface Verifier {
  /**
   * @param query the question the answer responds to, or {@code null}; with it, an abstention (or its
   *     absence) is judged against the sources
   * @param sources the sources as given to the model, IDs unique
   * @param answer the parsed answer
   */
  Verification verify(String query, List<VerifySource> sources, Answer answer) throws IOException;

  /**
   * This verifier with its abstention judged against another relevance line, as {@code pack
   * --min-relevance P --min-coverage C} reads them ({@link dev.ctxpack.compress.RelevanceGate#AUTO}
   * for the default of each). The default keeps this verifier for two {@code AUTO}s and refuses any
   * other value: a verifier that judges no abstention has no line to move.
   *
   * @throws IllegalArgumentException when a line is given to a verifier that has none
   */
  default Verifier withRelevance(double minRelevance, double minCoverage) {
    if (Double.isNaN(minRelevance) && Double.isNaN(minCoverage)) return this;
    throw new IllegalArgumentException(getClass().getSimpleName() + " judges no abstention: it takes no relevance line");
  }
}
