package dev.ctxpack.verify;

import java.util.List;
import java.util.Objects;

/**
 * An extract an answer quotes from its sources: the text between the quote marks, the source IDs it
 * is attributed to, where it lies in the answer ({@code [start, end)} of the text inside the marks,
 * or {@code -1, -1} for a quote given as JSON), and the 1-based index of the claim it belongs to (0
 * when none).
 *
 * <p>A quote is attributed to the citation right before it ({@code [S1] "…"}, {@code [S1]: "…"}),
 * else right after it ({@code "…" [S1]}), else to the citations of its claim, else to the previous
 * claim of its paragraph (an extract in a sentence of its own after the claim it supports). Only
 * extracts of at least {@value Quotes#MIN_WORDS} words are quotes: a word or two in quote marks is a
 * term or a scare quote, not an extract.
 */
public record Quote(String text, List<String> citations, int start, int end, int claim) {
  public Quote {
    Objects.requireNonNull(text, "text");
    citations = List.copyOf(citations);
  }

  /** A quote given as data (a JSON claim's {@code quotes}), attributed to its claim's citations. */
  public static Quote of(String text, List<String> citations, int claim) {
    return new Quote(text, citations, -1, -1, claim);
  }
}
