package dev.ctxpack.model;

import java.util.List;

/**
 * A source as shown to the model: its label ({@code S1}, {@code S2}...), what identifies it and the
 * verbatim text. {@code spans} locate the text (and any merged copies) in their documents.
 */
public record Source(
    String label,
    String docId,
    String title,
    String uri,
    String section,
    int page,
    String date,
    List<DocSpan> spans,
    String text) {
  public Source {
    spans = List.copyOf(spans);
  }

  /** A span of a named document. */
  public record DocSpan(String docId, int start, int end) {}
}
