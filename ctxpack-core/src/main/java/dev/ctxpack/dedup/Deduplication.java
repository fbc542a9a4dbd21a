package dev.ctxpack.dedup;

import dev.ctxpack.model.Passage;
import java.util.List;

/**
 * What a {@link Deduplicator} returns: the passages left, best first, and every pair it matched but
 * kept apart, in the order it decided them.
 */
public record Deduplication(List<Passage> passages, List<KeptApart> keptApart) {
  public Deduplication {
    passages = List.copyOf(passages);
    keptApart = List.copyOf(keptApart);
  }
}
