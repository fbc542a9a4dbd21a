package dev.ctxpack.dedup;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.util.List;

/**
 * Removes redundancy between ranked passages without losing provenance: every input passage's
 * sources end up in exactly one output passage's {@code sources}, and every drop, merge, stitch or
 * group is a {@link dev.ctxpack.model.Decision} in the trace. Output is best first.
 */
public interface Deduplicator {
  List<Passage> dedup(List<Passage> ranked, Trace trace) throws IOException;

  /** Dedup of retrieved candidates, each one passage to begin with. */
  default List<Passage> dedupCandidates(List<Candidate> ranked, Trace trace) throws IOException {
    return dedup(ranked.stream().map(Passage::of).toList(), trace);
  }
}
