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
 *
 * <p>{@code sentenceVectors} are the unit vectors of the chunks' sentences, from the same embedder
 * and of the same dimension: {@link ChunkVector#span()} is then the sentence's offsets in the
 * document, inside its chunk's span. They are not searched; query-aware compression reads them back
 * ({@link SearchableIndex#sentenceVectors}) to compare a query with every sentence of a retrieved chunk
 * without running the model. Empty when not computed.
 *
 * <p>{@code corpus} holds the document's MinHash signature and its near-duplicate mark (ctxpack
 * 0.1); {@link CorpusMarks#NONE} when not computed.
 */
public record IndexEntry(
    Document doc, String sourcePath, String contentHash, List<Chunk> chunks, List<ChunkVector> vectors,
    String embedderId, List<ChunkVector> sentenceVectors, CorpusMarks corpus) {
  public IndexEntry {
    corpus = corpus == null ? CorpusMarks.NONE : corpus;
    Objects.requireNonNull(doc, "doc");
    sourcePath = sourcePath == null ? "" : sourcePath;
    Objects.requireNonNull(contentHash, "contentHash");
    chunks = List.copyOf(chunks);
    vectors = vectors == null ? List.of() : List.copyOf(vectors);
    sentenceVectors = sentenceVectors == null ? List.of() : List.copyOf(sentenceVectors);
    if (!vectors.isEmpty() || !sentenceVectors.isEmpty()) Objects.requireNonNull(embedderId, "embedderId");
    for (var c : chunks) {
      if (!c.docId().equals(doc.id())) {
        throw new IllegalArgumentException("chunk " + c.id() + " belongs to " + c.docId() + ", not " + doc.id());
      }
      if (c.span().end() > doc.text().length() || !doc.text().substring(c.span().start(), c.span().end()).equals(c.text())) {
        throw new IllegalArgumentException("chunk " + c.id() + " does not reproduce its span of " + doc.id());
      }
    }
    int dim = check(doc, chunks, vectors, "vector window", -1);
    check(doc, chunks, sentenceVectors, "sentence", dim);
  }

  /** An entry without corpus marks. */
  public IndexEntry(Document doc, String sourcePath, String contentHash, List<Chunk> chunks, List<ChunkVector> vectors,
      String embedderId, List<ChunkVector> sentenceVectors) {
    this(doc, sourcePath, contentHash, chunks, vectors, embedderId, sentenceVectors, CorpusMarks.NONE);
  }

  /** This entry with {@code marks}. */
  public IndexEntry withCorpus(CorpusMarks marks) {
    return new IndexEntry(doc, sourcePath, contentHash, chunks, vectors, embedderId, sentenceVectors, marks);
  }

  /** An entry without sentence vectors. */
  public IndexEntry(Document doc, String sourcePath, String contentHash, List<Chunk> chunks, List<ChunkVector> vectors,
      String embedderId) {
    this(doc, sourcePath, contentHash, chunks, vectors, embedderId, List.of());
  }

  /**
   * Checks that every vector points at a chunk, lies inside its span and has the dimension of the
   * others ({@code dim}, or the first's when {@code dim} is -1); returns the dimension (or {@code dim}).
   */
  private static int check(Document doc, List<Chunk> chunks, List<ChunkVector> vectors, String what, int dim) {
    for (ChunkVector v : vectors) {
      if (v.chunk() >= chunks.size()) {
        throw new IllegalArgumentException("document " + doc.id() + ": a " + what + " refers to chunk "
            + v.chunk() + " of " + chunks.size());
      }
      var cs = chunks.get(v.chunk()).span();
      if (v.span().start() < cs.start() || v.span().end() > cs.end()) {
        throw new IllegalArgumentException("document " + doc.id() + ": " + what + " " + v.span()
            + " lies outside chunk " + chunks.get(v.chunk()).id() + " " + cs);
      }
      if (dim >= 0 && v.vector().length != dim) {
        throw new IllegalArgumentException("document " + doc.id() + ": vectors of " + dim + " and "
            + v.vector().length + " dimensions");
      }
      dim = v.vector().length;
    }
    return dim;
  }

  /** An entry with exactly one vector per chunk (covering the whole chunk), or none; no sentence vectors. */
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
    return new IndexEntry(doc, sourcePath, contentHash, chunks, vs, embedderId, List.of());
  }

  /** The dimension of the vectors (window or sentence), or 0 without vectors. */
  public int dimension() {
    if (!vectors.isEmpty()) return vectors.get(0).vector().length;
    return sentenceVectors.isEmpty() ? 0 : sentenceVectors.get(0).vector().length;
  }

  /** Whether the entry holds any vector, of a window or of a sentence. */
  public boolean hasVectors() {
    return !vectors.isEmpty() || !sentenceVectors.isEmpty();
  }
}
