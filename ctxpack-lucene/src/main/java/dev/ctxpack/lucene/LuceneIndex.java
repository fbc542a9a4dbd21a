package dev.ctxpack.lucene;

import dev.ctxpack.index.Access;
import dev.ctxpack.index.AccessTermsAudit;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NoLockFactory;

/**
 * The embedded {@link Index}: one Lucene directory holding, per document, a record (id, uri,
 * title, language, metadata, content hash, full text), one Lucene document per chunk (verbatim
 * text and offsets, a BM25 body field analysed for the document's language, and the chunk's
 * sentence vectors quantised in one stored field) and one per vector window (an HNSW vector).
 *
 * <p>Durability: each {@link #write} replaces every affected document's block with {@code
 * updateDocuments} and ends with one {@link IndexWriter#commit()}; a failure before the commit rolls
 * everything back. Lucene commits are atomic, so after a crash the index opens at the last
 * acknowledged write, never at a half-written one.
 *
 * <p>Its parts, by role: {@link LuceneReads} (every read, with an optional access filter), {@link
 * LuceneWrites} (the writer and its batches), {@link CorpusQueries} (the corpus catalog), {@link
 * ReadableView} (a principal's view), all over one {@link Searchers}.
 *
 * <p>Opened by spec ({@code lucene:DIR}, or a bare path) through {@link LuceneIndexProvider}.
 *
 * <p>Thread-safe. Searches see the last committed state.
 */
public final class LuceneIndex implements Index, AccessTermsAudit {
  private final Path path;
  private final Directory directory;
  private final Searchers searchers;
  private final LuceneReads reads;
  private final LuceneWrites writes;

  private LuceneIndex(Path path, Directory directory) {
    this.path = path;
    this.directory = directory;
    var perField = Analyzers.perLanguage();
    this.searchers = new Searchers(directory);
    this.reads = new LuceneReads(searchers, new SparseQueryBuilder(perField));
    this.writes = new LuceneWrites(path.toString(), directory, Analyzers.wrapper(perField), searchers);
  }

  /** Opens the index at {@code path}, creating the directory on first write. */
  public static LuceneIndex open(Path path) throws IOException {
    Files.createDirectories(path);
    return new LuceneIndex(path, FSDirectory.open(path));
  }

  /**
   * Opens the index kept in {@code directory}, a Lucene directory of the caller's (a wrapper that
   * enforces a quota, or one that fails on demand in a test), named {@code path} in messages and by
   * {@link #location()}. The index closes the directory when it is closed.
   */
  public static LuceneIndex open(Path path, Directory directory) {
    return new LuceneIndex(path, directory);
  }

  /** Opens an existing index for reading; fails with a message naming {@code path} if there is none. */
  public static LuceneIndex openExisting(Path path) throws IOException {
    if (!Files.isDirectory(path)) {
      throw new IOException("no index at " + path + ": run 'ctxpack ingest' first, or pass --index");
    }
    Directory dir = FSDirectory.open(path);
    if (!DirectoryReader.indexExists(dir)) {
      dir.close();
      throw new IOException("no index at " + path + ": run 'ctxpack ingest' first, or pass --index");
    }
    return new LuceneIndex(path, dir);
  }

  /** Opens an existing index read-only without taking the write lock (e.g. while another process ingests). */
  static LuceneIndex openReadOnly(Path path) throws IOException {
    return new LuceneIndex(path, FSDirectory.open(path, NoLockFactory.INSTANCE));
  }

  /** The index directory. */
  public Path path() {
    return path;
  }

  /** The directory, as given to {@link #open} or {@link #openExisting}. */
  @Override
  public String location() {
    return path.toString();
  }

  // ---- writes -------------------------------------------------------------------------------

  @Override
  public Batch begin() throws IOException {
    return writes.begin();
  }

  @Override
  public int remove(Collection<String> docIds) throws IOException {
    int existing = 0;
    List<String> present = new ArrayList<>();
    // An id given twice is one document: it is counted once.
    for (String id : new java.util.LinkedHashSet<>(docIds)) {
      if (find(id).isPresent()) {
        existing++;
        present.add(id);
      }
    }
    if (!present.isEmpty()) write(List.of(), present);
    return existing;
  }

  @Override
  public Optional<StoredDoc> find(String docId) throws IOException {
    return reads.find(docId);
  }

  @Override
  public List<StoredDoc> findBySourcePath(String prefix) throws IOException {
    return reads.findBySourcePath(prefix);
  }

  @Override
  public List<SignedDoc> documentsSharingBands(Collection<String> bandKeys) throws IOException {
    return searchers.withSearcher(s -> CorpusQueries.sharingBands(s, bandKeys), List.of());
  }

  // ---- reads --------------------------------------------------------------------------------

  @Override
  public Optional<Document> document(String docId) throws IOException {
    return reads.document(docId, null);
  }

  @Override
  public List<Candidate> searchSparse(String query, int k) throws IOException {
    return reads.searchSparse(query, k, null);
  }

  @Override
  public List<Candidate> searchDense(float[] vector, int k) throws IOException {
    return reads.searchDense(vector, k, null);
  }

  @Override
  public Map<String, float[]> chunkVectors(Collection<String> chunkIds) throws IOException {
    return reads.chunkVectors(chunkIds, null);
  }

  @Override
  public Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException {
    return reads.sentenceVectors(chunkIds, null);
  }

  @Override
  public Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException {
    return reads.chunkMarks(chunkIds, null);
  }

  /** {reads of chunk documents, of which answered without decoding} ({@link DecodedChunks}; for tests). */
  long[] chunkReads() {
    return reads.chunkReads();
  }

  @Override
  public Stats stats() throws IOException {
    return reads.stats(null);
  }

  /**
   * The documents {@code access} may read, as a read-only {@link SearchableIndex}: every read
   * (search, the documents, vectors, corpus marks, counts) goes through a Lucene filter on the access
   * labels indexed with each record, chunk and vector window, so other documents are never scored,
   * returned or counted. {@link Access#ALL} gives this index itself.
   * Documents written before access labels were indexed carry none of them and are readable only
   * with {@link Access#ALL} (re-ingest them into a new index to serve principals with labels).
   */
  @Override
  public SearchableIndex readableBy(Access access) {
    java.util.Objects.requireNonNull(access, "access");
    return access.everything() ? this : new ReadableView(reads, access);
  }

  /**
   * How many stored documents were written before access labels were indexed (they carry no access
   * terms, so only {@link Access#ALL} reads them): 0 for an index written by this version.
   */
  @Override
  public int documentsWithoutAccessTerms() throws IOException {
    return searchers.withSearcher(s -> {
      Query records = new TermQuery(new Term(Fields.TYPE, Fields.TYPE_DOC));
      Query labelled = new org.apache.lucene.search.BooleanQuery.Builder()
          .add(records, org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .add(new org.apache.lucene.search.TermRangeQuery(Fields.ACL, null, null, true, true),
              org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .build();
      return s.count(records) - s.count(labelled);
    }, 0);
  }

  // ---- the corpus catalog -------------------------------------------------------------------

  @Override
  public List<CorpusDoc> corpusDocuments() throws IOException {
    return searchers.withSearcher(CorpusQueries::documents, List.of());
  }

  @Override
  public List<DuplicateRecord> duplicates() throws IOException {
    return searchers.withSearcher(CorpusQueries::duplicates, List.of());
  }

  @Override
  public List<Recurring> recurringChunks(int minDocuments) throws IOException {
    return searchers.withSearcher(s -> CorpusQueries.recurring(s, minDocuments), List.of());
  }

  @Override
  public void close() throws IOException {
    writes.close();
    searchers.close();
    directory.close();
  }
}
