package dev.ctxpack.dedup;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.List;

/**
 * Turns ranked candidates into passages, removing redundancy without losing provenance: every
 * input candidate ends up in exactly one output passage's {@code sources}, and every merge is a
 * {@link dev.ctxpack.model.Decision} in the trace. Output keeps the input's best-first order.
 */
public interface Deduplicator {
  List<Passage> dedup(List<Candidate> ranked, Trace trace);
}
