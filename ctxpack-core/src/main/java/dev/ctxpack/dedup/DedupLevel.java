package dev.ctxpack.dedup;

import dev.ctxpack.model.Action;
import java.util.Locale;

/** The levels of the dedup cascade, cheapest first, and the action each takes on a match. */
public enum DedupLevel {
  /** Same text after normalisation: the copy is dropped, its source cited with the kept one. */
  EXACT("exact", Action.DROP),
  /** Word-shingle Jaccard above a threshold: merged, the copy's own sentences kept. */
  NEAR("near", Action.MERGE),
  /** Chunks of one document whose offsets overlap or touch: stitched into their union. */
  OVERLAP("overlap", Action.STITCH),
  /** Embedding cosine above a threshold: grouped and rendered once, distinct sentences kept. */
  SEMANTIC("semantic", Action.GROUP);

  private final String key;
  private final Action action;

  DedupLevel(String key, Action action) {
    this.key = key;
    this.action = action;
  }

  public String key() {
    return key;
  }

  /** The decision action of a match at this level. */
  public Action action() {
    return action;
  }

  public static DedupLevel parse(String s) {
    for (DedupLevel l : values()) if (l.key.equals(s.strip().toLowerCase(Locale.ROOT))) return l;
    throw new IllegalArgumentException("unknown dedup level '" + s + "': use exact, near, overlap or semantic");
  }
}
