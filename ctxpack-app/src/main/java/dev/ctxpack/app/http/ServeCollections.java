package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Errors;
import dev.ctxpack.app.json.DocumentRequests;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.app.json.MemoryViews;
import dev.ctxpack.app.json.Views;
import dev.ctxpack.assemble.Memory;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStores;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexLockedException;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.LoadedDocument;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The indexes {@code ctxpack serve} answers from, and the routes over them that depend on who asks:
 * {@code /v1/search}, {@code /v1/pack}, {@code /v1/assemble}, {@code POST /v1/documents} and {@code DELETE
 * /v1/documents/<id>}, and the memory routes ({@code /v1/memories}: each collection has its memory
 * store, beside its index).
 *
 * <p>Each collection is its own index (opened by spec through {@link Indexes}); a tenant's collections are its own, so no request of
 * one tenant reads, scores, counts or waits on another tenant's index. A request names a
 * collection of its caller's tenant with {@code "collection"} (default: the tenant's first); any
 * other name, whether or not another tenant has it, is 404 {@code not_found} with the same message.
 * Within a collection, search and pack run over {@link Index#readableBy} the caller's {@link
 * Access}: documents it may not read are filtered inside retrieval, before scoring.
 *
 * <p>Document writes run one at a time per collection on the collection's writer thread and are
 * not interrupted when their request times out (an interrupted Lucene write could leave the index's
 * files closed under the searches): the request gets 503 {@code timeout}, the write still commits
 * atomically, and searches see the documents once it has.
 */
final class ServeCollections implements AutoCloseable {
  /** One collection: its index, writer thread and the search/pack routes built per access (bounded by the keys). */
  private final class Collection {
    final String tenant;
    final String name;
    final Index index;
    final ExecutorService writer;
    final Map<Access, Routes> routes = new ConcurrentHashMap<>();
    /** Where the collection's memories are: beside its index unless the service was told otherwise. */
    volatile IndexSpec memoryStore;
    private MemoryStore memory;

    Collection(String tenant, String name, IndexSpec spec, Index index) {
      this.tenant = tenant;
      this.name = name;
      this.index = index;
      this.memoryStore = MemoryStores.beside(spec);
      this.writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ctxpack-writer-" + (tenant.isEmpty() ? "" : tenant + "-") + name);
        t.setDaemon(true);
        return t;
      });
    }

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

    /** The collection's memory store, opened on first use with the tenant's embedder. */
    synchronized MemoryStore memory() throws IOException {
      if (memory == null) memory = MemoryStores.open(memoryStore, embedder(tenant));
      return memory;
    }

    /**
     * The memory store as the assembler sees it: opened on the first request that names a user, so a
     * service whose embedder cannot embed (--embedder none) still assembles windows without memories.
     */
    MemoryStore lazyMemory() {
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

    synchronized void closeMemory() throws IOException {
      if (memory != null) memory.close();
      memory = null;
    }

    /** The embedder searches use: none while the index holds documents but no vectors (ingested with --no-embed). */
    Embedder searchEmbedder() throws IOException {
      Index.Stats st = index.stats();
      return st.documents() > 0 && st.vectors() == 0 ? null : embedder(tenant);
    }
  }

  private record Routes(JsonEndpoint search, JsonEndpoint pack, JsonEndpoint assemble) {}

  private final Map<String, Map<String, Collection>> byTenant;
  private final Endpoints endpoints;
  private final java.util.function.Function<String, Embedder> makeEmbedder;
  private final Map<String, Embedder> embedders = new ConcurrentHashMap<>();

  private ServeCollections(Map<String, Map<String, Collection>> byTenant, Endpoints endpoints,
      java.util.function.Function<String, Embedder> makeEmbedder) {
    this.byTenant = byTenant;
    this.endpoints = endpoints;
    this.makeEmbedder = makeEmbedder;
  }

  /**
   * The embedder of {@code tenant}'s searches and document writes, made on first use: each
   * tenant's has its own cache, so a query is no faster for a text another tenant embedded.
   */
  Embedder embedder(String tenant) {
    return embedders.computeIfAbsent(tenant, makeEmbedder);
  }

  /** One collection, {@code "default"}, of the tenant {@code ""} ({@link Caller#LOCAL}): a service without tenants. */
  static ServeCollections single(IndexSpec spec, Index index, Endpoints endpoints,
      java.util.function.Function<String, Embedder> embedder) {
    ServeCollections sc = new ServeCollections(new LinkedHashMap<>(), endpoints, embedder);
    sc.byTenant.put("", new LinkedHashMap<>(Map.of("default", sc.new Collection("", "default", spec, index))));
    return sc;
  }

  /** Opens every collection of {@code tenants} (creating empty ones); closes what it opened if one fails. */
  static ServeCollections open(Tenants tenants, Endpoints endpoints, java.util.function.Function<String, Embedder> embedder)
      throws IOException {
    ServeCollections sc = new ServeCollections(new LinkedHashMap<>(), endpoints, embedder);
    try {
      for (Tenants.Tenant t : tenants.all()) {
        Map<String, Collection> cs = new LinkedHashMap<>();
        sc.byTenant.put(t.id(), cs);
        for (var c : t.collections().entrySet()) {
          cs.put(c.getKey(), sc.new Collection(t.id(), c.getKey(), c.getValue(), open(c.getValue(), t.id() + "/" + c.getKey())));
        }
      }
      return sc;
    } catch (IOException | RuntimeException e) {
      sc.close();
      throw e;
    }
  }

  private static Index open(IndexSpec spec, String what) throws IOException {
    try {
      return Indexes.open(spec);
    } catch (IOException e) {
      throw new IOException("collection " + what + ": cannot open " + spec + ": " + Errors.message(e), e);
    }
  }

  /** Keeps the memories of a service without tenants (one collection) in {@code store} rather than beside its index. */
  void memoryStore(IndexSpec store) {
    byTenant.values().forEach(cs -> cs.values().forEach(c -> c.memoryStore = store));
  }

  /** The memory store of the collection {@code request} names for {@code caller} (e.g. for assembling a window). */
  MemoryStore memories(Caller caller, ObjectNode request) throws IOException {
    return collection(caller, request).memory();
  }

  /** Every open index, e.g. to check their embedders at start. */
  List<Index> indexes() {
    List<Index> out = new ArrayList<>();
    byTenant.values().forEach(cs -> cs.values().forEach(c -> out.add(c.index)));
    return out;
  }

  /** The collection {@code request} names for {@code caller}, or 404. */
  private Collection collection(Caller caller, ObjectNode request) {
    Map<String, Collection> cs = byTenant.get(caller.tenant());
    JsonNode named = request.get("collection");
    if (named != null && !named.isNull() && !named.isTextual()) {
      throw new IllegalArgumentException("field 'collection' must be a string");
    }
    if (cs == null) throw notFound(named == null || named.isNull() ? "default" : named.asText());
    if (named == null || named.isNull()) return cs.values().iterator().next();
    Collection c = cs.get(named.asText());
    if (c == null) throw notFound(named.asText());
    return c;
  }

  private static HttpService.HttpError notFound(String collection) {
    String shown = collection.length() > 64 ? collection.substring(0, 64) + "…" : collection;
    return new HttpService.HttpError(404, "not_found", "no collection '" + shown + "' for this API key");
  }

  HttpService.Handler search() {
    return (caller, request) -> collection(caller, request).routes(caller.access()).search().handle(request);
  }

  HttpService.Handler pack() {
    return (caller, request) -> collection(caller, request).routes(caller.access()).pack().handle(request);
  }

  /** {@code POST /v1/assemble}: the window's evidence is retrieved from the caller's collection as its access may read it. */
  HttpService.Handler assemble() {
    return (caller, request) -> collection(caller, request).routes(caller.access()).assemble().handle(request);
  }

  /**
   * {@code POST /v1/documents}: {@code {"collection"?, "documents": [{"id", "title"?, "text",
   * "uri"?, "metadata"?, "acl"?}]}} into the collection, in one atomic commit; the answer is the
   * ingest summary plus {@code "collection"}. The caller's key must have {@code "write": true}.
   */
  HttpService.Handler addDocuments() {
    return (caller, request) -> {
      requireWrite(caller);
      Collection c = collection(caller, request);
      List<LoadedDocument> docs = DocumentRequests.documents(request);
      Future<IngestSummary> done = c.writer.submit(() -> {
        Embedder e = c.searchEmbedder();
        return endpoints.ingestor(c.index, e).ingestDocuments("api:" + c.name, docs);
      });
      IngestSummary s;
      try {
        s = Futures.await(done);
      } catch (IndexLockedException e) {
        throw locked(c);
      }
      c.routes.clear();
      ObjectNode out = Views.ingest(s);
      out.put("collection", c.name);
      return out;
    };
  }

  /** {@code DELETE /v1/documents/<id>?collection=NAME}: removes one document, or 404 if the collection has none of that id. */
  HttpService.Handler removeDocument() {
    return (caller, request) -> {
      requireWrite(caller);
      Collection c = collection(caller, request);
      String id = request.path("id").asText("");
      if (id.isBlank()) throw new IllegalArgumentException("the document id is missing: DELETE /v1/documents/ID");
      int removed;
      try {
        removed = Futures.await(c.writer.submit(() -> c.index.remove(List.of(id))));
      } catch (IndexLockedException e) {
        throw locked(c);
      }
      c.routes.clear();
      if (removed == 0) {
        String shown = id.length() > 64 ? id.substring(0, 64) + "…" : id;
        throw new HttpService.HttpError(404, "not_found", "no document '" + shown + "' in collection '" + c.name + "'");
      }
      ObjectNode out = Json.object();
      out.put("removed", removed).put("id", id).put("collection", c.name);
      return out;
    };
  }

  /**
   * {@code POST /v1/memories}: {@code {"collection"?, "user", "kind": "fact"|"episode", "text"}} into
   * the collection's memory store, durable when answered; the answer is the memory ({@code id, user,
   * kind, text, created}) plus {@code "collection"}. The caller's key must have {@code "write": true}.
   */
  HttpService.Handler addMemory() {
    return (caller, request) -> {
      requireMemoryWrite(caller);
      Collection c = collection(caller, request);
      String user = field(request, "user");
      Memory.Kind kind = Memory.Kind.parse(field(request, "kind"));
      String text = field(request, "text");
      MemoryStore store = c.memory();
      // On the collection's writer thread: a timed-out request must not interrupt a Lucene write.
      Memory m = Futures.await(c.writer.submit(() -> store.add(user, kind, text)));
      ObjectNode out = MemoryViews.view(m, false);
      out.put("collection", c.name);
      return out;
    };
  }

  /**
   * {@code GET /v1/memories?user=U[&collection=C]}: the user's memories, oldest first; with {@code
   * &query=Q[&k=N]} (k default 5), what a session for Q recalls, with scores. Answer: {@code {"user",
   * "collection", "memories": [...]}}.
   */
  HttpService.Handler memories() {
    return (caller, request) -> {
      Collection c = collection(caller, request);
      String user = field(request, "user");
      String query = request.path("query").asText("");
      List<Memory> ms;
      boolean recall = !query.isBlank();
      if (recall) {
        int k;
        try {
          k = Integer.parseInt(request.path("k").asText("5").strip());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("parameter 'k' must be a whole number, was '" + request.path("k").asText() + "'");
        }
        ms = c.memory().recall(user, query, k);
      } else {
        ms = c.memory().list(user);
      }
      ObjectNode out = MemoryViews.list(user, ms, recall);
      out.put("collection", c.name);
      return out;
    };
  }

  /** {@code DELETE /v1/memories/<id>?user=U[&collection=C]}: removes the user's memory, or 404 if the user has none of that id. */
  HttpService.Handler deleteMemory() {
    return (caller, request) -> {
      requireMemoryWrite(caller);
      Collection c = collection(caller, request);
      String user = field(request, "user");
      String id = request.path("id").asText("");
      if (id.isBlank()) throw new IllegalArgumentException("the memory id is missing: DELETE /v1/memories/ID?user=U");
      MemoryStore store = c.memory();
      boolean deleted = Futures.await(c.writer.submit(() -> store.delete(user, id)));
      if (!deleted) {
        String shown = id.length() > 64 ? id.substring(0, 64) + "…" : id;
        throw new HttpService.HttpError(404, "not_found", "user has no memory '" + shown + "' in collection '" + c.name + "'");
      }
      ObjectNode out = Json.object();
      out.put("deleted", id).put("user", user).put("collection", c.name);
      return out;
    };
  }

  /** A request's required text field (a POST body's or a query parameter), or 400 naming it. */
  private static String field(ObjectNode request, String name) {
    JsonNode v = request.get(name);
    if (v == null || v.isNull()) throw new IllegalArgumentException("field '" + name + "' is missing");
    if (!v.isTextual() || v.asText().isBlank()) throw new IllegalArgumentException("field '" + name + "' must be a non-empty string");
    return v.asText();
  }

  private static void requireMemoryWrite(Caller caller) {
    if (!caller.write()) {
      throw new HttpService.HttpError(403, "forbidden", "this API key may not add or delete memories (its \"write\" is not true)");
    }
  }

  private static HttpService.HttpError locked(Collection c) {
    return new HttpService.HttpError(503, "unavailable", "collection '" + c.name
        + "' is being written by another process (e.g. ctxpack ingest); try again when it is done");
  }

  private static void requireWrite(Caller caller) {
    if (!caller.write()) {
      throw new HttpService.HttpError(403, "forbidden", "this API key may not add or remove documents (its \"write\" is not true)");
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (Map<String, Collection> cs : byTenant.values()) {
      for (Collection c : cs.values()) {
        c.writer.shutdown();
        try {
          // A write in progress commits or rolls back before its index closes.
          c.writer.awaitTermination(HttpService.STOP_GRACE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        try {
          c.closeMemory();
        } catch (IOException e) {
          if (first == null) first = e;
        }
        try {
          c.index.close();
        } catch (IOException e) {
          if (first == null) first = e;
        }
      }
    }
    if (first != null) throw first;
  }

  /** Waiting for a write without cancelling it. */
  private static final class Futures {
    private Futures() {}

    static <T> T await(Future<T> f) throws Exception {
      try {
        // An interrupt (the request's time is up) ends the wait, never the write.
        return f.get();
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof Exception x) throw x;
        throw e;
      }
    }
  }
}
