package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Errors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The indexes {@code ctxpack serve} answers from, by tenant and collection, and the routes over them
 * that depend on who asks: {@code /v1/search}, {@code /v1/pack}, {@code /v1/assemble}, the document
 * routes and the memory routes ({@code /v1/memories}: each collection has its memory store, beside
 * its index).
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
 * atomically, and searches see the documents once it has. The document and memory routes are
 * {@link DocumentRoutes} and {@link MemoryRoutes}; one collection is a {@link Collection}.
 */
final class ServeCollections implements AutoCloseable {
  private final Map<String, Map<String, Collection>> byTenant = new LinkedHashMap<>();
  private final Endpoints endpoints;
  private final Function<String, Embedder> makeEmbedder;
  private final Map<String, Embedder> embedders = new ConcurrentHashMap<>();

  private ServeCollections(Endpoints endpoints, Function<String, Embedder> makeEmbedder) {
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
  static ServeCollections single(IndexSpec spec, Index index, Endpoints endpoints, Function<String, Embedder> embedder) {
    ServeCollections sc = new ServeCollections(endpoints, embedder);
    sc.byTenant.put("", new LinkedHashMap<>(Map.of("default", sc.collection("", "default", spec, index))));
    return sc;
  }

  /** Opens every collection of {@code tenants} (creating empty ones); closes what it opened if one fails. */
  static ServeCollections open(Tenants tenants, Endpoints endpoints, Function<String, Embedder> embedder) throws IOException {
    ServeCollections sc = new ServeCollections(endpoints, embedder);
    try {
      for (Tenants.Tenant t : tenants.all()) {
        Map<String, Collection> cs = new LinkedHashMap<>();
        sc.byTenant.put(t.id(), cs);
        for (var c : t.collections().entrySet()) {
          cs.put(c.getKey(), sc.collection(t.id(), c.getKey(), c.getValue(), open(c.getValue(), t.id() + "/" + c.getKey())));
        }
      }
      return sc;
    } catch (IOException | RuntimeException e) {
      sc.close();
      throw e;
    }
  }

  private Collection collection(String tenant, String name, IndexSpec spec, Index index) {
    return new Collection(tenant, name, spec, index, endpoints, () -> embedder(tenant));
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
    byTenant.values().forEach(cs -> cs.values().forEach(c -> c.memoryStore(store)));
  }

  /** Every open index, e.g. to check their embedders at start. */
  List<Index> indexes() {
    List<Index> out = new ArrayList<>();
    byTenant.values().forEach(cs -> cs.values().forEach(c -> out.add(c.index)));
    return out;
  }

  /** The collection {@code request} names for {@code caller}, or 404. */
  Collection collection(Caller caller, ObjectNode request) {
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

  private static HttpError notFound(String collection) {
    String shown = collection.length() > 64 ? collection.substring(0, 64) + "…" : collection;
    return new HttpError(404, "not_found", "no collection '" + shown + "' for this API key");
  }

  /** {@code POST /v1/search} over the caller's collection as its access may read it. */
  Handler search() {
    return (caller, request) -> collection(caller, request).routes(caller.access()).search().handle(request);
  }

  /** {@code POST /v1/pack} over the caller's collection as its access may read it. */
  Handler pack() {
    return (caller, request) -> collection(caller, request).routes(caller.access()).pack().handle(request);
  }

  /**
   * {@code POST /v1/assemble}: the window's evidence is retrieved from the caller's collection as its
   * access may read it; a {@code "user"} (top-level or {@code memories.user}) whose memories are
   * recalled must be one the caller acts for, else 404 as {@code GET /v1/memories} answers.
   */
  Handler assemble() {
    return (caller, request) -> {
      Collection c = collection(caller, request);
      requireUser(caller, request.get("user"));
      JsonNode memories = request.get("memories");
      if (memories != null && memories.isObject()) requireUser(caller, memories.get("user"));
      return c.routes(caller.access()).assemble().handle(request);
    };
  }

  /** A request's user id, if it is one (a malformed one is the parser's 400), checked against the caller. */
  private static void requireUser(Caller caller, JsonNode user) {
    if (user != null && user.isTextual() && !user.asText().isBlank()) MemoryRoutes.requireUser(caller, user.asText());
  }

  /** Closes every collection (each lets its write in progress finish); the first failure is thrown once all were tried. */
  @Override
  public void close() throws IOException {
    IOException first = null;
    for (Map<String, Collection> cs : byTenant.values()) {
      for (Collection c : cs.values()) {
        try {
          c.close();
        } catch (IOException e) {
          if (first == null) first = e;
        }
      }
    }
    if (first != null) throw first;
  }
}
