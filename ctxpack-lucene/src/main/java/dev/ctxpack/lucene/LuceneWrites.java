package dev.ctxpack.lucene;

import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.IndexLockedException;
import dev.ctxpack.index.WritableIndex.Batch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * The writer part of {@link LuceneIndex}: one {@link IndexWriter}, opened on the first batch and
 * kept (it holds Lucene's write lock) until a failure rolls it back or the index closes, and the
 * batches over it, one at a time under a lock. Each batch replaces a document's whole block with
 * {@code updateDocuments} on its id and ends with one {@link IndexWriter#commit()}, carrying the
 * embedder id and dimension in the commit data; a failure rolls everything uncommitted back.
 * Another process holding the write lock is an {@link IndexLockedException}.
 */
final class LuceneWrites {
  /** {@link Batch#compact()} merges when the batch's segments hold at least this share of the index's bytes. */
  static final int COMPACT_SHARE_PERCENT = 25;
  private final String location;
  private final Directory directory;
  private final Analyzer analyzer;
  private final Searchers searchers;
  private final ReentrantLock writeLock = new ReentrantLock();
  private IndexWriter writer;

  LuceneWrites(String location, Directory directory, Analyzer analyzer, Searchers searchers) {
    this.location = location;
    this.directory = directory;
    this.analyzer = analyzer;
    this.searchers = searchers;
  }

  /** Starts a batch, waiting for any other batch of this index to end. */
  Batch begin() throws IOException {
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

    /** The segments of the last commit when the batch began: the others are this batch's. */
    private final java.util.Set<String> before;

    LuceneBatch(IndexWriter w) throws IOException {
      this.w = w;
      this.commitData = commitData(w);
      this.before = segmentNames();
    }

    private java.util.Set<String> segmentNames() throws IOException {
      java.util.Set<String> names = new java.util.HashSet<>();
      if (!DirectoryReader.indexExists(directory)) return names;
      for (SegmentCommitInfo si : SegmentInfos.readLatestCommit(directory)) names.add(si.info.name);
      return names;
    }

    /**
     * Merges the index into one segment when the segments this batch committed (new since it began,
     * merges of them included) hold at least {@value #COMPACT_SHARE_PERCENT} % of its bytes, so a
     * bulk load rewrites at most a few times what it wrote. One segment is one vector graph and one
     * term dictionary per search instead of one per commit of the load; the merge runs on this
     * thread and is deterministic, so the same load makes the same segment.
     */
    @Override
    public boolean compact() throws IOException {
      check();
      if (dirty) throw new IllegalStateException("commit the batch before compacting it");
      try {
        if (!DirectoryReader.indexExists(directory)) return false;
        SegmentInfos infos = SegmentInfos.readLatestCommit(directory);
        if (infos.size() <= 1) return false;
        long total = 0;
        long fresh = 0;
        for (SegmentCommitInfo si : infos) {
          long bytes = si.sizeInBytes();
          total += bytes;
          if (!before.contains(si.info.name)) fresh += bytes;
        }
        if (fresh * 100 < total * COMPACT_SHARE_PERCENT) return false;
        w.forceMerge(1);
        w.setLiveCommitData(commitData.entrySet());
        w.commit();
      } catch (IOException | RuntimeException ex) {
        failed();
        throw ex;
      }
      searchers.refresh();
      return true;
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

    /**
     * Writes the entries in their order from the calling thread, so the same input makes the same
     * segments (documents written from several threads land in per-thread segments at random, and the
     * vector graphs, and so the tail of an approximate dense search, with them); fails on the calling
     * thread.
     */
    @Override
    public void putAll(List<IndexEntry> entries) throws IOException {
      check();
      for (IndexEntry e : entries) put(e);
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
      searchers.refresh();
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
      // Merges run on the writing thread, at the commit or flush that calls for them: the same writes
      // then make the same segments (and vector graphs), however fast the machine is.
      cfg.setMergeScheduler(new org.apache.lucene.index.SerialMergeScheduler());
      try {
        writer = new IndexWriter(directory, cfg);
      } catch (LockObtainFailedException e) {
        throw new IndexLockedException(location, e);
      }
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

  /** Rolls back what is not committed and releases the write lock (taken as soon as no batch runs). */
  void close() throws IOException {
    writeLock.lock();
    try {
      if (writer != null && writer.isOpen()) writer.rollback();
      writer = null;
    } finally {
      writeLock.unlock();
    }
  }
}
