package dev.ctxpack.model;

import java.util.Objects;

/**
 * A verbatim piece of a document. Invariant: {@code document.text().substring(span.start(),
 * span.end()).equals(text)}. {@code page} is 0 when the source has no pages; {@code tokens} is the
 * exact count under the tokenizer the chunker used.
 */
public record Chunk(String id, String docId, Span span, String text, String section, int page, int tokens) {
  public Chunk {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(docId, "docId");
    Objects.requireNonNull(span, "span");
    Objects.requireNonNull(text, "text");
    if (text.length() != span.length()) {
      throw new IllegalArgumentException(
          "chunk " + id + ": text length " + text.length() + " does not match span " + span);
    }
    section = section == null ? "" : section;
    if (page < 0) throw new IllegalArgumentException("page must be >= 0, was " + page);
    if (tokens < 0) throw new IllegalArgumentException("tokens must be >= 0, was " + tokens);
  }
}
