package dev.ctxpack.compress;

import java.util.List;
import java.util.Objects;

/**
 * One passage to compress. Its text is made of {@code parts} (a passage merged by dedup has several
 * verbatim pieces); each part is segmented apart, so no kept span crosses two parts. {@code score}
 * is the passage's retrieval or rerank score (NaN when unknown); the order of the inputs is their
 * rank. {@code chunkIds} name the index chunks the passage came from, where stored sentence vectors
 * can be found (empty for text given directly).
 */
public record CompressInput(String id, List<Part> parts, String title, double score, List<String> chunkIds) {

  /**
   * A verbatim part of the passage. {@code docId} and {@code docStart} place it in a stored document
   * ({@code null} and 0 for text given directly): a kept span {@code [s, e)} of the part is {@code
   * [docStart + s, docStart + e)} of the document.
   */
  public record Part(String text, String docId, int docStart) {
    public Part {
      Objects.requireNonNull(text, "text");
      if (docStart < 0) throw new IllegalArgumentException("docStart must be >= 0, was " + docStart);
    }

    public static Part of(String text) {
      return new Part(text, null, 0);
    }
  }

  public CompressInput {
    Objects.requireNonNull(id, "id");
    parts = List.copyOf(parts);
    if (parts.isEmpty()) throw new IllegalArgumentException("passage " + id + " has no text");
    title = title == null ? "" : title;
    chunkIds = chunkIds == null ? List.of() : List.copyOf(chunkIds);
  }

  /** A passage of one text, no title, no score. */
  public static CompressInput of(String id, String text) {
    return new CompressInput(id, List.of(Part.of(text)), "", Double.NaN, List.of());
  }

  public static CompressInput of(String id, String text, String title, double score) {
    return new CompressInput(id, List.of(Part.of(text)), title, score, List.of());
  }
}
