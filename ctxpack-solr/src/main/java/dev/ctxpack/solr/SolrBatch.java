package dev.ctxpack.solr;

import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.WritableIndex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.solr.client.solrj.request.AbstractUpdateRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrInputDocument;

/**
 * One write to a Solr collection: puts, deletes and duplicate records are kept in order and sent at
 * {@link #commit()} (see {@link SolrIndex} for what that guarantees).
 */
final class SolrBatch implements WritableIndex.Batch {
  /** Solr documents per update request. */
  static final int DOCS_PER_REQUEST = 500;
  /** Update requests of one commit in flight at once. */
  static final int PARALLEL_REQUESTS = 4;

  private sealed interface Op permits Put, Delete, Dup {}

  private record Put(IndexEntry entry) implements Op {}

  private record Delete(String docId) implements Op {}

  private record Dup(DuplicateRecord copy) implements Op {}

  private final SolrIndex index;
  private final ReentrantLock lock;
  private final List<Op> ops = new ArrayList<>();
  private SolrIndex.Meta pending;
  private String failure;
  private boolean closed;

  SolrBatch(SolrIndex index, ReentrantLock lock) throws IOException {
    this.index = index;
    this.lock = lock;
    try {
      this.pending = index.meta();
    } catch (IOException | RuntimeException e) {
      lock.unlock();
      throw e;
    }
  }

  private void open() {
    if (closed) throw new IllegalStateException("the batch is closed");
  }

  @Override
  public void put(IndexEntry e) throws IOException {
    open();
    if (e.hasVectors()) {
      String id = e.embedderId();
      int dim = e.dimension();
      if (pending.embedder() == null) {
        pending = new SolrIndex.Meta(id, dim);
      } else if (!pending.embedder().equals(id) || pending.dimension() != dim) {
        String why = "the index holds vectors of " + pending.embedder() + " (" + pending.dimension() + " dims); document "
            + e.doc().id() + " has vectors of " + id + " (" + dim + " dims): use the same embedder, or a new index";
        discard(why);
        throw new IllegalArgumentException(why);
      }
    }
    ops.add(new Put(e));
  }

  @Override
  public void delete(String docId) {
    open();
    ops.add(new Delete(docId));
  }

  @Override
  public void recordDuplicate(DuplicateRecord copy) {
    open();
    ops.add(new Dup(copy));
  }

  private void discard(String why) throws IOException {
    ops.clear();
    failure = why;
    pending = index.meta();
  }

  @Override
  public void commit() throws IOException {
    open();
    if (failure != null) {
      String why = failure;
      failure = null;
      throw new IllegalStateException("the batch was discarded, nothing of it was written: " + why);
    }
    if (ops.isEmpty()) return;
    SolrIndex.Meta have = index.meta();
    boolean recordEmbedder = have.embedder() == null && pending.embedder() != null;
    if (recordEmbedder) {
      int field = SolrAdmin.vectorDimension(index.client(), index.collection());
      if (field == 0) {
        SolrAdmin.addVectorField(index.client(), index.collection(), pending.dimension());
      } else if (field != pending.dimension()) {
        throw new IllegalArgumentException("collection " + index.collection() + " holds vectors of " + field
            + " dimensions; this batch has vectors of " + pending.dimension() + " (" + pending.embedder() + ")");
      }
    }
    // The net effect of the ops, in order: each document touched is deleted whole (record,
    // chunks, windows, duplicate records) and, if its last op is a put, written again; a duplicate
    // record survives if it was recorded after the last put or delete of its original. Deletes go
    // first and alone: SolrJ sends a request's delete-by-query after its routed adds.
    Map<String, IndexEntry> touched = new LinkedHashMap<>();
    Map<String, DuplicateRecord> dups = new LinkedHashMap<>();
    for (Op op : ops) {
      if (op instanceof Put p) {
        touch(touched, dups, p.entry().doc().id(), p.entry());
      } else if (op instanceof Delete d) {
        touch(touched, dups, d.docId(), null);
      } else if (op instanceof Dup d) {
        dups.put(d.copy().path() + "\u0000" + d.copy().of(), d.copy());
      }
    }
    List<String> keys = new ArrayList<>(touched.keySet());
    for (int from = 0; from < keys.size(); from += DOCS_PER_REQUEST) {
      UpdateRequest del = new UpdateRequest();
      del.deleteByQuery(byDocKeys(keys.subList(from, Math.min(keys.size(), from + DOCS_PER_REQUEST))));
      send(del);
    }
    List<UpdateRequest> requests = new ArrayList<>();
    UpdateRequest current = new UpdateRequest();
    int docs = 0;
    List<List<SolrInputDocument>> adds = new ArrayList<>();
    for (IndexEntry e : touched.values()) if (e != null) adds.add(SolrDocs.of(e));
    for (DuplicateRecord d : dups.values()) adds.add(List.of(SolrDocs.duplicate(d)));
    for (List<SolrInputDocument> group : adds) {
      if (docs >= DOCS_PER_REQUEST) {
        requests.add(current);
        current = new UpdateRequest();
        docs = 0;
      }
      current.add(group);
      docs += group.size();
    }
    if (recordEmbedder) {
      // One copy of the collection's record on every shard: it is read from any shard that answers.
      for (String id : metaIds()) {
        SolrInputDocument m = new SolrInputDocument();
        m.setField(SolrFields.ID, id);
        m.setField(SolrFields.TYPE, SolrFields.TYPE_META);
        m.setField(SolrFields.ACL, List.of(SolrDocs.UNLABELLED));
        m.setField(SolrFields.EMBEDDER, pending.embedder());
        m.setField(SolrFields.DIMENSION, pending.dimension());
        current.add(m);
        docs++;
      }
    }
    if (docs > 0) requests.add(current);
    // The adds go PARALLEL_REQUESTS at a time: a request waits for a free slot (back-pressure), and
    // the commit waits for every one; the first failure fails the commit.
    java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(PARALLEL_REQUESTS);
    List<java.util.concurrent.CompletableFuture<Void>> sent = new ArrayList<>();
    try {
      for (UpdateRequest r : requests) {
        slots.acquire();
        sent.add(SolrQueries.<Void>async(() -> {
          try {
            send(r);
            return null;
          } finally {
            slots.release();
          }
        }));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while writing to " + index.collection());
    }
    for (var f : sent) SolrQueries.join(f);
    UpdateRequest commit = new UpdateRequest();
    commit.setAction(AbstractUpdateRequest.ACTION.COMMIT, true, true);
    SolrAdmin.call(() -> commit.process(index.client(), index.collection()), "commit to " + index.collection());
    ops.clear();
    if (recordEmbedder) index.recorded(pending);
  }

  /**
   * The ids of the collection record's copies, one routed to each shard: {@code _ctxpack.N!meta},
   * the first N (from 0) whose route lands on the shard, found with the collection's own router.
   */
  private List<String> metaIds() throws IOException {
    org.apache.solr.common.cloud.DocCollection state = index.client().getClusterState().getCollectionOrNull(index.collection());
    if (state == null) throw new IOException("Solr has no collection " + index.collection());
    java.util.Map<String, String> bySlice = new java.util.TreeMap<>();
    int slices = state.getSlices().size();
    for (int n = 0; bySlice.size() < slices && n < 100_000; n++) {
      String id = SolrFields.META_PREFIX + n + "!meta";
      bySlice.putIfAbsent(state.getRouter().getTargetSlice(id, null, null, null, state).getName(), id);
    }
    return List.copyOf(bySlice.values());
  }

  private void send(UpdateRequest r) throws IOException {
    SolrAdmin.call(() -> r.process(index.client(), index.collection()), "write to " + index.collection());
  }

  private static void touch(Map<String, IndexEntry> touched, Map<String, DuplicateRecord> dups, String docId, IndexEntry e) {
    touched.remove(docId);
    touched.put(docId, e);
    dups.values().removeIf(d -> d.of().equals(docId));
  }

  /** The delete-by-query of every Solr document of {@code docIds} (records, chunks, windows, duplicate records). */
  private static String byDocKeys(List<String> docIds) {
    return "{!terms f=" + SolrFields.DOC_KEY + " separator='\u0001' v='" + quote(String.join("\u0001", docIds)) + "'}";
  }

  private static String quote(String v) {
    return v.replace("\\", "\\\\").replace("'", "\\'");
  }

  @Override
  public boolean compact() {
    open();
    if (!ops.isEmpty()) throw new IllegalStateException("compact needs a commit first: the batch holds uncommitted writes");
    // Solr merges its segments itself; a forced merge of a live collection would rewrite every
    // shard for little gain in search cost.
    return false;
  }

  @Override
  public void close() {
    if (closed) return;
    closed = true;
    ops.clear();
    lock.unlock();
  }
}
