package dev.ctxpack.verify;

import java.util.List;
import java.util.Objects;

/**
 * One claim of an answer: its text (citation markers removed), the source IDs it cites, in order
 * and without repeats, and where it lies in the answer text ({@code [start, end)}, or {@code -1,
 * -1} for a claim given as JSON).
 */
public record Claim(String text, List<String> citations, int start, int end) {
  public Claim {
    Objects.requireNonNull(text, "text");
    citations = List.copyOf(citations);
  }

  /** A claim given as data (JSON claims), not located in an answer text. */
  public static Claim of(String text, List<String> citations) {
    return new Claim(text, citations, -1, -1);
  }
}
