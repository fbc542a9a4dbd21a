package dev.ctxpack.index;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where documents, their chunks and their vectors are kept and searched. Writes are atomic per
 * call: after {@link #write} returns, every entry in it is durable and visible to new searches;
 * if the process dies during the call, none of it is (nothing half-written).
 */
public interface Index extends Closeable {

  /** A stored document without its text, with what re-ingestion needs to compare. */
  record StoredDoc(String id, String uri, String title, String sourcePath, String contentHash, int chunks) {}

  /** Counts and the embedder whose vectors the index holds (empty if none). */
  record Stats(int documents, int chunks, int vectors, Optional<String> embedderId, int dimension) {}

  Optional<StoredDoc> find(String docId) throws IOException;

  /** Stored documents whose {@code sourcePath} equals or lies under {@code prefix}. */
  List<StoredDoc> findBySourcePath(String prefix) throws IOException;

  Optional<Document> document(String docId) throws IOException;

  /**
   * Starts a write. Entries put into the batch replace any previous version of the same document
   * id (its chunks and vectors with it); nothing is visible or durable until {@link Batch#commit()},
   * and closing an uncommitted batch discards it. One batch at a time: others wait.
   */
  Batch begin() throws IOException;

  /** Adds or replaces {@code entries} and removes {@code deletes} in one durable commit. */
  default void write(List<IndexEntry> entries, Collection<String> deletes) throws IOException {
    try (Batch b = begin()) {
      for (String id : deletes) b.delete(id);
      for (IndexEntry e : entries) b.put(e);
      b.commit();
    }
  }

  /** An atomic write: everything put or deleted becomes durable together at {@link #commit()}. */
  interface Batch extends Closeable {
    void put(IndexEntry entry) throws IOException;

    /** Puts every entry; an implementation may write them concurrently. */
    default void putAll(List<IndexEntry> entries) throws IOException {
      for (IndexEntry e : entries) put(e);
    }

    void delete(String docId) throws IOException;

    /**
     * Records that the file {@code copy.path()} repeats document {@code copy.of()} exactly and was not
     * indexed (ctxpack 0.1): recording the same path and document again replaces the record, and the
     * record goes when document {@code of} is replaced or removed. The default keeps nothing.
     */
    default void recordDuplicate(DuplicateRecord copy) throws IOException {}

    /** Makes the batch durable and visible to new searches. The batch can be reused afterwards. */
    void commit() throws IOException;

    /** Discards anything not committed and releases the write lock. */
    @Override
    void close() throws IOException;
  }

  /** Removes documents by id in one commit; returns how many existed. */
  int remove(Collection<String> docIds) throws IOException;

  /** Top {@code k} chunks by BM25 for {@code query}, analysed for every language the index holds. */
  List<Candidate> searchSparse(String query, int k) throws IOException;

  /** Top {@code k} chunks by vector similarity to the unit vector {@code query}. */
  List<Candidate> searchDense(float[] query, int k) throws IOException;

  /**
   * The vector of each chunk that has any: the normalised mean of its stored window vectors (what
   * the semantic dedup level and MMR compare). Chunks without vectors are absent from the map. The
   * default holds none.
   */
  default java.util.Map<String, float[]> chunkVectors(Collection<String> chunkIds) throws IOException {
    return java.util.Map.of();
  }

  /**
   * A stored sentence vector: the sentence's offsets {@code span} in document {@code docId} and its
   * unit vector, from the embedder of the index's window vectors.
   */
  record SentenceVector(String docId, Span span, float[] vector) {
    public SentenceVector {
      Objects.requireNonNull(docId, "docId");
      Objects.requireNonNull(span, "span");
      Objects.requireNonNull(vector, "vector");
    }
  }

  /**
   * The sentence vectors stored at ingestion ({@link IndexEntry#sentenceVectors()}) of each of
   * {@code chunkIds}, keyed by chunk id, in sentence order; a chunk without stored sentence vectors
   * (or unknown) is absent. They let query-aware compression compare a query with every sentence of
   * a retrieved chunk without running the model. An implementation may store them compressed (the
   * Lucene index keeps 8 bits per dimension): the vectors come back unit length but only close to
   * the ones written. The default holds none.
   */
  default Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException {
    return Map.of();
  }

  Stats stats() throws IOException;

  /**
   * The documents {@code access} may read ({@link Access}), as a read-only index whose every read
   * (searches, documents, vectors, corpus marks, counts) sees no other document (ctxpack 0.1).
   * {@link Access#ALL} gives this index. The default filters nothing else: an implementation
   * that cannot filter refuses any narrower access.
   */
  default Index readableBy(Access access) {
    if (access.everything()) return this;
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot filter by access labels");
  }

  // ---- corpus-level duplicates (ctxpack 0.1) --------------------------------------------------

  /** A file found to repeat a stored document exactly, not indexed itself: {@code docId} is its id (a content id equals {@code of}). */
  record DuplicateRecord(String path, String docId, String of) {
    public DuplicateRecord {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(docId, "docId");
      Objects.requireNonNull(of, "of");
    }
  }

  /** A stored document with its MinHash signature, for near-duplicate checks at ingestion. */
  record SignedDoc(String id, String sourcePath, int[] signature) {}

  /**
   * What the corpus says about a stored chunk: its document, the document's near-duplicate mark
   * ({@code nearDuplicateOf} empty when none) and {@code recurrence}, the number of stored documents
   * holding a chunk of the same normalised text ({@link dev.ctxpack.similarity.Boilerplate#key}), its own
   * included (0 when the index does not know: written before ctxpack 0.1).
   */
  record ChunkMarks(String docId, String nearDuplicateOf, double similarity, int recurrence) {}

  /** A stored document with its corpus marks and no text, for the corpus report. */
  record CorpusDoc(String id, String uri, String title, String sourcePath, Map<String, String> metadata,
      String nearDuplicateOf, double similarity, long fileTime, int chunks) {}

  /** A chunk text (its normalised key, one stored text) held by {@code docIds.size()} documents. */
  record Recurring(String key, String text, List<String> docIds) {}

  /** Stored documents with a signature sharing at least one of {@code bandKeys}, by id. The default holds none. */
  default List<SignedDoc> documentsSharingBands(Collection<String> bandKeys) throws IOException {
    return List.of();
  }

  /** The corpus marks of each of {@code chunkIds} that the index knows, by chunk id. The default knows none. */
  default Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException {
    return Map.of();
  }

  /** Every stored document with its marks, by id. The default holds none. */
  default List<CorpusDoc> corpusDocuments() throws IOException {
    return List.of();
  }

  /** Every recorded exact duplicate ({@link Batch#recordDuplicate}), by path then document. The default holds none. */
  default List<DuplicateRecord> duplicates() throws IOException {
    return List.of();
  }

  /**
   * Chunk texts held by at least {@code minDocuments} stored documents, most documents first (ties
   * by key); each with its documents by id. The default holds none.
   */
  default List<Recurring> recurringChunks(int minDocuments) throws IOException {
    return List.of();
  }
}
