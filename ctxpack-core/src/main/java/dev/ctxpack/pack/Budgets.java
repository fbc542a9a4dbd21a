package dev.ctxpack.pack;

import java.util.Locale;

/** Budget presets: low / medium / high = 1,000 / 4,000 / 10,000 tokens. */
public final class Budgets {
  public static final int LOW = 1_000;
  public static final int MEDIUM = 4_000;
  public static final int HIGH = 10_000;
  public static final int DEFAULT_RESERVE = 4_000;
  /** The largest budget accepted: larger than any model window in the registry. */
  public static final int MAX = 2_000_000;

  private Budgets() {}

  public static int preset(String name) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "low" -> LOW;
      case "medium" -> MEDIUM;
      case "high" -> HIGH;
      default -> throw new IllegalArgumentException("unknown preset '" + name + "': use low, medium or high");
    };
  }
}
