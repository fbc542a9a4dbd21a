package dev.ctxpack.index;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The write role of an {@link Index}: what ingestion needs to compare, write and remove documents.
 * Writes are atomic per batch: after {@link Batch#commit()} returns, everything put or deleted in it
 * is durable and visible to new searches; if the process dies before, none of it is (nothing
 * half-written).
 *
 * <pre>{@code
 * try (WritableIndex.Batch b = index.begin()) {
 *   b.delete("old-id");
 *   b.put(entry);
 *   b.commit();
 * }
 * }</pre>
 */
public interface WritableIndex {

  /** A stored document without its text, with what re-ingestion needs to compare. */
  record StoredDoc(String id, String uri, String title, String sourcePath, String contentHash, int chunks) {}

  /** A stored document with its MinHash signature, for near-duplicate checks at ingestion. */
  record SignedDoc(String id, String sourcePath, int[] signature) {}

  Optional<StoredDoc> find(String docId) throws IOException;

  /**
   * The stored documents of {@code docIds} that exist, by id: {@link #find} for many at once. The
   * default asks for each in turn; a remote backend answers in one request.
   */
  default Map<String, StoredDoc> findAll(Collection<String> docIds) throws IOException {
    Map<String, StoredDoc> out = new java.util.LinkedHashMap<>();
    for (String id : docIds) {
      if (!out.containsKey(id)) find(id).ifPresent(d -> out.put(id, d));
    }
    return out;
  }

  /**
   * Stored documents whose {@code sourcePath} starts with {@code prefix}, by id. A string prefix:
   * {@code /src/a} also finds {@code /src/ab.txt}, so a caller that means one file or one directory
   * checks the paths it gets (as the {@code Ingestor} does).
   */
  List<StoredDoc> findBySourcePath(String prefix) throws IOException;

  /**
   * Starts a write. Entries put into the batch replace any previous version of the same document
   * id (its chunks and vectors with it); nothing is visible or durable until {@link Batch#commit()},
   * and closing an uncommitted batch discards it. One batch at a time: others wait. Fails with
   * {@link IndexLockedException} when another process holds the index's write lock.
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

  /** Removes documents by id in one commit; returns how many existed. */
  int remove(Collection<String> docIds) throws IOException;

  /** Stored documents with a signature sharing at least one of {@code bandKeys}, by id. */
  List<SignedDoc> documentsSharingBands(Collection<String> bandKeys) throws IOException;

  /**
   * An atomic write: everything put or deleted becomes durable together at {@link #commit()}. A
   * put that fails (e.g. vectors of another embedder than the index holds) discards the whole
   * batch: the index stays as it was.
   */
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
     * record goes when document {@code of} is replaced or removed.
     */
    void recordDuplicate(DuplicateRecord copy) throws IOException;

    /** Makes the batch durable and visible to new searches. The batch can be reused afterwards. */
    void commit() throws IOException;

    /**
     * Ends a bulk write, after {@link #commit()}: merges what the index holds into the fewest parts
     * its searches are fastest over, when what this batch committed is a large enough share of the
     * index to pay for rewriting the rest; a small write into a large index merges nothing. What the
     * index holds and what searches return do not change (beyond the ties and approximate neighbours
     * of a new layout); only the cost of each search does. Returns whether it merged. Ingestion of
     * files calls it once at the end of a run that wrote something.
     */
    boolean compact() throws IOException;

    /** Discards anything not committed and releases the write lock. */
    @Override
    void close() throws IOException;
  }
}
