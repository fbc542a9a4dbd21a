package dev.ctxpack.index;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import java.util.List;
import java.util.Objects;

/**
 * One document ready to write: its chunks (each reproducing its span of {@code doc.text()}), and
 * either no vectors or exactly one per chunk from {@code embedderId}.
 */
public record IndexEntry(
    Document doc, String sourcePath, String contentHash, List<Chunk> chunks, List<float[]> vectors, String embedderId) {
  public IndexEntry {
    Objects.requireNonNull(doc, "doc");
    sourcePath = sourcePath == null ? "" : sourcePath;
    Objects.requireNonNull(contentHash, "contentHash");
    chunks = List.copyOf(chunks);
    vectors = vectors == null ? List.of() : List.copyOf(vectors);
    if (!vectors.isEmpty() && vectors.size() != chunks.size()) {
      throw new IllegalArgumentException(
          "document " + doc.id() + ": " + vectors.size() + " vectors for " + chunks.size() + " chunks");
    }
    if (!vectors.isEmpty()) Objects.requireNonNull(embedderId, "embedderId");
    for (var c : chunks) {
      if (!c.docId().equals(doc.id())) {
        throw new IllegalArgumentException("chunk " + c.id() + " belongs to " + c.docId() + ", not " + doc.id());
      }
      if (c.span().end() > doc.text().length() || !doc.text().substring(c.span().start(), c.span().end()).equals(c.text())) {
        throw new IllegalArgumentException("chunk " + c.id() + " does not reproduce its span of " + doc.id());
      }
    }
  }
}
