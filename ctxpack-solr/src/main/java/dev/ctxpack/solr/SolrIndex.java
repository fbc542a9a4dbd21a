package dev.ctxpack.solr;

import dev.ctxpack.index.Access;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Document;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.common.SolrDocument;

/**
 * An index in a SolrCloud collection, named by spec ({@code solr:http://HOST:PORT/solr/COLLECTION}
 * or {@code solr+zk://HOST:PORT[,HOST:PORT]/CHROOT/COLLECTION}, see {@link SolrLocation}); it keeps
 * the whole index contract, as the embedded Lucene index does, over a sharded, replicated
 * collection with ctxpack's schema ({@link SolrAdmin}).
 *
 * <p>Writes are buffered by the batch and sent at {@link Batch#commit()}: deletions of the replaced
 * documents, then their new Solr documents, in requests of {@link SolrBatch#DOCS_PER_REQUEST}
 * ({@link SolrBatch#PARALLEL_REQUESTS} in flight at once), then a hard commit that returns once every replica has made them durable and searchable. Nothing of a
 * batch is visible before; a batch whose put failed sends nothing. A process that dies during the
 * sending itself may leave part of the batch written (Solr has no transaction across requests): the
 * next ingest of the same files writes it again whole.
 *
 * <pre>{@code
 * try (Index index = Indexes.open(IndexSpec.parse("solr+zk://127.0.0.1:9983/docs"))) {
 *   List<Candidate> hits = index.searchSparse("salary bands", 10);
 * }
 * }</pre>
 */
public final class SolrIndex implements Index {
  /** The embedder recorded in the collection, and its dimension; null and 0 when none yet. */
  record Meta(String embedder, int dimension) {}

  private final SolrLocation location;
  private final CloudSolrClient client;
  private final SolrReads reads;
  private final SolrCatalog catalog;
  private final ReentrantLock writeLock = new ReentrantLock();
  private volatile Meta meta = new Meta(null, 0);

  private SolrIndex(SolrLocation location, CloudSolrClient client) {
    this.location = location;
    this.client = client;
    this.reads = new SolrReads(this, Access.ALL, null, false);
    this.catalog = new SolrCatalog(new SolrQueries(client, location.collection(), Access.ALL));
  }

  /**
   * Opens the collection {@code spec} names; when it does not exist, creates it with {@code shards}
   * shards of {@code replicas} replicas if {@code create}, else fails naming it. Fails when the
   * collection's schema is not this version of ctxpack's.
   */
  static SolrIndex open(IndexSpec spec, boolean create, int shards, int replicas) throws IOException {
    SolrLocation loc = SolrLocation.parse(spec);
    CloudSolrClient client = connect(loc);
    try {
      if (!SolrAdmin.exists(client, loc.collection())) {
        if (!create) {
          throw new IOException("index " + loc.spec() + ": there is no collection " + loc.collection()
              + ": create it with `ctxpack solr init --index " + loc.spec() + "`");
        }
        SolrAdmin.create(client, loc.collection(), shards, replicas);
      }
      SolrAdmin.checkSchema(client, loc.collection(), loc.spec());
      SolrIndex index = new SolrIndex(loc, client);
      index.meta();
      return index;
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  static CloudSolrClient connect(SolrLocation loc) throws IOException {
    try {
      CloudSolrClient c = loc.client();
      c.connect();
      return c;
    } catch (RuntimeException e) {
      String where = loc.zkHosts().isEmpty() ? "Solr at " + loc.solrUrl() : "ZooKeeper at " + String.join(",", loc.zkHosts());
      throw new IOException("index " + loc.spec() + ": cannot reach " + where + ": " + e.getMessage(), e);
    }
  }

  CloudSolrClient client() {
    return client;
  }

  String collection() {
    return location.collection();
  }

  /** The recorded embedder, read again until there is one (another process may record it). */
  Meta meta() throws IOException {
    Meta m = meta;
    if (m.embedder() != null) return m;
    // Any copy will do (every shard holds one; a collection written before the copies, one in all,
    // SolrFields.META_ID): with a tolerating spec, the shards that answer are asked.
    SolrQueries.Builder q = new SolrQueries(client, collection(), Access.ALL, tolerant(), null)
        .of(SolrFields.TYPE_META, SolrFields.EMBEDDER, SolrFields.DIMENSION).tolerating();
    q.q.setRows(1);
    q.q.setSort(SolrFields.ID, org.apache.solr.client.solrj.SolrQuery.ORDER.asc);
    List<SolrDocument> r = q.run().getResults();
    if (!r.isEmpty()) {
      meta = m = new Meta(SolrDocs.str(r.get(0), SolrFields.EMBEDDER), SolrDocs.integer(r.get(0), SolrFields.DIMENSION));
    }
    return m;
  }

  void recorded(Meta m) {
    meta = m;
  }

  int dimension() throws IOException {
    return meta().dimension();
  }

  /** Whether the spec lets searches answer without a shard that has no live replica ({@link SolrLocation#tolerant}). */
  boolean tolerant() {
    return location.tolerant();
  }

  @Override
  public String location() {
    return location.spec();
  }

  // ---- reads ----------------------------------------------------------------------------------

  @Override
  public List<Candidate> searchSparse(String query, int k) throws IOException {
    return reads.searchSparse(query, k);
  }

  @Override
  public List<Candidate> searchDense(float[] query, int k) throws IOException {
    return reads.searchDense(query, k);
  }

  @Override
  public Optional<Document> document(String docId) throws IOException {
    return reads.document(docId);
  }

  @Override
  public Map<String, float[]> chunkVectors(Collection<String> chunkIds) throws IOException {
    return reads.chunkVectors(chunkIds);
  }

  @Override
  public Map<String, List<SentenceVector>> sentenceVectors(Collection<String> chunkIds) throws IOException {
    return reads.sentenceVectors(chunkIds);
  }

  @Override
  public Map<String, ChunkMarks> chunkMarks(Collection<String> chunkIds) throws IOException {
    return reads.chunkMarks(chunkIds);
  }

  @Override
  public Stats stats() throws IOException {
    return reads.stats();
  }

  @Override
  public SearchableIndex readableBy(Access access) {
    return reads.readableBy(access);
  }

  @Override
  public SearchableIndex reportingTo(dev.ctxpack.index.ReadCoverage coverage) {
    return reads.reportingTo(coverage);
  }

  // ---- writes ---------------------------------------------------------------------------------

  @Override
  public Optional<StoredDoc> find(String docId) throws IOException {
    return catalog.find(docId);
  }

  @Override
  public Map<String, StoredDoc> findAll(Collection<String> docIds) throws IOException {
    return catalog.findAll(docIds);
  }

  @Override
  public List<StoredDoc> findBySourcePath(String prefix) throws IOException {
    return catalog.findBySourcePath(prefix);
  }

  @Override
  public Batch begin() throws IOException {
    writeLock.lock();
    return new SolrBatch(this, writeLock);
  }

  @Override
  public int remove(Collection<String> docIds) throws IOException {
    LinkedHashSet<String> distinct = new LinkedHashSet<>(docIds);
    int existed = distinct.isEmpty() ? 0 : findAll(distinct).size();
    if (existed == 0) return 0;
    try (Batch b = begin()) {
      for (String id : distinct) b.delete(id);
      b.commit();
    }
    return existed;
  }

  @Override
  public List<SignedDoc> documentsSharingBands(Collection<String> bandKeys) throws IOException {
    return catalog.documentsSharingBands(bandKeys);
  }

  // ---- the corpus -----------------------------------------------------------------------------

  @Override
  public List<CorpusDoc> corpusDocuments() throws IOException {
    return catalog.corpusDocuments();
  }

  @Override
  public List<DuplicateRecord> duplicates() throws IOException {
    return catalog.duplicates();
  }

  @Override
  public List<Recurring> recurringChunks(int minDocuments) throws IOException {
    return catalog.recurringChunks(minDocuments);
  }

  @Override
  public void close() throws IOException {
    client.close();
  }

  @Override
  public String toString() {
    return "SolrIndex(" + location() + ")";
  }
}
