package dev.ctxpack.app.http;

import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.assemble.Memory;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStores;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.LoadedDocument;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One collection of a tenant: its index, its memory store, its writer thread, and its search, pack
 * and assemble routes, built once per {@link Access} that asks (the keys bound their number) over
 * the index as that access may read it, and rebuilt after each write.
 *
 * <p>Writes (documents and memories) run one at a time on the writer thread and are not cancelled
 * when their request times out: the interrupt ends the request's wait, never the write (an
 * interrupted Lucene write could leave the index's files closed under the searches).
 */
final class Collection {
  /** The routes over the index as one access may read it. */
  record Routes(JsonEndpoint search, JsonEndpoint pack, JsonEndpoint assemble) {}

  final String tenant;
  final String name;
  final Index index;
  private final Endpoints endpoints;
  private final Supplier<Embedder> embedder;
  private final ExecutorService writer;
  private final Map<Access, Routes> routes = new ConcurrentHashMap<>();
  /** Where the collection's memories are: beside its index unless the service was told otherwise. */
  private volatile IndexSpec memoryStore;
  private MemoryStore memory;

  /** {@code embedder}: the tenant's, with its own cache. */
  Collection(String tenant, String name, IndexSpec spec, Index index, Endpoints endpoints, Supplier<Embedder> embedder) {
    this.tenant = tenant;
    this.name = name;
    this.index = index;
    this.endpoints = endpoints;
    this.embedder = embedder;
    this.memoryStore = MemoryStores.beside(spec);
    this.writer = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "ctxpack-writer-" + (tenant.isEmpty() ? "" : tenant + "-") + name);
      t.setDaemon(true);
      return t;
    });
  }

  /** The routes over what {@code access} may read, built on its first request. */
  Routes routes(Access access) throws IOException {
    Routes r = routes.get(access);
    if (r != null) return r;
    SearchableIndex view = index.readableBy(access);
    Embedder e = searchEmbedder();
    // Assemble retrieves through the same readable view, with a packer of its own (pack's defaults).
    r = new Routes(endpoints.search(view, e), endpoints.pack(view, e), endpoints.assemble(e, view, lazyMemory()));
    Routes raced = routes.putIfAbsent(access, r);
    return raced != null ? raced : r;
  }

  /** Ingests {@code docs} in one atomic commit, on the writer thread. */
  IngestSummary ingest(List<LoadedDocument> docs) throws Exception {
    IngestSummary s = write(() -> endpoints.ingestor(index, searchEmbedder()).ingestDocuments("api:" + name, docs));
    routes.clear();
    return s;
  }

  /** Removes the document {@code id}, on the writer thread; how many documents went (0 or 1). */
  int remove(String id) throws Exception {
    int removed = write(() -> index.remove(List.of(id)));
    routes.clear();
    return removed;
  }

  /** Keeps the collection's memories in {@code store} rather than beside its index. */
  void memoryStore(IndexSpec store) {
    this.memoryStore = store;
  }

  /** The collection's memory store, opened on first use with the tenant's embedder. */
  synchronized MemoryStore memory() throws IOException {
    if (memory == null) memory = MemoryStores.open(memoryStore, embedder.get());
    return memory;
  }

  /** Adds a memory, on the writer thread. */
  Memory addMemory(String user, Memory.Kind kind, String text) throws Exception {
    MemoryStore store = memory();
    return write(() -> store.add(user, kind, text));
  }

  /** Deletes a user's memory, on the writer thread; whether the user had it. */
  boolean deleteMemory(String user, String id) throws Exception {
    MemoryStore store = memory();
    return write(() -> store.delete(user, id));
  }

  /**
   * The memory store as the assembler sees it: opened on the first request that names a user, so a
   * service whose embedder cannot embed (--embedder none) still assembles windows without memories.
   */
  private MemoryStore lazyMemory() {
    return new MemoryStore() {
      @Override
      public Memory add(String user, Memory.Kind kind, String text) throws IOException {
        return memory().add(user, kind, text);
      }

      @Override
      public List<Memory> list(String user) throws IOException {
        return memory().list(user);
      }

      @Override
      public boolean delete(String user, String id) throws IOException {
        return memory().delete(user, id);
      }

      @Override
      public List<Memory> recall(String user, String query, int k) throws IOException {
        return memory().recall(user, query, k);
      }

      @Override
      public void close() {} // the collection closes its store
    };
  }

  /** The embedder searches use: none while the index holds documents but no vectors (ingested with --no-embed). */
  private Embedder searchEmbedder() throws IOException {
    Index.Stats st = index.stats();
    return st.documents() > 0 && st.vectors() == 0 ? null : embedder.get();
  }

  /** Runs {@code work} on the writer thread and waits for it; an interrupt ends the wait, never the write. */
  private <T> T write(Callable<T> work) throws Exception {
    try {
      return writer.submit(work).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception x) throw x;
      throw e;
    }
  }

  /**
   * Lets a write in progress commit or roll back (up to {@link HttpService#STOP_GRACE_MILLIS}), then
   * closes the memory store and the index; the first failure is thrown once both were tried.
   */
  void close() throws IOException {
    writer.shutdown();
    try {
      writer.awaitTermination(HttpService.STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    IOException first = null;
    try {
      synchronized (this) {
        if (memory != null) memory.close();
        memory = null;
      }
    } catch (IOException e) {
      first = e;
    }
    try {
      index.close();
    } catch (IOException e) {
      if (first == null) first = e;
    }
    if (first != null) throw first;
  }
}
