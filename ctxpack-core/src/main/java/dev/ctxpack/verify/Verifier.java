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
}
