package dev.ctxpack.app.http;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.StoreChecks;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.assemble.MemoryStores;
import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.AccessTermsAudit;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code ctxpack serve}, started from a {@link ServiceConfig}: the batch commands over HTTP. {@code
 * POST /v1/<command>} takes exactly the JSON of one {@code --batch} line of that command and answers
 * exactly the JSON that line would produce, through the same function of {@code dev.ctxpack.app.json},
 * with that command's default options ({@link Endpoints}). The indexes, embedders and packers are
 * opened once and shared by every request.
 *
 * <p>{@link #start}:
 * <ol>
 *   <li>with {@link ServiceConfig#checkOnStart()}, verifies every index and memory store it will serve
 *       ({@link StoreChecks}) and refuses to start, naming the damaged file, if one fails;
 *   <li>opens the collections: each tenant's of {@link ServiceConfig#tenants()}, or the one index of
 *       {@link ServiceConfig#index()}, or none (then only compress, dedup, verify and assemble without
 *       evidence are served; the index's routes answer 503);
 *   <li>checks that every collection holding vectors was embedded by the configured embedder;
 *   <li>registers the routes ({@link #routes}) on an {@link HttpService} with the configured limits;
 *   <li>starts listening and logs where, with warnings about the setup.
 * </ol>
 * {@link #close()} stops the server (requests in flight finish), then closes the indexes.
 */
public final class Service implements AutoCloseable {
  /** The routes that run in the heavy slots (--max-concurrent-heavy); the others run in the light ones. */
  static final java.util.List<String> HEAVY =
      java.util.List.of("/v1/pack", "/v1/assemble", "/v1/compress", "/v1/dedup", "/v1/verify", "/v1/documents");
  /** The answer of the index's routes in a service started without one. */
  static final String NO_INDEX = "no index: start ctxpack serve with --index DIR (an index made by ctxpack ingest)";

  private final HttpService http;
  private final ServeCollections collections;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Service(HttpService http, ServeCollections collections) {
    this.http = http;
    this.collections = collections;
  }

  /** Opens the components, starts listening and says where on {@code log}; the caller closes it. */
  public static Service start(ServiceConfig config, ServiceLog log) throws IOException {
    Tenants tenants = config.tenants() != null ? Tenants.load(config.tenants()) : null;
    if (config.checkOnStart()) checkStores(config, tenants, log);
    Metrics metrics = new Metrics();
    Endpoints endpoints = new Endpoints(config.embedder(), config.llm(), metrics, config.maxDedupComparisons(),
        config.maxSentences());
    Function<String, Embedder> perTenant = tenant -> Components.embedder(config.embedder());
    ServeCollections collections;
    if (tenants != null) {
      collections = ServeCollections.open(tenants, endpoints, perTenant);
    } else if (config.index() != null) {
      collections = ServeCollections.single(config.index(), Components.openExisting(config.index()), endpoints, perTenant);
    } else {
      collections = null;
    }
    if (collections != null && config.memory() != null) collections.memoryStore(config.memory());
    try {
      if (collections != null) checkEmbedders(collections, config.embedder());
      HttpService.Builder routes = HttpService.builder().host(config.host()).port(config.port())
          .maxBodyBytes(config.maxBodyBytes()).requestTimeoutMillis(config.requestTimeoutMillis())
          .maxConcurrent(config.maxConcurrent()).maxConcurrentHeavy(config.maxConcurrentHeavy())
          .maxQueued(config.maxQueued()).log(log).metrics(metrics);
      if (tenants != null) routes.authenticator(tenants::authenticate);
      routes(routes, collections, endpoints);
      HttpService http = routes.start();
      String host = config.host();
      String where = host.contains(":") ? "[" + host + "]" : host;
      String serving = tenants != null
          ? tenants.all().size() + " tenants, " + collections.indexes().size() + " collections from " + config.tenants()
          : collections != null ? "index " + collections.indexes().get(0).location()
          : "no index: /v1/search, /v1/pack and /v1/documents answer 503; give --index DIR";
      log.info("listening on http://" + where + ":" + http.port() + " (" + serving + ")");
      if (tenants != null) {
        for (Index idx : collections.indexes()) {
          int legacy = idx instanceof AccessTermsAudit audit ? audit.documentsWithoutAccessTerms() : 0;
          if (legacy > 0) {
            log.warning(idx.location() + " holds " + legacy + " documents written before access"
                + " labels were indexed: only keys with labels [\"*\"] read them; re-ingest them into a new directory");
          }
        }
      }
      if (tenants == null && !isLoopback(host)) {
        log.warning("listening beyond this machine without --tenants: anyone who can reach "
            + where + " can read and change the index");
      }
      return new Service(http, collections);
    } catch (IOException | RuntimeException e) {
      if (collections != null) collections.close();
      throw e;
    }
  }

  /**
   * The routes. Each {@code POST /v1/<command>} runs the function the command's {@code --batch} mode
   * runs, built by {@link Endpoints} with that command's defaults; a new route is one more line here
   * and, for its work, one more method there. Search, pack and assemble run over the caller's
   * collection as its access may read it ({@link ServeCollections}).
   */
  private static void routes(HttpService.Builder routes, ServeCollections collections, Endpoints endpoints) {
    if (collections != null) {
      routes.post("/v1/search", collections.search());
      routes.post("/v1/pack", collections.pack());
      routes.post("/v1/assemble", collections.assemble());
      routes.post("/v1/documents", DocumentRoutes.add(collections));
      routes.delete("/v1/documents/<id>", DocumentRoutes.remove(collections));
      routes.post("/v1/memories", MemoryRoutes.add(collections));
      routes.get("/v1/memories", MemoryRoutes.list(collections));
      routes.delete("/v1/memories/<id>", MemoryRoutes.delete(collections));
    } else {
      routes.unavailable("/v1/search", NO_INDEX).unavailable("/v1/pack", NO_INDEX).unavailable("/v1/documents", NO_INDEX);
      routes.unavailable("/v1/memories", NO_INDEX);
      Handler down = (caller, request) -> {
        throw new HttpError(503, "unavailable", NO_INDEX);
      };
      routes.get("/v1/memories", down).delete("/v1/memories/<id>", down).delete("/v1/documents/<id>", down);
      // No index: windows without evidence (a request asking for retrieval gets 400).
      routes.post("/v1/assemble", perTenant(() -> endpoints.assemble(null, null, null)));
    }
    // Their work grows with what the request carries (passages, sources, documents, k): their own
    // slots, so search, memories and removals never wait behind them.
    routes.heavy(HEAVY.toArray(String[]::new));
    routes.post("/v1/compress", perTenant(endpoints::compress));
    routes.post("/v1/dedup", perTenant(endpoints::dedup));
    routes.post("/v1/verify", perTenant(endpoints::verify));
    Inspector.routes(routes);
  }

  /**
   * An endpoint per tenant, made on its first request: a tenant's embedding caches hold only what
   * it sent, so another tenant cannot time a request to learn what it embedded (the models are shared).
   */
  private static Handler perTenant(Supplier<JsonEndpoint> make) {
    Map<String, JsonEndpoint> byTenant = new ConcurrentHashMap<>();
    return (caller, request) -> byTenant.computeIfAbsent(caller.tenant(), t -> make.get()).handle(request);
  }

  /** Every collection holding vectors was embedded by {@code embedder} (else its dense search would be meaningless). */
  private static void checkEmbedders(ServeCollections collections, String embedder) throws IOException {
    String want = null; // the model loads only if some collection holds vectors
    for (Index idx : collections.indexes()) {
      Index.Stats st = idx.stats();
      if (st.vectors() == 0) continue;
      String have = st.embedderId().orElse("");
      if (want == null) want = Components.embedder(embedder).id();
      if (!have.isEmpty() && !have.equals(want)) {
        throw new UsageException("the index " + idx.location() + " was embedded with " + have + " but --embedder gives "
            + want + ": pass the same --embedder as at ingest");
      }
    }
  }

  /**
   * {@code --check-on-start}: every index served and its memory store verified file by file before
   * anything is opened; the first damaged one stops the start, named. A tenants collection whose
   * directory is not there yet (it is created empty) has nothing to check.
   */
  private static void checkStores(ServiceConfig config, Tenants tenants, ServiceLog log) throws IOException {
    List<IndexSpec[]> stores = new ArrayList<>();
    if (tenants != null) {
      for (Tenants.Tenant t : tenants.all()) {
        for (IndexSpec spec : t.collections().values()) {
          if (Indexes.exists(spec)) stores.add(new IndexSpec[] {spec, MemoryStores.beside(spec)});
        }
      }
    } else if (config.index() != null) {
      stores.add(new IndexSpec[] {config.index(), config.memory() != null ? config.memory() : MemoryStores.beside(config.index())});
    }
    int files = 0;
    long bytes = 0;
    for (IndexSpec[] s : stores) {
      List<StoreChecks.Checked> checked = StoreChecks.check(s[0], s[1]);
      String damage = StoreChecks.damage(checked);
      if (damage != null) {
        throw new IOException("--check-on-start: " + damage + "; not serving it ('ctxpack check --index " + s[0]
            + "' lists every damaged file)");
      }
      for (StoreChecks.Checked c : checked) {
        files += c.check().files();
        bytes += c.check().bytes();
      }
    }
    log.info("checked " + stores.size() + " indexes and their memory stores: " + files + " files, " + bytes + " bytes, intact");
  }

  private static boolean isLoopback(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
  }

  /** The port it listens on (the one chosen when it was started on port 0). */
  public int port() {
    return http.port();
  }

  /**
   * The embedder of {@code tenant}'s searches and document writes ({@code ""} without tenants), with
   * its own cache; null for a service without collections.
   */
  public Embedder embedder(String tenant) {
    return collections == null ? null : collections.embedder(tenant);
  }

  /** Stops the server (requests in flight finish, up to 10 s), then closes the indexes; idempotent. */
  @Override
  public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) return;
    try {
      http.close();
    } finally {
      if (collections != null) collections.close();
    }
  }
}
