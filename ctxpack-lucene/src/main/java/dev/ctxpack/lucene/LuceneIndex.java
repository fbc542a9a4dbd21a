package dev.ctxpack.lucene;

import dev.ctxpack.index.Access;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
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
 * <p>Thread-safe. Searches see the last committed state.
 */
public final class LuceneIndex implements Index {
  private final Path path;
  private final Directory directory;
  private final Analyzer analyzer;
  private final SparseQueryBuilder sparse;
  private final ReadableStatistics readableStatistics = new ReadableStatistics();
  private final java.util.concurrent.locks.ReentrantLock writeLock = new java.util.concurrent.locks.ReentrantLock();
  private IndexWriter writer;
  private SearcherManager searchers;

  private LuceneIndex(Path path, Directory directory) {
    this.path = path;
    this.directory = directory;
    var perField = Analyzers.perLanguage();
    this.analyzer = Analyzers.wrapper(perField);
    this.sparse = new SparseQueryBuilder(perField);
  }

  /** Opens the index at {@code path}, creating the directory on first write. */
  public static LuceneIndex open(Path path) throws IOException {
    Files.createDirectories(path);
    return new LuceneIndex(path, FSDirectory.open(path));
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
    writeLock.lock();
    try {
      return new LuceneBatch(writer());
    } catch (IOException | RuntimeException e) {
      writeLock.unlock();
      throw e;
    }
  }

  /** Holds the write lock from {@link #begin()} to {@link #close()}. */
  private final class LuceneBatch implements Batch {
    private final IndexWriter w;
    private final Map<String, String> commitData;
    private boolean dirty;
    private boolean closed;

    LuceneBatch(IndexWriter w) {
      this.w = w;
      this.commitData = commitData(w);
    }

    @Override
    public void put(IndexEntry e) throws IOException {
      check();
      try {
        if (e.hasVectors()) checkEmbedder(commitData, e);
        dirty = true;
        w.updateDocuments(new Term(Fields.DOC_KEY, e.doc().id()), LuceneDocs.block(e));
      } catch (IOException | RuntimeException ex) {
        failed();
        throw ex;
      }
    }

    /** Writes the entries from up to two threads (IndexWriter is thread-safe); fails on the calling thread. */
    @Override
    public void putAll(List<IndexEntry> entries) throws IOException {
      check();
      if (entries.size() < 64) {
        for (IndexEntry e : entries) put(e);
        return;
      }
      try {
        for (IndexEntry e : entries) if (e.hasVectors()) checkEmbedder(commitData, e);
        dirty = true;
        entries.parallelStream().forEach(e -> {
          try {
            w.updateDocuments(new Term(Fields.DOC_KEY, e.doc().id()), LuceneDocs.block(e));
          } catch (IOException ex) {
            throw new UncheckedIOException(ex);
          }
        });
      } catch (UncheckedIOException ex) {
        failed();
        throw ex.getCause();
      } catch (RuntimeException ex) {
        failed();
        throw ex;
      }
    }

    @Override
    public void delete(String docId) throws IOException {
      check();
      try {
        dirty = true;
        w.deleteDocuments(new Term(Fields.DOC_KEY, docId));
      } catch (IOException | RuntimeException ex) {
        failed();
        throw ex;
      }
    }

    @Override
    public void recordDuplicate(DuplicateRecord copy) throws IOException {
      check();
      try {
        dirty = true;
        var d = new org.apache.lucene.document.Document();
        String key = copy.path() + "\u0000" + copy.of();
        d.add(new org.apache.lucene.document.StringField(Fields.TYPE, Fields.TYPE_DUP, org.apache.lucene.document.Field.Store.NO));
        d.add(new org.apache.lucene.document.StringField(Fields.DOC_KEY, copy.of(), org.apache.lucene.document.Field.Store.YES));
        d.add(new org.apache.lucene.document.StringField(Fields.DUP_KEY, key, org.apache.lucene.document.Field.Store.NO));
        d.add(new org.apache.lucene.document.StoredField(Fields.DUP_PATH, copy.path()));
        d.add(new org.apache.lucene.document.StoredField(Fields.DUP_ID, copy.docId()));
        w.updateDocument(new Term(Fields.DUP_KEY, key), d);
      } catch (IOException | RuntimeException ex) {
        failed();
        throw ex;
      }
    }

    @Override
    public void commit() throws IOException {
      check();
      try {
        w.setLiveCommitData(commitData.entrySet());
        w.commit();
        dirty = false;
      } catch (IOException | RuntimeException ex) {
        failed();
        throw ex;
      }
      refresh();
    }

    private void failed() {
      rollback();
      dirty = false;
      closed = true;
      writeLock.unlock();
    }

    private void check() {
      if (closed) throw new IllegalStateException("this batch was closed or rolled back after a failure");
    }

    @Override
    public void close() {
      if (closed) return;
      closed = true;
      try {
        if (dirty) rollback();
      } finally {
        writeLock.unlock();
      }
    }
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

  private static void checkEmbedder(Map<String, String> commitData, IndexEntry e) {
    String id = e.embedderId();
    String dim = Integer.toString(e.dimension());
    String have = commitData.get(Fields.COMMIT_EMBEDDER);
    if (have == null) {
      commitData.put(Fields.COMMIT_EMBEDDER, id);
      commitData.put(Fields.COMMIT_DIMENSION, dim);
    } else if (!have.equals(id) || !dim.equals(commitData.get(Fields.COMMIT_DIMENSION))) {
      throw new IllegalArgumentException("the index holds vectors of " + have + " (" + commitData.get(Fields.COMMIT_DIMENSION)
          + " dims); document " + e.doc().id() + " has vectors of " + id + " (" + dim
          + " dims): use the same embedder, or a new index");
    }
  }

  private Map<String, String> commitData(IndexWriter w) {
    Map<String, String> m = new HashMap<>();
    Iterable<Map.Entry<String, String>> live = w.getLiveCommitData();
    if (live != null) live.forEach(en -> m.put(en.getKey(), en.getValue()));
    m.put(Fields.COMMIT_SCHEMA, Fields.SCHEMA_VERSION);
    return m;
  }

  private IndexWriter writer() throws IOException {
    if (writer == null || !writer.isOpen()) {
      IndexWriterConfig cfg = new IndexWriterConfig(analyzer);
      cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
      cfg.setCommitOnClose(false);
      cfg.setRAMBufferSizeMB(64);
      writer = new IndexWriter(directory, cfg);
    }
    return writer;
  }

  private void rollback() {
    try {
      if (writer != null && writer.isOpen()) writer.rollback();
    } catch (IOException suppressed) {
      // The writer is closed either way; the directory still holds the last commit.
    }
    writer = null;
  }

  // ---- reads --------------------------------------------------------------------------------

  private synchronized SearcherManager searchers() throws IOException {
    if (searchers == null) {
      if (!DirectoryReader.indexExists(directory)) return null;
      searchers = new SearcherManager(directory, null);
    }
    return searchers;
  }

  private void refresh() throws IOException {
    SearcherManager sm = searchers();
    if (sm != null) sm.maybeRefreshBlocking();
  }

  private interface SearchFn<T> {
    T apply(IndexSearcher s) throws IOException;
  }

  /** How often a search checks for commits made by another writer (e.g. {@code ctxpack ingest} beside {@code serve}). */
  private static final long REFRESH_NANOS = 1_000_000_000L;
  private volatile long checkedAt = System.nanoTime();

  private <T> T withSearcher(SearchFn<T> fn, T empty) throws IOException {
    SearcherManager sm = searchers();
    if (sm == null) return empty;
    long now = System.nanoTime();
    if (now - checkedAt > REFRESH_NANOS) {
      checkedAt = now;
      // Non-blocking: if another thread is refreshing, this search uses the current reader.
      sm.maybeRefresh();
    }
    IndexSearcher s = sm.acquire();
    try {
      return fn.apply(s);
    } finally {
      sm.release(s);
    }
  }

  @Override
  public Optional<StoredDoc> find(String docId) throws IOException {
    return find(docId, null);
  }

  private Optional<StoredDoc> find(String docId, Query filter) throws IOException {
    return withSearcher(s -> {
      var d = recordDoc(s, docId, filter);
      return d.map(StoredDocs::toStoredDoc);
    }, Optional.empty());
  }

  @Override
  public List<StoredDoc> findBySourcePath(String prefix) throws IOException {
    return findBySourcePath(prefix, null);
  }

  private List<StoredDoc> findBySourcePath(String prefix, Query filter) throws IOException {
    return withSearcher(s -> {
      TopDocs td = s.search(Acl.restrict(new PrefixQuery(new Term(Fields.SOURCE_PATH, prefix)), filter), Integer.MAX_VALUE / 2);
      StoredFields sf = s.storedFields();
      List<StoredDoc> out = new ArrayList<>();
      for (ScoreDoc sd : td.scoreDocs) {
        var d = sf.document(sd.doc);
        if (Fields.TYPE_DOC.equals(d.get(Fields.TYPE))) out.add(StoredDocs.toStoredDoc(d));
      }
      out.sort(java.util.Comparator.comparing(StoredDoc::id));
      return out;
    }, List.of());
  }

  @Override
  public Optional<Document> document(String docId) throws IOException {
    return document(docId, null);
  }

  private Optional<Document> document(String docId, Query filter) throws IOException {
    return withSearcher(s -> recordDoc(s, docId, filter).map(d -> new Document(
        d.get(Fields.DOC_KEY), d.get(Fields.URI), d.get(Fields.TITLE), Language.fromCode(d.get(Fields.LANGUAGE)),
        StoredDocs.metadata(d), d.get(Fields.TEXT))), Optional.empty());
  }

  private static Optional<org.apache.lucene.document.Document> recordDoc(IndexSearcher s, String docId, Query filter)
      throws IOException {
    TopDocs td = s.search(Acl.restrict(Acl.record(docId), filter), 1);
    if (td.scoreDocs.length == 0) return Optional.empty();
    return Optional.of(s.storedFields().document(td.scoreDocs[0].doc));
  }

  @Override
  public List<Candidate> searchSparse(String query, int k) throws IOException {
    return searchSparse(query, k, null);
  }

  /**
   * BM25 over the chunks {@code filter} lets through (all when null): the filter is a clause of the
   * query, so other chunks are never scored, and the term and length statistics count only the
   * chunks it lets through ({@link ReadableStatistics}), so scores say nothing of the others.
   */
  private List<Candidate> searchSparse(String query, int k, Query filter) throws IOException {
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, was " + k);
    Query q = sparse.build(query);
    if (q == null) return List.of();
    return withSearcher(s -> {
      IndexSearcher scoring = filter == null ? s : readableStatistics.of(s, filter);
      return toCandidates(scoring, scoring.search(Acl.restrict(q, filter), k), Signal.BM25);
    }, List.of());
  }

  /**
   * Nearest vector windows, collapsed to their chunks: a chunk scores its best window's cosine.
   * Fetches {@code 3k + 20} windows so that {@code k} distinct chunks are usually found.
   */
  @Override
  public List<Candidate> searchDense(float[] vector, int k) throws IOException {
    return searchDense(vector, k, null);
  }

  /** The nearest windows among those {@code filter} lets through: Lucene's filtered HNSW search, so other windows are never candidates. */
  private List<Candidate> searchDense(float[] vector, int k, Query filter) throws IOException {
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, was " + k);
    return withSearcher(s -> {
      // Cheap check (no query): an index that never held vectors has no such field.
      if (s.getIndexReader().leaves().stream()
          .noneMatch(l -> l.reader().getFieldInfos().fieldInfo(Fields.VECTOR) != null)) {
        return List.of();
      }
      int windows = Math.min(10_000, 3 * k + 20);
      TopDocs td = s.search(new KnnFloatVectorQuery(Fields.VECTOR, vector, windows, filter), windows);
      StoredFields sf = s.storedFields();
      java.util.LinkedHashMap<String, Double> best = new java.util.LinkedHashMap<>();
      for (ScoreDoc sd : td.scoreDocs) {
        String chunkId = sf.document(sd.doc, java.util.Set.of(Fields.CHUNK_ID)).get(Fields.CHUNK_ID);
        // Lucene maps a dot product x to (1 + x) / 2; report the cosine itself.
        best.merge(chunkId, 2.0 * sd.score - 1.0, Math::max);
      }
      // Fetch the chunks of the best windows in one query.
      List<org.apache.lucene.util.BytesRef> ids = new ArrayList<>(best.size());
      for (String id : best.keySet()) ids.add(new org.apache.lucene.util.BytesRef(id));
      var q = new org.apache.lucene.search.BooleanQuery.Builder()
          .add(new org.apache.lucene.search.TermInSetQuery(Fields.CHUNK_ID, ids), org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .add(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_CHUNK)), org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .build();
      TopDocs hits = s.search(Acl.restrict(q, filter), Math.max(1, best.size()));
      List<Candidate> out = new ArrayList<>(hits.scoreDocs.length);
      for (ScoreDoc sd : hits.scoreDocs) {
        var d = sf.document(sd.doc);
        Double score = best.get(d.get(Fields.CHUNK_ID));
        if (score != null) out.add(new Candidate(StoredDocs.chunk(d), StoredDocs.docInfo(d), Scores.of(Signal.DENSE, score)));
      }
      out.sort(java.util.Comparator.comparingDouble((Candidate c) -> -c.scores().getOr(Signal.DENSE, 0))
          .thenComparing(c -> c.chunk().id()));
      return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
    }, List.of());
  }

  @Override
  public java.util.Map<String, float[]> chunkVectors(java.util.Collection<String> chunkIds) throws IOException {
    return chunkVectors(chunkIds, null);
  }

  private java.util.Map<String, float[]> chunkVectors(java.util.Collection<String> chunkIds, Query filter) throws IOException {
    if (chunkIds.isEmpty()) return java.util.Map.of();
    return withSearcher(s -> {
      List<org.apache.lucene.util.BytesRef> ids = new ArrayList<>(chunkIds.size());
      for (String id : new java.util.TreeSet<>(chunkIds)) ids.add(new org.apache.lucene.util.BytesRef(id));
      var q = new org.apache.lucene.search.BooleanQuery.Builder()
          .add(new org.apache.lucene.search.TermInSetQuery(Fields.CHUNK_ID, ids), org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .add(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_VECTOR)), org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .build();
      java.util.Map<String, float[]> sums = new java.util.TreeMap<>();
      StoredFields sf = s.storedFields();
      var weight = s.createWeight(s.rewrite(Acl.restrict(q, filter)), org.apache.lucene.search.ScoreMode.COMPLETE_NO_SCORES, 1f);
      for (var leaf : s.getIndexReader().leaves()) {
        var values = leaf.reader().getFloatVectorValues(Fields.VECTOR);
        if (values == null) continue;
        var scorer = weight.scorer(leaf);
        if (scorer == null) continue;
        // A scorer does not skip deleted documents: a replaced document's old windows are still here.
        var live = leaf.reader().getLiveDocs();
        var it = scorer.iterator();
        for (int doc = it.nextDoc(); doc != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
          if (live != null && !live.get(doc)) continue;
          if (values.docID() < doc) values.advance(doc);
          if (values.docID() != doc) continue;
          float[] v = values.vectorValue();
          String chunkId = sf.document(leaf.docBase + doc, java.util.Set.of(Fields.CHUNK_ID)).get(Fields.CHUNK_ID);
          float[] sum = sums.computeIfAbsent(chunkId, k -> new float[v.length]);
          for (int i = 0; i < v.length; i++) sum[i] += v[i];
        }
      }
      java.util.Map<String, float[]> out = new java.util.HashMap<>();
      for (var e : sums.entrySet()) out.put(e.getKey(), dev.ctxpack.embed.Embedder.normalize(e.getValue()));
      return out;
    }, java.util.Map.of());
  }

  /**
   * Reads the stored sentence vectors of the requested chunks: one query for all ids (their chunk
   * documents), then per hit only the ids and the one binary field, which sits right after them, so
   * the chunk's text is never decoded. An index written before sentence vectors existed has no such
   * field anywhere and returns at once.
   */
  @Override
  public Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException {
    return sentenceVectors(chunkIds, null);
  }

  private Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds, Query filter) throws IOException {
    if (chunkIds.isEmpty()) return Map.of();
    return withSearcher(s -> {
      if (s.getIndexReader().leaves().stream()
          .noneMatch(l -> l.reader().getFieldInfos().fieldInfo(Fields.SENTENCE_VECTORS) != null)) {
        return Map.of();
      }
      java.util.SortedSet<String> unique = new java.util.TreeSet<>(chunkIds);
      List<org.apache.lucene.util.BytesRef> ids = new ArrayList<>(unique.size());
      for (String id : unique) ids.add(new org.apache.lucene.util.BytesRef(id));
      var q = new org.apache.lucene.search.BooleanQuery.Builder()
          .add(new org.apache.lucene.search.TermInSetQuery(Fields.CHUNK_ID, ids), org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .add(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_CHUNK)), org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .build();
      TopDocs td = s.search(Acl.restrict(q, filter), ids.size());
      StoredFields sf = s.storedFields();
      Map<String, List<SentenceVector>> out = new HashMap<>();
      for (ScoreDoc sd : td.scoreDocs) {
        var visitor = new SentenceVectorVisitor();
        sf.document(sd.doc, visitor);
        if (visitor.vectors != null && visitor.chunkId != null) {
          out.put(visitor.chunkId, SentenceVectorCodec.decode(visitor.docKey, new org.apache.lucene.util.BytesRef(visitor.vectors)));
        }
      }
      return out;
    }, Map.of());
  }

  /**
   * Reads a chunk document's ids and sentence vectors, and stops at the first other stored field
   * after the ids ({@link LuceneDocs} writes the vectors right after them).
   */
  private static final class SentenceVectorVisitor extends org.apache.lucene.index.StoredFieldVisitor {
    String docKey;
    String chunkId;
    byte[] vectors;

    @Override
    public Status needsField(org.apache.lucene.index.FieldInfo fi) {
      if (fi.name.equals(Fields.SENTENCE_VECTORS)) return vectors == null ? Status.YES : Status.STOP;
      if (fi.name.equals(Fields.DOC_KEY) && docKey == null) return Status.YES;
      if (fi.name.equals(Fields.CHUNK_ID) && chunkId == null) return Status.YES;
      return docKey != null && chunkId != null ? Status.STOP : Status.NO;
    }

    @Override
    public void stringField(org.apache.lucene.index.FieldInfo fi, String value) {
      if (fi.name.equals(Fields.DOC_KEY)) docKey = value;
      else if (fi.name.equals(Fields.CHUNK_ID)) chunkId = value;
    }

    @Override
    public void binaryField(org.apache.lucene.index.FieldInfo fi, byte[] value) {
      if (fi.name.equals(Fields.SENTENCE_VECTORS)) vectors = value;
    }
  }

  private static List<Candidate> toCandidates(IndexSearcher s, TopDocs td, Signal signal)
      throws IOException {
    StoredFields sf = s.storedFields();
    List<Candidate> out = new ArrayList<>(td.scoreDocs.length);
    for (ScoreDoc sd : td.scoreDocs) {
      var d = sf.document(sd.doc);
      out.add(new Candidate(StoredDocs.chunk(d), StoredDocs.docInfo(d), Scores.of(signal, sd.score)));
    }
    out.sort(java.util.Comparator.comparingDouble((Candidate c) -> -c.scores().getOr(signal, 0))
        .thenComparing(c -> c.chunk().id()));
    return out;
  }

  @Override
  public List<SignedDoc> documentsSharingBands(Collection<String> bandKeys) throws IOException {
    return withSearcher(s -> CorpusQueries.sharingBands(s, bandKeys, null), List.of());
  }

  @Override
  public Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException {
    return withSearcher(s -> CorpusQueries.chunkMarks(s, chunkIds, null), Map.of());
  }

  @Override
  public List<CorpusDoc> corpusDocuments() throws IOException {
    return withSearcher(s -> CorpusQueries.documents(s, null), List.of());
  }

  @Override
  public List<DuplicateRecord> duplicates() throws IOException {
    return withSearcher(s -> CorpusQueries.duplicates(s, null), List.of());
  }

  @Override
  public List<Recurring> recurringChunks(int minDocuments) throws IOException {
    return withSearcher(s -> CorpusQueries.recurring(s, minDocuments, null), List.of());
  }

  @Override
  public Stats stats() throws IOException {
    return withSearcher(s -> statsOf(s, null), new Stats(0, 0, 0, Optional.empty(), 0));
  }

  private static Stats statsOf(IndexSearcher s, Query filter) throws IOException {
    int docs = s.count(Acl.restrict(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_DOC)), filter));
    int chunks = s.count(Acl.restrict(new TermQuery(new Term(Fields.TYPE, Fields.TYPE_CHUNK)), filter));
    int vectors = s.count(Acl.restrict(new TermQuery(new Term(Fields.HAS_VECTOR, "1")), filter));
    Map<String, String> ud = ((DirectoryReader) s.getIndexReader()).getIndexCommit().getUserData();
    Optional<String> emb = Optional.ofNullable(ud.get(Fields.COMMIT_EMBEDDER));
    int dim = ud.containsKey(Fields.COMMIT_DIMENSION) ? Integer.parseInt(ud.get(Fields.COMMIT_DIMENSION)) : 0;
    return new Stats(docs, chunks, vectors, emb, dim);
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
    return access.everything() ? this : new Readable(access);
  }

  /**
   * How many stored documents were written before access labels were indexed (they carry no access
   * terms, so only {@link Access#ALL} reads them): 0 for an index written by this version.
   */
  public int documentsWithoutAccessTerms() throws IOException {
    return withSearcher(s -> {
      Query records = new TermQuery(new Term(Fields.TYPE, Fields.TYPE_DOC));
      Query labelled = new org.apache.lucene.search.BooleanQuery.Builder()
          .add(records, org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .add(new org.apache.lucene.search.TermRangeQuery(Fields.ACL, null, null, true, true),
              org.apache.lucene.search.BooleanClause.Occur.FILTER)
          .build();
      return s.count(records) - s.count(labelled);
    }, 0);
  }

  /** A view of the index filtered by {@link Acl#filter}. */
  private final class Readable implements SearchableIndex {
    private final Access access;
    private final Query filter;

    Readable(Access access) {
      this.access = access;
      this.filter = Acl.filter(access);
    }

    @Override
    public Optional<Document> document(String docId) throws IOException {
      return LuceneIndex.this.document(docId, filter);
    }

    @Override
    public List<Candidate> searchSparse(String query, int k) throws IOException {
      return LuceneIndex.this.searchSparse(query, k, filter);
    }

    @Override
    public List<Candidate> searchDense(float[] query, int k) throws IOException {
      return LuceneIndex.this.searchDense(query, k, filter);
    }

    @Override
    public Map<String, float[]> chunkVectors(Collection<String> chunkIds) throws IOException {
      return LuceneIndex.this.chunkVectors(chunkIds, filter);
    }

    @Override
    public Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException {
      return LuceneIndex.this.sentenceVectors(chunkIds, filter);
    }

    @Override
    public Stats stats() throws IOException {
      return withSearcher(s -> statsOf(s, filter), new Stats(0, 0, 0, Optional.empty(), 0));
    }

    @Override
    public Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException {
      return withSearcher(s -> CorpusQueries.chunkMarks(s, chunkIds, filter), Map.of());
    }

    @Override
    public SearchableIndex readableBy(Access narrower) {
      throw new UnsupportedOperationException("a view is not narrowed again: take the view of the index itself");
    }
  }

  @Override
  public void close() throws IOException {
    writeLock.lock();
    try {
      if (writer != null && writer.isOpen()) writer.rollback();
      writer = null;
    } finally {
      writeLock.unlock();
    }
    synchronized (this) {
      if (searchers != null) searchers.close();
      searchers = null;
    }
    directory.close();
  }

}
