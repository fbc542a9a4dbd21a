package dev.ctxpack.guard;

import java.util.Locale;

/**
 * What the packer does with a source in which the guard found instruction-like text. Every policy
 * but {@code OFF} fences sources with the per-request boundary, strips invisible characters and
 * escapes look-alikes; they differ in what a flagged source becomes.
 */
public enum InjectionPolicy {
  /** No guard: the plain {@code <source>} fence and verbatim text (for ablations). */
  OFF("off"),
  /** Keep the source, list the rules in the trace and add a warning line inside its fence (default). */
  FLAG("flag"),
  /** Drop the source before selection, recorded in the trace with the rules that matched. */
  QUARANTINE("quarantine"),
  /** Flag, and datamark every source: the spaces between words become {@link InjectionGuard#DATAMARK}. */
  DATAMARK("datamark");

  private final String key;

  InjectionPolicy(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  public static InjectionPolicy parse(String s) {
    if (s != null) {
      String k = s.trim().toLowerCase(Locale.ROOT);
      for (InjectionPolicy p : values()) if (p.key.equals(k)) return p;
    }
    throw new IllegalArgumentException("unknown injection policy '" + s + "': use flag, quarantine, datamark or off");
  }
}
