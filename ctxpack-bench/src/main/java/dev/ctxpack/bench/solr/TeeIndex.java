package dev.ctxpack.bench.solr;

import dev.ctxpack.index.Access;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Two indexes written as one, for an evaluation that ingests a corpus once (one embedding pass)
 * into two backends: reads come from {@code primary}; every batch is put, deleted and committed in
 * both, {@code primary} first. Not for use outside the evaluations: a failure between the two
 * commits leaves them apart.
 */
final class TeeIndex implements Index {
  private final Index primary;
  private final Index secondary;

  TeeIndex(Index primary, Index secondary) {
    this.primary = primary;
    this.secondary = secondary;
  }

  @Override
  public Batch begin() throws IOException {
    Batch a = primary.begin();
    Batch b;
    try {
      b = secondary.begin();
    } catch (IOException | RuntimeException e) {
      a.close();
      throw e;
    }
    return new Batch() {
      @Override
      public void put(IndexEntry entry) throws IOException {
        a.put(entry);
        b.put(entry);
      }

      @Override
      public void putAll(List<IndexEntry> entries) throws IOException {
        a.putAll(entries);
        b.putAll(entries);
      }

      @Override
      public void delete(String docId) throws IOException {
        a.delete(docId);
        b.delete(docId);
      }

      @Override
      public void recordDuplicate(DuplicateRecord copy) throws IOException {
        a.recordDuplicate(copy);
        b.recordDuplicate(copy);
      }

      @Override
      public void commit() throws IOException {
        a.commit();
        b.commit();
      }

      @Override
      public boolean compact() throws IOException {
        boolean x = a.compact();
        return b.compact() || x;
      }

      @Override
      public void close() throws IOException {
        try {
          a.close();
        } finally {
          b.close();
        }
      }
    };
  }

  @Override
  public int remove(Collection<String> docIds) throws IOException {
    secondary.remove(docIds);
    return primary.remove(docIds);
  }

  @Override
  public String location() {
    return primary.location() + " + " + secondary.location();
  }

  @Override
  public List<Candidate> searchSparse(String query, int k) throws IOException {
    return primary.searchSparse(query, k);
  }

  @Override
  public List<Candidate> searchDense(float[] query, int k) throws IOException {
    return primary.searchDense(query, k);
  }

  @Override
  public Optional<Document> document(String docId) throws IOException {
    return primary.document(docId);
  }

  @Override
  public Map<String, float[]> chunkVectors(Collection<String> chunkIds) throws IOException {
    return primary.chunkVectors(chunkIds);
  }

  @Override
  public Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException {
    return primary.sentenceVectors(chunkIds);
  }

  @Override
  public Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException {
    return primary.chunkMarks(chunkIds);
  }

  @Override
  public Stats stats() throws IOException {
    return primary.stats();
  }

  @Override
  public SearchableIndex readableBy(Access access) {
    return primary.readableBy(access);
  }

  @Override
  public Optional<StoredDoc> find(String docId) throws IOException {
    return primary.find(docId);
  }

  @Override
  public List<StoredDoc> findBySourcePath(String prefix) throws IOException {
    return primary.findBySourcePath(prefix);
  }

  @Override
  public List<SignedDoc> documentsSharingBands(Collection<String> bandKeys) throws IOException {
    return primary.documentsSharingBands(bandKeys);
  }

  @Override
  public List<CorpusDoc> corpusDocuments() throws IOException {
    return primary.corpusDocuments();
  }

  @Override
  public List<DuplicateRecord> duplicates() throws IOException {
    return primary.duplicates();
  }

  @Override
  public List<Recurring> recurringChunks(int minDocuments) throws IOException {
    return primary.recurringChunks(minDocuments);
  }

  @Override
  public void close() throws IOException {
    try {
      primary.close();
    } finally {
      secondary.close();
    }
  }
}
