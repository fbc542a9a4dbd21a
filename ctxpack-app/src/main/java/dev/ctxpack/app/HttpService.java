package dev.ctxpack.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.handler.GracefulHandler;

/**
 * The HTTP side of {@code ctxpack serve}, on Javalin (embedded Jetty 12): each {@code POST} route
 * reads one JSON object from the request body and answers the JSON object its {@link JsonEndpoint}
 * returns; {@code GET /health} answers {@code {"status":"ok"}}.
 *
 * <p>Errors are {@code {"error": {"code", "message"}}}: 400 {@code bad_request} for a body that is
 * not UTF-8, not JSON, not an object, nested deeper than 64, or that the endpoint refuses
 * ({@link IllegalArgumentException}, {@link UsageException}: the message names the field, as a batch
 * error line does); 404 {@code not_found}; 405 {@code method_not_allowed} (with {@code Allow}); 413
 * {@code too_large} for a body over the cap; 503 {@code unavailable} for a route the service was
 * started without (see {@link Builder#unavailable}); 500 {@code internal} for any other exception,
 * whose stack trace goes to the log and never to the client.
 *
 * <p>Endpoints run concurrently on Jetty's threads. {@link #close()} stops taking connections and
 * lets requests in flight finish (up to {@link #STOP_GRACE_MILLIS}); it is idempotent.
 */
final class HttpService implements AutoCloseable {
  /** The default cap on a request body: 10 MiB. */
  static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;
  /** How long {@link #close()} waits for requests in flight. */
  static final long STOP_GRACE_MILLIS = 10_000;

  private final Javalin app;
  private final AtomicBoolean closed = new AtomicBoolean();

  private HttpService(Javalin app) {
    this.app = app;
  }

  static Builder builder() {
    return new Builder();
  }

  /** The port it listens on (the one chosen when it was started on port 0). */
  int port() {
    return app.port();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) app.stop();
  }

  /** The routes and limits of a service, then {@link #start()}. */
  static final class Builder {
    private String host = "127.0.0.1";
    private int port = 8080;
    private long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private PrintWriter log = new PrintWriter(System.err, true);
    private final Map<String, JsonEndpoint> posts = new LinkedHashMap<>();
    private final Map<String, String> unavailable = new LinkedHashMap<>();

    private Builder() {}

    Builder host(String host) {
      this.host = host;
      return this;
    }

    /** The port to listen on; 0 for any free one ({@link HttpService#port()} tells which). */
    Builder port(int port) {
      if (port < 0 || port > 65535) throw new UsageException("--port must be in [0, 65535], was " + port);
      this.port = port;
      return this;
    }

    Builder maxBodyBytes(long max) {
      if (max < 1) throw new UsageException("--max-body-bytes must be at least 1, was " + max);
      this.maxBodyBytes = max;
      return this;
    }

    /** Where faults are logged, with their stack traces. */
    Builder log(PrintWriter log) {
      this.log = log;
      return this;
    }

    /** {@code POST path}: the body is one request for {@code endpoint}, the answer its result. */
    Builder post(String path, JsonEndpoint endpoint) {
      checkNew(path);
      posts.put(path, endpoint);
      return this;
    }

    /** {@code POST path} answers 503 {@code unavailable} with {@code why} (e.g. search without an index). */
    Builder unavailable(String path, String why) {
      checkNew(path);
      unavailable.put(path, why);
      return this;
    }

    private void checkNew(String path) {
      if (!path.startsWith("/")) throw new IllegalArgumentException("a path starts with '/': " + path);
      if (path.equals(HEALTH) || posts.containsKey(path) || unavailable.containsKey(path)) {
        throw new IllegalArgumentException("route " + path + " given twice");
      }
    }

    /** Starts listening; fails if the address cannot be bound. */
    HttpService start() {
      Map<String, JsonEndpoint> routes = Map.copyOf(posts);
      Map<String, String> down = Map.copyOf(unavailable);
      long cap = maxBodyBytes;
      PrintWriter out = log;
      Javalin app = Javalin.create(config -> {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        // The project's Jackson (2.x, the CLI's mapper and its 64-level nesting limit) writes the JSON.
        config.jsonMapper(new JavalinJackson(Json.MAPPER, false));
        config.http.maxRequestSize = cap;
        config.http.prefer405over404 = true;
        config.jetty.modifyServer(server -> {
          server.insertHandler(new GracefulHandler());
          server.setStopTimeout(STOP_GRACE_MILLIS);
        });
        config.routes.get(HEALTH, ctx -> ctx.json(Json.object().put("status", "ok")));
        routes.forEach((path, endpoint) -> config.routes.post(path, ctx -> {
          ObjectNode request = Json.parseObject(body(ctx, cap));
          ctx.json(endpoint.handle(request));
        }));
        down.forEach((path, why) -> config.routes.post(path, ctx -> {
          throw new HttpError(503, "unavailable", why);
        }));
        config.routes.exception(Exception.class, (e, ctx) -> error(ctx, e, out));
        // Javalin answers an unknown path or method itself; these give that answer our shape.
        config.routes.error(404, ctx -> ctx.json(errorBody("not_found", "no such endpoint: " + ctx.method() + " " + ctx.path())));
        config.routes.error(405, ctx -> {
          ctx.header("Allow", ctx.path().equals(HEALTH) ? "GET" : "POST");
          ctx.json(errorBody("method_not_allowed", ctx.method() + " is not allowed on " + ctx.path()));
        });
        config.router.javaLangErrorHandler((response, err) -> {
          logFault("a request", err, out);
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
        throw new IllegalStateException("cannot listen on " + host + ":" + port + ": " + Errors.message(e), e);
      }
      return new HttpService(app);
    }
  }

  static final String HEALTH = "/health";
  private static final String INTERNAL = "internal error; the server's log has the details";

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

  /**
   * The body as text: at most {@code cap} bytes (413 otherwise, whether or not a Content-Length
   * said so), strict UTF-8 (400 at the first bad byte), a leading byte-order mark dropped.
   */
  static String body(Context ctx, long cap) throws IOException {
    long declared = ctx.req().getContentLengthLong();
    if (declared > cap) throw tooLarge(cap);
    ByteArrayOutputStream buf = new ByteArrayOutputStream(declared > 0 ? (int) declared : 8192);
    InputStream in = ctx.req().getInputStream();
    byte[] chunk = new byte[8192];
    long total = 0;
    for (int n; (n = in.read(chunk)) != -1; ) {
      total += n;
      if (total > cap) throw tooLarge(cap);
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

  private static HttpError tooLarge(long cap) {
    return new HttpError(413, "too_large", "the request body is larger than " + cap + " bytes");
  }

  private static void error(Context ctx, Exception e, PrintWriter log) {
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
      code = switch (status) {
        case 404 -> "not_found";
        case 405 -> "method_not_allowed";
        case 413 -> "too_large";
        default -> status < 500 ? "bad_request" : "internal";
      };
      message = Errors.message(e);
    } else {
      logFault(ctx.method() + " " + ctx.path(), e, log);
      status = 500;
      code = "internal";
      message = INTERNAL;
    }
    ctx.status(status).json(errorBody(code, message));
  }

  static ObjectNode errorBody(String code, String message) {
    ObjectNode o = Json.object();
    o.putObject("error").put("code", code).put("message", message);
    return o;
  }

  private static void logFault(String what, Throwable t, PrintWriter log) {
    synchronized (log) {
      log.println("ctxpack serve: " + what + " failed: " + t);
      t.printStackTrace(log);
      log.flush();
    }
  }
}
