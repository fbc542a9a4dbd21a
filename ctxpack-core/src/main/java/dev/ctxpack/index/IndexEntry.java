package dev.ctxpack.index;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One document ready to write: its chunks (each reproducing its span of {@code doc.text()}) and
 * the vectors of their windows ({@link ChunkVector}), all from {@code embedderId}; no vectors for a
 * BM25-only index. Every chunk with vectors may have several, each inside the chunk's span.
 */
public record IndexEntry(
    Document doc, String sourcePath, String contentHash, List<Chunk> chunks, List<ChunkVector> vectors,
    String embedderId) {
  public IndexEntry {
    Objects.requireNonNull(doc, "doc");
    sourcePath = sourcePath == null ? "" : sourcePath;
    Objects.requireNonNull(contentHash, "contentHash");
    chunks = List.copyOf(chunks);
    vectors = vectors == null ? List.of() : List.copyOf(vectors);
    if (!vectors.isEmpty()) Objects.requireNonNull(embedderId, "embedderId");
    for (var c : chunks) {
      if (!c.docId().equals(doc.id())) {
        throw new IllegalArgumentException("chunk " + c.id() + " belongs to " + c.docId() + ", not " + doc.id());
      }
      if (c.span().end() > doc.text().length() || !doc.text().substring(c.span().start(), c.span().end()).equals(c.text())) {
        throw new IllegalArgumentException("chunk " + c.id() + " does not reproduce its span of " + doc.id());
      }
    }
    int dim = -1;
    for (ChunkVector v : vectors) {
      if (v.chunk() >= chunks.size()) {
        throw new IllegalArgumentException("document " + doc.id() + ": a vector refers to chunk " + v.chunk()
            + " of " + chunks.size());
      }
      var cs = chunks.get(v.chunk()).span();
      if (v.span().start() < cs.start() || v.span().end() > cs.end()) {
        throw new IllegalArgumentException("document " + doc.id() + ": vector window " + v.span()
            + " lies outside chunk " + chunks.get(v.chunk()).id() + " " + cs);
      }
      if (dim >= 0 && v.vector().length != dim) {
        throw new IllegalArgumentException("document " + doc.id() + ": vectors of " + dim + " and "
            + v.vector().length + " dimensions");
      }
      dim = v.vector().length;
    }
  }

  /** An entry with exactly one vector per chunk (covering the whole chunk), or none. */
  public static IndexEntry withChunkVectors(Document doc, String sourcePath, String contentHash, List<Chunk> chunks,
      List<float[]> perChunk, String embedderId) {
    List<ChunkVector> vs = new ArrayList<>();
    if (perChunk != null && !perChunk.isEmpty()) {
      if (perChunk.size() != chunks.size()) {
        throw new IllegalArgumentException(
            "document " + doc.id() + ": " + perChunk.size() + " vectors for " + chunks.size() + " chunks");
      }
      for (int i = 0; i < chunks.size(); i++) vs.add(new ChunkVector(i, chunks.get(i).span(), perChunk.get(i)));
    }
    return new IndexEntry(doc, sourcePath, contentHash, chunks, vs, embedderId);
  }

  /** The dimension of the vectors, or 0 without vectors. */
  public int dimension() {
    return vectors.isEmpty() ? 0 : vectors.get(0).vector().length;
  }
}
