package dev.ctxpack.assemble;

import java.util.Locale;

/**
 * The parts of a context window that share its budget. {@link #key()} is the name used in requests
 * ({@code limits}) and reports ({@code byComponent}).
 */
public enum Component {
  SYSTEM("system"),
  TOOLS("tools"),
  HISTORY("history"),
  FEW_SHOT("fewShot"),
  MEMORIES("memories"),
  EVIDENCE("evidence"),
  QUERY("query");

  private final String key;

  Component(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  /** The component named {@code key} ({@code fewShot} also as {@code few-shot}), or an error listing the names. */
  public static Component parse(String key) {
    String k = key.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    for (Component c : values()) {
      if (c.key.toLowerCase(Locale.ROOT).equals(k)) return c;
    }
    throw new IllegalArgumentException("unknown component '" + key
        + "': use system, tools, history, fewShot, memories, evidence or query");
  }
}
