package dev.ctxpack.lucene;

import dev.ctxpack.index.Access;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.search.Query;

/**
 * The access-filtered view of {@link LuceneIndex#readableBy}: the index's reads ({@link
 * LuceneReads}) with the filter of what {@code access} may read ({@link Acl#filter}), so documents
 * it may not read are never scored, returned or counted, and BM25 counts its statistics over the
 * readable documents only ({@link ReadableStatistics}). It holds nothing of its own: closing the
 * index ends it.
 */
final class ReadableView implements SearchableIndex {
  private final LuceneReads reads;
  private final Access access;
  private final Query filter;

  ReadableView(LuceneReads reads, Access access) {
    this.reads = reads;
    this.access = access;
    this.filter = Acl.filter(access);
  }

  @Override
  public Optional<Document> document(String docId) throws IOException {
    return reads.document(docId, filter);
  }

  @Override
  public List<Candidate> searchSparse(String query, int k) throws IOException {
    return reads.searchSparse(query, k, filter);
  }

  @Override
  public List<Candidate> searchDense(float[] query, int k) throws IOException {
    return reads.searchDense(query, k, filter);
  }

  @Override
  public Map<String, float[]> chunkVectors(Collection<String> chunkIds) throws IOException {
    return reads.chunkVectors(chunkIds, filter);
  }

  @Override
  public Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException {
    return reads.sentenceVectors(chunkIds, filter);
  }

  @Override
  public Stats stats() throws IOException {
    return reads.stats(filter);
  }

  @Override
  public Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException {
    return reads.chunkMarks(chunkIds, filter);
  }

  @Override
  public SearchableIndex readableBy(Access narrower) {
    throw new UnsupportedOperationException("a view is not narrowed again: take the view of the index itself");
  }

  @Override
  public String toString() {
    return "the index as " + access + " reads it";
  }
}
