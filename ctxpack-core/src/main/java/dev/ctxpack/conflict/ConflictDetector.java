package dev.ctxpack.conflict;

import dev.ctxpack.dedup.KeptApart;
import dev.ctxpack.model.Passage;
import java.util.List;

/**
 * Finds the selected passages that disagree, after compression and before ordering: the stage that
 * lets the prompt say "sources disagree" and put the newer version where the model reads best.
 * Implementations are deterministic and thread-safe.
 */
public interface ConflictDetector {
  /**
   * The disagreeing pairs among {@code passages}, from what the dedup stage kept apart ({@code
   * keptApart}) and what the passages' documents say of themselves. With {@code withValues} off (PII
   * redaction on), no conflict quotes the passages' text.
   */
  List<Conflict> detect(List<Passage> passages, List<KeptApart> keptApart, boolean withValues);
}
