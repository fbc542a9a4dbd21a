package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.Errors;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.JsonEndpoint;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.json.JavalinJackson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP side of {@code ctxpack serve}, on Javalin (embedded Jetty 12): each {@code POST} route
 * reads one JSON object from the request body and answers the JSON object its {@link JsonEndpoint}
 * returns; {@code GET /health} answers {@code {"status":"ok"}}, {@code GET /ready} {@code {"status":"ready"}}
 * (503 {@code {"status":"stopping"}} once {@link #close()} has begun) and {@code GET /metrics} the
 * {@link Metrics} in the Prometheus text format; {@code GET} of an {@link Builder#asset} answers a
 * classpath file (the inspector page) with {@link #ASSET_HEADERS}.
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
 * <p>Endpoints run on a pool of at most {@code maxConcurrent} threads (the slots): a request that
 * finds them all taken waits in a queue of at most {@code maxQueued} requests, first come first
 * served, and gets 503 {@code busy} at once when that queue is full. Jetty's thread waits for the
 * endpoint at most {@code requestTimeoutMillis} from the moment the request is queued, the wait
 * for a slot included, then answers 503 {@code timeout}: a request still queued leaves the queue,
 * a running endpoint is interrupted. A slot is given back when the endpoint really returns, so an
 * endpoint that ignores the interrupt keeps its slot and the cap still holds. Reading and parsing
 * the body happen on Jetty's thread, before the request is queued; Jetty has threads enough for
 * every slot and every queued request and {@link #SPARE_THREADS} more, so health, readiness and
 * metrics are answered while the queue is full. {@link #close()} stops taking connections and lets
 * requests in flight finish (up to {@link #STOP_GRACE_MILLIS}); it is idempotent.
 */
final class HttpService implements AutoCloseable {
  /** How long {@link #close()} waits for requests in flight. */
  static final long STOP_GRACE_MILLIS = 10_000;
  /** Jetty's threads beyond the slots and the queue: reading bodies, health, readiness, metrics. */
  static final int SPARE_THREADS = 64;

  private final Javalin app;
  private final ThreadPoolExecutor pool;
  private final AtomicBoolean stopping;
  private final AtomicBoolean closed = new AtomicBoolean();

  private HttpService(Javalin app, ThreadPoolExecutor pool, AtomicBoolean stopping) {
    this.app = app;
    this.pool = pool;
    this.stopping = stopping;
  }

  static Builder builder() {
    return new Builder();
  }

  /** The port it listens on (the one chosen when it was started on port 0). */
  int port() {
    return app.port();
  }

  /** How many requests are waiting for a slot now. */
  int queued() {
    return pool.getQueue().size();
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
      pool.shutdownNow();
    }
  }

  /** The routes and limits of a service, then {@link #start()}. */
  static final class Builder {
    private String host = ServiceConfig.DEFAULT_HOST;
    private int port = ServiceConfig.DEFAULT_PORT;
    private long maxBodyBytes = ServiceConfig.DEFAULT_MAX_BODY_BYTES;
    private long requestTimeoutMillis = ServiceConfig.DEFAULT_REQUEST_TIMEOUT_MILLIS;
    private int maxConcurrent = ServiceConfig.defaultMaxConcurrent();
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
     * starts; a missing one fails the start) as {@code contentType}, with {@link #ASSET_HEADERS}.
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
      Limits limits = new Limits(requestTimeoutMillis, maxConcurrent, maxQueued);
      // Each queued request holds a Jetty thread while it waits: enough of them for every slot and
      // every queued request, and spares (Javalin's own pool has 250 at most).
      int jettyThreads = Math.max(250, maxConcurrent + maxQueued + SPARE_THREADS);
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
          ASSET_HEADERS.forEach(ctx::header);
          ctx.contentType(types.get(path)).result(bytes);
        }));
        routes.forEach((path, handler) -> config.routes.post(path, ctx -> {
          Caller caller = caller(ctx, auth);
          ObjectNode request = Json.parseObject(body(ctx, cap));
          ObjectNode result = limits.run(r -> handler.handle(caller, r), request, out, ctx.method() + " " + ctx.path());
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
          ctx.json(limits.run(r -> handler.handle(caller, r), request, out, ctx.method() + " " + ctx.path()));
        }));
        lookups.forEach((path, handler) -> config.routes.get(path, ctx -> {
          Caller caller = caller(ctx, auth);
          ObjectNode request = Json.object();
          ctx.queryParamMap().forEach((k, v) -> {
            if (!v.isEmpty()) request.put(k, v.get(0));
          });
          ctx.json(limits.run(r -> handler.handle(caller, r), request, out, ctx.method() + " " + ctx.path()));
        }));
        down.forEach((path, why) -> config.routes.post(path, ctx -> {
          caller(ctx, auth);
          throw new HttpError(503, "unavailable", why);
        }));
        config.routes.exception(Exception.class, (e, ctx) -> error(ctx, e, out));
        // Javalin answers an unknown path or method itself; these give that answer our shape.
        config.routes.error(404, ctx -> {
          // A route's own 404 (no such document or collection) has its answer already.
          if (ctx.attribute(ERROR_CODE) != null) return;
          ctx.attribute(ERROR_CODE, "not_found");
          ctx.json(errorBody("not_found", "no such endpoint: " + ctx.method() + " " + ctx.path()));
        });
        config.routes.error(405, ctx -> {
          ctx.attribute(ERROR_CODE, "method_not_allowed");
          ctx.header("Allow", gets.contains(ctx.path()) ? "GET" : lookups.containsKey(ctx.path())
              ? (routes.containsKey(ctx.path()) ? "GET, POST" : "GET")
              : label(ctx.path(), known, prefixes).contains("<") ? "DELETE" : "POST");
          ctx.json(errorBody("method_not_allowed", ctx.method() + " is not allowed on " + ctx.path()));
        });
        // Every answer, errors included, once it is written: the endpoint label is the route, or
        // "other" for a path the service does not have (so clients cannot add series at will).
        config.requestLogger.http((ctx, ms) -> {
          String endpoint = label(ctx.path(), known, prefixes);
          int status = ctx.statusCode();
          metrics.request(endpoint, status, ctx.attribute(ERROR_CODE), ms / 1000.0);
        });
        config.router.javaLangErrorHandler((response, err) -> {
          out.fault("a request", err);
          try {
            response.setStatus(500);
            response.setContentType("application/json");
            response.getOutputStream().write(Json.line(errorBody("internal", INTERNAL)).getBytes(StandardCharsets.UTF_8));
          } catch (IOException | RuntimeException ignored) {
            // The response is gone already; the fault is logged.
          }
        });
      });
      try {
        app.start(host, port);
      } catch (RuntimeException e) {
        app.stop();
        limits.pool.shutdownNow();
        throw new IllegalStateException("cannot listen on " + host + ":" + port + ": " + Errors.message(e), e);
      }
      return new HttpService(app, limits.pool, stopping);
    }
  }

  static final String HEALTH = "/health";
  static final String READY = "/ready";
  static final String METRICS = "/metrics";
  private static final Set<String> GETS = Set.of(HEALTH, READY, METRICS);
  /**
   * The headers of every {@link Builder#asset}: revalidate each time (a new version of the service
   * may serve new files at the same paths), load scripts, styles and data from this origin only,
   * never sniff a type, never be framed, send no referrer.
   */
  static final Map<String, String> ASSET_HEADERS = Map.of(
      "Cache-Control", "no-cache",
      "Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "X-Content-Type-Options", "nosniff",
      "X-Frame-Options", "DENY",
      "Referrer-Policy", "no-referrer");

  /** A classpath resource served at a path. */
  private record Asset(String resource, String contentType) {
    byte[] read() {
      try (InputStream in = HttpService.class.getResourceAsStream(resource)) {
        if (in == null) throw new IllegalStateException("resource " + resource + " is not on the classpath");
        return in.readAllBytes();
      } catch (IOException e) {
        throw new IllegalStateException("cannot read resource " + resource + ": " + Errors.message(e), e);
      }
    }
  }

  /** The context attribute that carries an error answer's code to the metrics. */
  private static final String ERROR_CODE = "ctxpack.errorCode";
  private static final String INTERNAL = "internal error; the server's log has the details";

  /** A route's work: what {@code caller} asked by {@code request} (a POST's body; a DELETE's parameters) to the answer. */
  @FunctionalInterface
  interface Handler {
    ObjectNode handle(Caller caller, ObjectNode request) throws Exception;
  }

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

  /** An error with its HTTP status and code. */
  static final class HttpError extends RuntimeException {
    final int status;
    final String code;

    HttpError(int status, String code, String message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  /** The endpoint pool, its cap and its queue: see the class comment. */
  private static final class Limits {
    final long timeoutMillis;
    final int maxConcurrent;
    final int maxQueued;
    final ThreadPoolExecutor pool;

    Limits(long timeoutMillis, int maxConcurrent, int maxQueued) {
      this.timeoutMillis = timeoutMillis;
      this.maxConcurrent = maxConcurrent;
      this.maxQueued = maxQueued;
      AtomicInteger n = new AtomicInteger();
      ThreadFactory threads = r -> {
        Thread t = new Thread(r, "ctxpack-endpoint-" + n.incrementAndGet());
        t.setDaemon(true);
        return t;
      };
      // The threads are the slots; the executor's bounded queue is the waiting line (with no room
      // at all, a hand-off that only an idle thread takes).
      BlockingQueue<Runnable> queue = maxQueued == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(maxQueued);
      this.pool = new ThreadPoolExecutor(maxConcurrent, maxConcurrent, 0, TimeUnit.MILLISECONDS, queue, threads);
    }

    ObjectNode run(JsonEndpoint endpoint, ObjectNode request, ServiceLog log, String what) throws Exception {
      AtomicBoolean started = new AtomicBoolean();
      FutureTask<ObjectNode> task = new FutureTask<>(() -> {
        started.set(true);
        return endpoint.handle(request);
      });
      try {
        pool.execute(task);
      } catch (RejectedExecutionException e) {
        if (pool.isShutdown()) throw new HttpError(503, "unavailable", "the server is stopping");
        throw new HttpError(503, "busy", "the server is running its limit of " + maxConcurrent
            + " concurrent requests (--max-concurrent) and " + maxQueued + " more are waiting (--max-queued); try again");
      }
      try {
        return task.get(timeoutMillis, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        task.cancel(true);
        // Still queued: its place goes to the next request at once.
        pool.remove(task);
        throw new HttpError(503, "timeout", started.get()
            ? "the request took longer than the limit of " + timeoutMillis + " ms (--request-timeout-ms)"
            : "the request waited the whole limit of " + timeoutMillis + " ms (--request-timeout-ms) for one of the "
                + maxConcurrent + " slots (--max-concurrent); try again");
      } catch (InterruptedException e) {
        task.cancel(true);
        pool.remove(task);
        Thread.currentThread().interrupt();
        throw new HttpError(503, "unavailable", "the server is stopping");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Exception x) throw x;
        // An Error in the endpoint (e.g. a stack overflow) is a fault like any other.
        log.fault(what, cause);
        throw new HttpError(500, "internal", INTERNAL);
      }
    }
  }

  /**
   * The body as text: at most {@code cap} bytes (413 otherwise, whether or not a Content-Length
   * said so), strict UTF-8 (400 at the first bad byte), a leading byte-order mark dropped.
   */
  static String body(Context ctx, long cap) throws IOException {
    long declared = ctx.req().getContentLengthLong();
    InputStream in = ctx.req().getInputStream();
    byte[] chunk = new byte[8192];
    if (declared > cap) {
      // A client that sent no "Expect: 100-continue" is writing the body now: read (and drop) a
      // little of it so the 413 reaches the client instead of a reset connection.
      if (declared - cap <= DRAIN_BYTES) drain(in, chunk, declared);
      throw tooLarge(cap);
    }
    ByteArrayOutputStream buf = new ByteArrayOutputStream(declared > 0 ? (int) declared : 8192);
    long total = 0;
    for (int n; (n = in.read(chunk)) != -1; ) {
      total += n;
      if (total > cap) {
        drain(in, chunk, DRAIN_BYTES);
        throw tooLarge(cap);
      }
      buf.write(chunk, 0, n);
    }
    ByteBuffer bytes = ByteBuffer.wrap(buf.toByteArray());
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes).toString();
    } catch (CharacterCodingException e) {
      throw new HttpError(400, "bad_request", "the request body is not valid UTF-8 (byte " + bytes.position() + ")");
    }
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /** How much of an over-long body is read and dropped before the 413 goes out. */
  static final long DRAIN_BYTES = 1L << 20;

  private static void drain(InputStream in, byte[] chunk, long most) {
    long read = 0;
    try {
      for (int n; read < most && (n = in.read(chunk)) != -1; ) read += n;
    } catch (IOException ignored) {
      // the client went away: nothing to answer
    }
  }

  private static HttpError tooLarge(long cap) {
    return new HttpError(413, "too_large", "the request body is larger than " + cap + " bytes");
  }

  private static void error(Context ctx, Exception e, ServiceLog log) {
    int status;
    String code;
    String message;
    if (e instanceof HttpError h) {
      status = h.status;
      code = h.code;
      message = h.getMessage();
    } else if (e instanceof IllegalArgumentException || e instanceof UsageException) {
      status = 400;
      code = "bad_request";
      message = Errors.message(e);
    } else if (e instanceof HttpResponseException h) {
      // One of Javalin's own (its 404 and 405 are rewritten by the error handlers in start()).
      status = h.getStatus();
      code = codeOf(status);
      message = Errors.message(e);
    } else {
      log.fault(ctx.method() + " " + ctx.path(), e);
      status = 500;
      code = "internal";
      message = INTERNAL;
    }
    ctx.attribute(ERROR_CODE, code);
    if (status == 401) ctx.header("WWW-Authenticate", "Bearer realm=\"ctxpack\"");
    ctx.status(status).json(errorBody(code, message));
  }

  /** The code of one of Javalin's own errors. */
  private static String codeOf(int status) {
    return switch (status) {
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 413 -> "too_large";
      default -> status < 500 ? "bad_request" : "internal";
    };
  }

  static ObjectNode errorBody(String code, String message) {
    ObjectNode o = Json.object();
    o.putObject("error").put("code", code).put("message", message);
    return o;
  }
}
