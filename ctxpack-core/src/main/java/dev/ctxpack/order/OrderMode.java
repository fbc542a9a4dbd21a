package dev.ctxpack.order;

import java.util.Locale;

/** How selected passages are ordered in the prompt. Each passage is one SOURCES block; positions count blocks. */
public enum OrderMode {
  /** Best first. */
  SCORE("score"),
  /** Strongest at the start and the end, weakest in the middle (Liu et al., "Lost in the Middle"). */
  LOST_IN_THE_MIDDLE("lost-in-the-middle"),
  /** Grouped by document (documents by their best passage), in document position within a group. */
  SOURCE("source"),
  /**
   * Grouped by topic (passages clustered by their vectors, or by their content terms when some have
   * none), groups by their best passage, best first within a group.
   */
  TOPIC("topic"),
  /**
   * Reading order: documents in corpus order (undated first, then by date, oldest first; then URI,
   * then document id), passages by their offset within a document.
   */
  POSITION("position");

  private final String key;

  OrderMode(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  /** The mode named {@code s} (case and surrounding spaces ignored). */
  public static OrderMode parse(String s) {
    String k = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
    for (OrderMode m : values()) {
      if (m.key.equals(k)) return m;
    }
    throw new IllegalArgumentException("unknown order '" + s + "': use lost-in-the-middle, score, source, topic or position");
  }
}
