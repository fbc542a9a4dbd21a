package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Errors;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.JsonEndpoint;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.json.JavalinJackson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP side of {@code ctxpack serve}, on Javalin (embedded Jetty 12): each {@code POST} route
 * reads one JSON object from the request body and answers the JSON object its {@link JsonEndpoint}
 * returns; {@code GET /health} answers {@code {"status":"ok"}}, {@code GET /ready} {@code {"status":"ready"}}
 * (503 {@code {"status":"stopping"}} once {@link #close()} has begun) and {@code GET /metrics} the
 * {@link Metrics} in the Prometheus text format; {@code GET} of an {@link Builder#asset} answers a
 * classpath file (the inspector page) with {@link Asset#HEADERS}.
 *
 * <p>Errors are {@code {"error": {"code", "message"}}}: 400 {@code bad_request} for a body that is
 * not UTF-8, not JSON, not an object, nested deeper than 64, or that the endpoint refuses
 * ({@link IllegalArgumentException}, {@link UsageException}: the message names the field, as a batch
 * error line does); 401 {@code unauthorized} when the {@link Builder#authenticator} names no caller
 * for the request's {@code Authorization} header; 403 {@code forbidden} and other statuses a route
 * throws as an {@link HttpError}; 404 {@code not_found}; 405 {@code method_not_allowed} (with {@code Allow}); 413
 * {@code too_large} for a body over the cap; 503 {@code unavailable} for a route the service was
 * started without (see {@link Builder#unavailable}); 500 {@code internal} for any other exception,
 * whose stack trace goes to the log and never to the client.
 *
 * <p>Endpoints run in two classes of slots, each an {@link EndpointPool} with its own threads and
 * queue: the routes given to {@link Builder#heavy} (whose work grows with what the request carries:
 * pack, assemble, compress, dedup, verify, adding documents) on {@code maxConcurrentHeavy} threads,
 * every other route on the rest of the {@code maxConcurrent} (at least one), so a light request
 * never waits behind a heavy one. A request that finds its class's slots all taken waits in that
 * class's queue of at most {@code maxQueued} requests, first come first served, and gets 503
 * {@code busy} at once when that queue is full. Jetty's thread waits for the endpoint at most
 * {@code requestTimeoutMillis} from the moment the request is queued, the wait for a slot included,
 * then answers 503 {@code timeout}: a request still queued leaves the queue, a running endpoint is
 * stopped (its {@link dev.ctxpack.model.Deadline} passes and its thread is interrupted) and the
 * answer waits for it to return. A slot is given back when the endpoint really returns, so an
 * endpoint that ignores both keeps its slot and the cap still holds. Reading and parsing the body
 * happen on Jetty's thread, before the request is queued; Jetty has threads enough for every slot
 * and every queued request and {@link #SPARE_THREADS} more, so health, readiness and metrics are
 * answered while the queues are full. {@link #close()} stops taking connections and lets
 * requests in flight finish (up to {@link #STOP_GRACE_MILLIS}); it is idempotent.
 *
 * <p>Its parts: {@link RequestBody} reads a body, {@link EndpointPool} runs the endpoints, {@link
 * ErrorAnswers} writes the errors; the routes' work is a {@link Handler} (for a caller) or a {@link
 * JsonEndpoint}.
 */
final class HttpService implements AutoCloseable {
  /** How long {@link #close()} waits for requests in flight. */
  static final long STOP_GRACE_MILLIS = 10_000;
  /** Jetty's threads beyond the slots and the queue: reading bodies, health, readiness, metrics. */
  static final int SPARE_THREADS = 64;

  private final Javalin app;
  private final EndpointPool light;
  private final EndpointPool heavy;
  private final AtomicBoolean stopping;
  private final AtomicBoolean closed = new AtomicBoolean();

  private HttpService(Javalin app, EndpointPool light, EndpointPool heavy, AtomicBoolean stopping) {
    this.app = app;
    this.light = light;
    this.heavy = heavy;
    this.stopping = stopping;
  }

  static Builder builder() {
    return new Builder();
  }

  /** The port it listens on (the one chosen when it was started on port 0). */
  int port() {
    return app.port();
  }

  /** How many requests are waiting for a slot now, of both classes. */
  int queued() {
    return light.pool.getQueue().size() + heavy.pool.getQueue().size();
  }

  /** How many heavy endpoints are running now. */
  int heavyRunning() {
    return heavy.running();
  }

  /** From now on {@code GET /ready} answers 503 {@code stopping}; the first step of {@link #close()}. */
  void markStopping() {
    stopping.set(true);
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) return;
    markStopping();
    try {
      app.stop();
    } finally {
      light.pool.shutdownNow();
      heavy.pool.shutdownNow();
    }
  }

  /** The routes and limits of a service, then {@link #start()}. */
  static final class Builder {
    private String host = ServiceConfig.DEFAULT_HOST;
    private int port = ServiceConfig.DEFAULT_PORT;
    private long maxBodyBytes = ServiceConfig.DEFAULT_MAX_BODY_BYTES;
    private long requestTimeoutMillis = ServiceConfig.DEFAULT_REQUEST_TIMEOUT_MILLIS;
    private int maxConcurrent = ServiceConfig.defaultMaxConcurrent();
    private int maxConcurrentHeavy;
    private final Set<String> heavyPaths = new HashSet<>();
    private int maxQueued = ServiceConfig.DEFAULT_MAX_QUEUED;
    private ServiceLog log = ServiceLog.text(new PrintWriter(System.err, true));
    private final Map<String, Handler> posts = new LinkedHashMap<>();
    private final Map<String, Handler> deletes = new LinkedHashMap<>();
    private final Map<String, Handler> reads = new LinkedHashMap<>();
    private final Map<String, String> unavailable = new LinkedHashMap<>();
    private java.util.function.Function<String, java.util.Optional<Caller>> authenticator = header -> java.util.Optional.of(Caller.LOCAL);
    private Metrics metrics = new Metrics();
    private final Map<String, Asset> assets = new LinkedHashMap<>();

    private Builder() {}

    Builder host(String host) {
      this.host = host;
      return this;
    }

    /** The port to listen on; 0 for any free one ({@link HttpService#port()} tells which). */
    Builder port(int port) {
      this.port = ServiceConfig.checkPort(port);
      return this;
    }

    Builder maxBodyBytes(long max) {
      this.maxBodyBytes = ServiceConfig.checkMaxBodyBytes(max);
      return this;
    }

    /** How long an endpoint may run before its request gets 503 {@code timeout} and it is interrupted. */
    Builder requestTimeoutMillis(long millis) {
      this.requestTimeoutMillis = ServiceConfig.checkRequestTimeoutMillis(millis);
      return this;
    }

    /** How many endpoints may run at once; more wait in the queue ({@link #maxQueued}). */
    Builder maxConcurrent(int max) {
      this.maxConcurrent = ServiceConfig.checkMaxConcurrent(max);
      return this;
    }

    /**
     * How many heavy endpoints ({@link #heavy}) may run at once, out of {@link #maxConcurrent}; 0
     * (the default) for {@link ServiceConfig#defaultMaxConcurrentHeavy}. The light ones get the
     * other slots, at least one.
     */
    Builder maxConcurrentHeavy(int max) {
      this.maxConcurrentHeavy = max == 0 ? 0 : ServiceConfig.checkMaxConcurrentHeavy(max);
      return this;
    }

    /** These routes (POST, DELETE or GET paths as registered) run in the heavy slots; the others in the light ones. */
    Builder heavy(String... paths) {
      heavyPaths.addAll(java.util.List.of(paths));
      return this;
    }

    /** The metrics {@code GET /metrics} shows (the routes may add to them, e.g. stage times); new ones by default. */
    Builder metrics(Metrics metrics) {
      this.metrics = java.util.Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /** How many requests may wait for a slot; more get 503 {@code busy} at once (0: no waiting). */
    Builder maxQueued(int max) {
      this.maxQueued = ServiceConfig.checkMaxQueued(max);
      return this;
    }

    /** Where faults are logged, with their stack traces. */
    Builder log(ServiceLog log) {
      this.log = java.util.Objects.requireNonNull(log, "log");
      return this;
    }

    /** {@code POST path}: the body is one request for {@code endpoint}, the answer its result. */
    Builder post(String path, JsonEndpoint endpoint) {
      return post(path, (caller, request) -> endpoint.handle(request));
    }

    /** {@code POST path}: the body is one request for {@code handler}, run for the request's caller. */
    Builder post(String path, Handler handler) {
      checkNew(path);
      posts.put(path, handler);
      return this;
    }

    /**
     * {@code DELETE path}, where {@code path} ends with a parameter in Javalin's {@code <name>} form
     * (which takes the rest of the path, slashes included): the request object holds the path's
     * parameters and the query's (first value of each), e.g. {@code {"id": "...", "collection": "..."}}.
     */
    Builder delete(String path, Handler handler) {
      checkNew(path);
      deletes.put(path, handler);
      return this;
    }

    /**
     * {@code GET path} for a caller (unlike health and metrics, it needs one): the request object
     * holds the query's parameters (first value of each), e.g. {@code {"user": "..."}}. The path may
     * also have a POST route.
     */
    Builder get(String path, Handler handler) {
      if (!path.startsWith("/")) throw new IllegalArgumentException("a path starts with '/': " + path);
      if (GETS.contains(path) || reads.containsKey(path) || assets.containsKey(path)) {
        throw new IllegalArgumentException("route GET " + path + " given twice");
      }
      reads.put(path, handler);
      return this;
    }

    /**
     * How a request's {@code Authorization} header (null when absent) names its caller: empty means
     * 401 {@code unauthorized}. By default every request is {@link Caller#LOCAL}. {@code GET} routes
     * (health, readiness, metrics) need no caller.
     */
    Builder authenticator(java.util.function.Function<String, java.util.Optional<Caller>> authenticator) {
      this.authenticator = java.util.Objects.requireNonNull(authenticator, "authenticator");
      return this;
    }

    /** {@code POST path} answers 503 {@code unavailable} with {@code why} (e.g. search without an index). */
    Builder unavailable(String path, String why) {
      checkNew(path);
      unavailable.put(path, why);
      return this;
    }

    /**
     * {@code GET path} answers the classpath resource {@code resource} (read once, when the service
     * starts; a missing one fails the start) as {@code contentType}, with {@link Asset#HEADERS}.
     */
    Builder asset(String path, String resource, String contentType) {
      checkNew(path);
      assets.put(path, new Asset(resource, contentType));
      return this;
    }

    private void checkNew(String path) {
      if (!path.startsWith("/")) throw new IllegalArgumentException("a path starts with '/': " + path);
      if (path.equals(HEALTH) || path.equals(READY) || path.equals(METRICS) || posts.containsKey(path)
          || deletes.containsKey(path) || unavailable.containsKey(path) || assets.containsKey(path)) {
        throw new IllegalArgumentException("route " + path + " given twice");
      }
    }

    /** Starts listening; fails if the address cannot be bound. */
    HttpService start() {
      Map<String, Handler> routes = Map.copyOf(posts);
      Map<String, Handler> removals = Map.copyOf(deletes);
      Map<String, Handler> lookups = Map.copyOf(reads);
      Map<String, String> down = Map.copyOf(unavailable);
      var auth = authenticator;
      long cap = maxBodyBytes;
      ServiceLog out = log;
      int heavySlots = maxConcurrentHeavy == 0 ? ServiceConfig.defaultMaxConcurrentHeavy(maxConcurrent) : maxConcurrentHeavy;
      if (heavySlots > maxConcurrent) {
        throw new dev.ctxpack.app.UsageException("--max-concurrent-heavy (" + heavySlots
            + ") must not exceed --max-concurrent (" + maxConcurrent + ")");
      }
      int lightSlots = Math.max(1, maxConcurrent - heavySlots);
      EndpointPool lightPool = new EndpointPool("light", "--max-concurrent minus --max-concurrent-heavy", requestTimeoutMillis,
          lightSlots, maxQueued);
      EndpointPool heavyPool = new EndpointPool("heavy", "--max-concurrent-heavy", requestTimeoutMillis, heavySlots, maxQueued);
      Set<String> heavyRoutes = Set.copyOf(heavyPaths);
      java.util.function.Function<String, EndpointPool> poolOf = path -> heavyRoutes.contains(path) ? heavyPool : lightPool;
      // Each queued request holds a Jetty thread while it waits: enough of them for every slot and
      // every queued request of both classes, and spares (Javalin's own pool has 250 at most).
      int jettyThreads = Math.max(250, lightSlots + heavySlots + 2 * maxQueued + SPARE_THREADS);
      AtomicBoolean stopping = new AtomicBoolean();
      Metrics metrics = this.metrics;
      Map<String, byte[]> files = new LinkedHashMap<>();
      Map<String, String> types = new HashMap<>();
      assets.forEach((path, a) -> {
        files.put(path, a.read());
        types.put(path, a.contentType());
      });
      Set<String> gets = new HashSet<>(GETS);
      gets.addAll(files.keySet());
      Set<String> known = new HashSet<>(gets);
      known.addAll(routes.keySet());
      known.addAll(down.keySet());
      known.addAll(lookups.keySet());
      Map<String, String> prefixes = new LinkedHashMap<>();
      for (String path : removals.keySet()) prefixes.put(path.substring(0, path.indexOf('<')), path);
      Javalin app = Javalin.create(config -> {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        // The project's Jackson (2.x, the CLI's mapper and its 64-level nesting limit) writes the JSON.
        config.jsonMapper(new JavalinJackson(Json.MAPPER, false));
        config.http.maxRequestSize = cap;
        config.http.prefer405over404 = true;
        QueuedThreadPool jettyPool = new QueuedThreadPool(jettyThreads, 8, 60_000);
        jettyPool.setName("ctxpack-http");
        config.jetty.threadPool = jettyPool;
        config.jetty.modifyServer(server -> {
          server.insertHandler(new GracefulHandler());
          server.setErrorHandler(new JettyErrors());
          server.setStopTimeout(STOP_GRACE_MILLIS);
        });
        config.routes.get(HEALTH, ctx -> ctx.json(Json.object().put("status", "ok")));
        // The service starts only once the components are loaded, so it is ready until it stops.
        config.routes.get(READY, ctx -> {
          if (stopping.get()) ctx.status(503).json(Json.object().put("status", "stopping"));
          else ctx.json(Json.object().put("status", "ready"));
        });
        config.routes.get(METRICS, ctx -> ctx.contentType(Metrics.CONTENT_TYPE).result(metrics.render()));
        files.forEach((path, bytes) -> config.routes.get(path, ctx -> {
          Asset.HEADERS.forEach(ctx::header);
          ctx.contentType(types.get(path)).result(bytes);
        }));
        routes.forEach((path, handler) -> config.routes.post(path, ctx -> {
          Caller caller = caller(ctx, auth);
          ObjectNode request = Json.parseObject(RequestBody.read(ctx, cap));
          ObjectNode result = poolOf.apply(path).run(r -> handler.handle(caller, r), request, out,
              ctx.method() + " " + ctx.path());
          metrics.result(path, result);
          ctx.json(result);
        }));
        removals.forEach((path, handler) -> config.routes.delete(path, ctx -> {
          Caller caller = caller(ctx, auth);
          ObjectNode request = Json.object();
          ctx.queryParamMap().forEach((k, v) -> {
            if (!v.isEmpty()) request.put(k, v.get(0));
          });
          ctx.pathParamMap().forEach(request::put);
          ctx.json(poolOf.apply(path).run(r -> handler.handle(caller, r), request, out, ctx.method() + " " + ctx.path()));
        }));
        lookups.forEach((path, handler) -> config.routes.get(path, ctx -> {
          Caller caller = caller(ctx, auth);
          ObjectNode request = Json.object();
          ctx.queryParamMap().forEach((k, v) -> {
            if (!v.isEmpty()) request.put(k, v.get(0));
          });
          ctx.json(poolOf.apply(path).run(r -> handler.handle(caller, r), request, out, ctx.method() + " " + ctx.path()));
        }));
        down.forEach((path, why) -> config.routes.post(path, ctx -> {
          caller(ctx, auth);
          throw new HttpError(503, "unavailable", why);
        }));
        config.routes.exception(Exception.class, (e, ctx) -> ErrorAnswers.answer(ctx, e, out));
        // Javalin answers an unknown path or method itself; these give that answer our shape.
        config.routes.error(404, ctx -> {
          // A route's own 404 (no such document or collection) has its answer already.
          if (ctx.attribute(ErrorAnswers.ERROR_CODE) != null) return;
          ctx.attribute(ErrorAnswers.ERROR_CODE, "not_found");
          ctx.json(ErrorAnswers.errorBody("not_found", "no such endpoint: " + ctx.method() + " " + ctx.path()));
        });
        config.routes.error(405, ctx -> {
          ctx.attribute(ErrorAnswers.ERROR_CODE, "method_not_allowed");
          ctx.header("Allow", gets.contains(ctx.path()) ? "GET" : lookups.containsKey(ctx.path())
              ? (routes.containsKey(ctx.path()) ? "GET, POST" : "GET")
              : label(ctx.path(), known, prefixes).contains("<") ? "DELETE" : "POST");
          ctx.json(ErrorAnswers.errorBody("method_not_allowed", ctx.method() + " is not allowed on " + ctx.path()));
        });
        // Every answer, errors included, once it is written: the endpoint label is the route, or
        // "other" for a path the service does not have (so clients cannot add series at will).
        config.requestLogger.http((ctx, ms) -> {
          String endpoint = label(ctx.path(), known, prefixes);
          int status = ctx.statusCode();
          metrics.request(endpoint, status, ctx.attribute(ErrorAnswers.ERROR_CODE), ms / 1000.0);
        });
        config.router.javaLangErrorHandler((response, err) -> {
          out.fault("a request", err);
          try {
            response.setStatus(500);
            response.setContentType("application/json");
            response.getOutputStream().write(Json.line(ErrorAnswers.errorBody("internal", ErrorAnswers.INTERNAL)).getBytes(StandardCharsets.UTF_8));
          } catch (IOException | RuntimeException ignored) {
            // The response is gone already; the fault is logged.
          }
        });
      });
      try {
        app.start(host, port);
      } catch (RuntimeException e) {
        app.stop();
        lightPool.pool.shutdownNow();
        heavyPool.pool.shutdownNow();
        throw new IllegalStateException("cannot listen on " + host + ":" + port + ": " + Errors.message(e), e);
      }
      return new HttpService(app, lightPool, heavyPool, stopping);
    }
  }

  static final String HEALTH = "/health";
  static final String READY = "/ready";
  static final String METRICS = "/metrics";
  private static final Set<String> GETS = Set.of(HEALTH, READY, METRICS);
  /** The request's caller, or 401 {@code unauthorized} (the same answer for a missing, malformed or unknown key). */
  private static Caller caller(Context ctx, java.util.function.Function<String, java.util.Optional<Caller>> auth) {
    return auth.apply(ctx.header("Authorization")).orElseThrow(() -> new HttpError(401, "unauthorized",
        "this service needs an API key: send 'Authorization: Bearer KEY' with a key of --tenants"));
  }

  /** The metrics label of {@code path}: its route ({@code /v1/documents/<id>} for any id), or "other". */
  private static String label(String path, Set<String> known, Map<String, String> prefixes) {
    if (known.contains(path)) return path;
    for (var p : prefixes.entrySet()) {
      if (path.startsWith(p.getKey()) && path.length() > p.getKey().length()) return p.getValue();
    }
    return "other";
  }
}
