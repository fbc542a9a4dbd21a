package dev.ctxpack.lucene;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;

/**
 * The chunk documents read lately, decoded, by segment and document number. One {@code pack} reads
 * the same chunk documents up to four times (as BM25 hits, as the chunks of the vector hits, for
 * their corpus marks, for their sentence vectors), and each read makes Lucene decompress the part of
 * a stored-fields block that holds the document. A segment's documents never change, so an entry is
 * right for as long as its segment exists (a new or merged segment has a new core key; a deleted
 * document is never a hit, so never asked for). Bounded at {@link #MAX_DOCS} documents, the least
 * recently used leaving first. Thread-safe. The documents handed out are shared: callers only read
 * them.
 */
final class DecodedChunks {
  /**
   * How many decoded documents are kept: about two requests' chunks (a SciFact {@code pack} touches 40
   * to 60); a bound of 1,024 was no faster in two JMH pairs.
   */
  static final int MAX_DOCS = 128;

  private record Key(Object core, int doc) {}

  private final Map<Key, Document> docs = new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Document> eldest) {
      return size() > MAX_DOCS;
    }
  };

  /** Reads so far, and reads answered here (for tests and measurements). */
  private long reads;
  private long found;

  /**
   * The chunk documents of {@code s} for one read: each from memory, else decoded through its
   * segment's stored fields, opened once for the read (a segment's stored-fields reader is a clone
   * with its own decompression buffer, so one per document would allocate that buffer each time).
   */
  Reader reader(IndexSearcher s) {
    return new Reader(s);
  }

  /** One read's access to the chunk documents ({@link #reader}); not thread-safe, like the read. */
  final class Reader {
    private final List<LeafReaderContext> leaves;
    private final StoredFields[] opened;

    private Reader(IndexSearcher s) {
      this.leaves = s.getIndexReader().leaves();
      this.opened = new StoredFields[leaves.size()];
    }

    /** Every stored field of document {@code doc} (a top-level document number). */
    Document document(int doc) throws IOException {
      int li = ReaderUtil.subIndex(doc, leaves);
      LeafReaderContext leaf = leaves.get(li);
      int local = doc - leaf.docBase;
      IndexReader.CacheHelper helper = leaf.reader().getCoreCacheHelper();
      Key key = helper == null ? null : new Key(helper.getKey(), local);
      if (key != null) {
        synchronized (DecodedChunks.this) {
          reads++;
          Document d = docs.get(key);
          if (d != null) {
            found++;
            return d;
          }
        }
      }
      if (opened[li] == null) opened[li] = leaf.reader().storedFields();
      Document d = opened[li].document(local);
      if (key != null) {
        synchronized (DecodedChunks.this) {
          docs.put(key, d);
        }
      }
      return d;
    }
  }

  /** {reads, of which answered from memory}. */
  synchronized long[] counts() {
    return new long[] {reads, found};
  }
}
