package dev.ctxpack.pack;

import java.util.Locale;

/**
 * What a request does when no evidence clears its relevance line ({@link PackOptions.Relevance}).
 */
public enum OnInsufficient {
  /**
   * Send no sources: the prompt tells the model the sources do not answer the question and asks it
   * to say so and what is missing; the package lists the closest candidates.
   */
  ABSTAIN("abstain"),
  /** Send the best evidence anyway, filling the budget as without a line; the package still says insufficient. */
  BEST_EFFORT("best-effort"),
  /** Fail the request ({@link InsufficientEvidenceException}; exit code 3 on the CLI, HTTP 422 in the service). */
  FAIL("fail");

  private final String key;

  OnInsufficient(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  /** {@code abstain}, {@code best-effort} or {@code fail}, any case. */
  public static OnInsufficient parse(String s) {
    String k = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
    for (OnInsufficient o : values()) if (o.key.equals(k)) return o;
    throw new IllegalArgumentException("unknown on-insufficient '" + s + "': use abstain, best-effort or fail");
  }
}
