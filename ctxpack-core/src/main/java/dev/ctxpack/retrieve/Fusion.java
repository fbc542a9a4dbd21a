package dev.ctxpack.retrieve;

import dev.ctxpack.model.Candidate;
import java.util.List;

/**
 * Combines ranked lists from several signals into one. Every fused candidate keeps each input
 * signal's score and gains {@link dev.ctxpack.model.Signal#FUSED}; ties are broken by chunk id.
 */
public interface Fusion {

  /** A short description for the trace, e.g. {@code rrf(k=60)}. */
  String describe();

  /** Fuses the lists (each best first) and returns the top {@code k}, best first. */
  List<Candidate> fuse(List<List<Candidate>> rankedLists, int k);
}
