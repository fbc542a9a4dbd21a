package dev.ctxpack.index;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The read role of an {@link Index}: what a request needs to find and read evidence (retrieval,
 * sentence windows, the semantic dedup level and MMR, query-aware compression, corpus preference).
 * Every read sees the last committed state. {@link #readableBy} narrows it to what a principal may
 * read.
 *
 * <pre>{@code
 * SearchableIndex view = index.readableBy(Access.labels(List.of("eng")));
 * List<Candidate> hits = view.searchSparse("salary bands", 20);
 * }</pre>
 */
public interface SearchableIndex {

  /** Counts and the embedder whose vectors the index holds (empty if none). */
  record Stats(int documents, int chunks, int vectors, Optional<String> embedderId, int dimension) {}

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
   * What the corpus says about a stored chunk: its document, the document's near-duplicate mark
   * ({@code nearDuplicateOf} empty when none) and {@code recurrence}, the number of stored documents
   * holding a chunk of the same normalised text ({@link dev.ctxpack.similarity.Boilerplate#key}), its own
   * included (0 when the index does not know: written before ctxpack 0.1).
   */
  record ChunkMarks(String docId, String nearDuplicateOf, double similarity, int recurrence) {}

  /**
   * Top {@code k} chunks by BM25 for {@code query}, analysed for every language the index holds;
   * sorted by score, ties by chunk id. Fails on {@code k < 1}.
   */
  List<Candidate> searchSparse(String query, int k) throws IOException;

  /**
   * Top {@code k} chunks by vector similarity to the unit vector {@code query}: a chunk scores the
   * cosine of its best window; sorted by score, ties by chunk id. None when the index holds no
   * vectors. Fails on {@code k < 1}.
   */
  List<Candidate> searchDense(float[] query, int k) throws IOException;

  /** The stored document, with its full text. */
  Optional<Document> document(String docId) throws IOException;

  /**
   * The vector of each chunk that has any: the normalised mean of its stored window vectors (what
   * the semantic dedup level and MMR compare). Chunks without vectors are absent from the map.
   */
  Map<String, float[]> chunkVectors(Collection<String> chunkIds) throws IOException;

  /**
   * The sentence vectors stored at ingestion ({@link IndexEntry#sentenceVectors()}) of each of
   * {@code chunkIds}, keyed by chunk id, in sentence order; a chunk without stored sentence vectors
   * (or unknown) is absent. They let query-aware compression compare a query with every sentence of
   * a retrieved chunk without running the model. An implementation may store them compressed (the
   * Lucene index keeps 8 bits per dimension): the vectors come back unit length but only close to
   * the ones written.
   */
  Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException;

  /** The corpus marks of each of {@code chunkIds} that the index knows, by chunk id. */
  Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException;

  Stats stats() throws IOException;

  /**
   * The documents {@code access} may read ({@link Access}), as a read-only view whose every read
   * (searches, documents, vectors, corpus marks, counts) sees no other document, and whose BM25
   * statistics are those of an index holding only the readable documents (ctxpack 0.1). {@link
   * Access#ALL} gives this index. A view is not narrowed again.
   */
  SearchableIndex readableBy(Access access);

  /**
   * This index, or a view of it whose reads record in {@code coverage} the parts of a distributed
   * index they were answered without ({@link ReadCoverage}). An index that answers every read whole or
   * fails it (the default) returns itself; a Solr collection whose spec tolerates a shard with no live
   * replica ({@code shards.tolerant=true}) returns a view whose searches and corpus marks answer from
   * the other shards and say so here, where without a view they fail.
   */
  default SearchableIndex reportingTo(ReadCoverage coverage) {
    java.util.Objects.requireNonNull(coverage, "coverage");
    return this;
  }
}
