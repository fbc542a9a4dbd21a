package dev.ctxpack.dedup;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.List;

/**
 * Removes redundancy between ranked passages without losing provenance: every input passage's
 * sources end up in exactly one output passage's {@code sources}, every piece of an output passage
 * is verbatim text of its document at its span, and every drop, merge, stitch or group is a {@link
 * dev.ctxpack.model.Decision} in the trace. Output is best first; the same input gives the same
 * output. Pairs it matched but kept apart come back as data ({@link Deduplication#keptApart()}).
 * Implementations are thread-safe: each call works on its own state. {@code DeduplicatorContract}
 * (ctxpack-core's test jar) checks this of any implementation.
 */
public interface Deduplicator {
  /**
   * Dedups {@code ranked}. {@code tokenizer} counts what each decision saves; {@code vectors} gives
   * passage embeddings to levels that compare meaning ({@link PassageVectors#none()}: none).
   */
  Deduplication dedup(List<Passage> ranked, Tokenizer tokenizer, PassageVectors vectors, Trace trace) throws IOException;

  /** Dedup of retrieved candidates, each one passage to begin with. */
  default Deduplication dedupCandidates(List<Candidate> ranked, Tokenizer tokenizer, PassageVectors vectors, Trace trace)
      throws IOException {
    return dedup(ranked.stream().map(Passage::of).toList(), tokenizer, vectors, trace);
  }

  /** How the trace describes this deduplicator's configuration. */
  default String describe() {
    return getClass().getSimpleName();
  }
}
