package dev.ctxpack.order;

import java.util.Locale;

/** How selected passages are ordered in the prompt. */
public enum OrderMode {
  /** Best first. */
  SCORE("score"),
  /** Strongest at the start and the end, weakest in the middle (Liu et al., "Lost in the Middle"). */
  LOST_IN_THE_MIDDLE("lost-in-the-middle"),
  /** Grouped by document (documents by their best passage), in document position within a group. */
  SOURCE("source");

  private final String key;

  OrderMode(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  public static OrderMode parse(String s) {
    String k = s.trim().toLowerCase(Locale.ROOT);
    for (OrderMode m : values()) {
      if (m.key.equals(k)) return m;
    }
    throw new IllegalArgumentException("unknown order '" + s + "': use lost-in-the-middle, score or source");
  }
}
