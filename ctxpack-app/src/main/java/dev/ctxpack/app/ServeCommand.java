package dev.ctxpack.app;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.lucene.LuceneIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ctxpack serve}: the batch commands over HTTP. {@code POST /v1/<command>} takes exactly the
 * JSON of one {@code --batch} line of that command and answers exactly the JSON that line would
 * produce, through the same {@link JsonEndpoint}, with that command's default options. The index,
 * embedders and packer are opened once and shared by every request; they are closed when the
 * service stops (the JVM's shutdown: Ctrl-C, SIGTERM).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Serve search, pack, compress and dedup over HTTP: POST /v1/<command> takes one --batch line's"
        + " JSON and answers that line's result; GET /health, /ready and /metrics. Runs until stopped (Ctrl-C, SIGTERM).")
final class ServeCommand implements Callable<Integer> {
  static final String NO_INDEX = "no index: start ctxpack serve with --index DIR (an index made by ctxpack ingest)";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1",
      description = "Address to listen on. Default: ${DEFAULT-VALUE} (this machine only).")
  String host;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080", description = "Port to listen on; 0 for any free one. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--index", paramLabel = "DIR",
      description = "Index directory (default: $CTXPACK_INDEX or ./.ctxpack). Without one given and none at ./.ctxpack,"
          + " only compress and dedup are served.")
  Path index;

  @Option(names = "--embedder", paramLabel = "SPEC", defaultValue = "minilm",
      description = "Embedder, as at ingest: minilm (default), onnx:..., openai:...; compress and dedup also take none.")
  String embedder;

  @Option(names = "--max-body-bytes", paramLabel = "N", defaultValue = "10485760",
      description = "Largest request body accepted, in bytes; larger ones get 413. Default: ${DEFAULT-VALUE} (10 MiB).")
  long maxBodyBytes;

  @Option(names = "--request-timeout-ms", paramLabel = "MS", defaultValue = "30000",
      description = "Longest a request may run; a longer one gets 503 timeout and is interrupted. Default: ${DEFAULT-VALUE}.")
  long requestTimeoutMillis;

  @Option(names = "--max-concurrent", paramLabel = "N",
      description = "Most requests run at once; more wait in a queue (--max-queued). Default: twice the processors (${DEFAULT-VALUE}).")
  int maxConcurrent = HttpService.defaultMaxConcurrent();

  @Option(names = "--max-queued", paramLabel = "N", defaultValue = "" + HttpService.DEFAULT_MAX_QUEUED,
      description = "Most requests waiting for one of the --max-concurrent slots, the wait counted within --request-timeout-ms;"
          + " more get 503 busy at once. Default: ${DEFAULT-VALUE}.")
  int maxQueued;

  /** The index used when none is given, if it exists (a field so tests can point it elsewhere). */
  Path defaultIndex = Path.of(".ctxpack");

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Running running = start(err);
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    // On Ctrl-C or SIGTERM the hook wakes this thread, which stops the server and closes the index,
    // and waits for that before letting the JVM go.
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        stopped.await(HttpService.STOP_GRACE_MILLIS + 5_000, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "ctxpack-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      stop.await();
    } finally {
      try {
        running.close();
        err.println("ctxpack serve: stopped");
        err.flush();
      } finally {
        stopped.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // The JVM is stopping: the hook is running.
        }
      }
    }
    return ExitCodes.OK;
  }

  /** Opens the components, starts listening and says where on {@code log}; the caller closes it. */
  Running start(PrintWriter log) throws IOException {
    String env = System.getenv("CTXPACK_INDEX");
    Path given = index != null ? index : env != null && !env.isBlank() ? Path.of(env) : null;
    Path path = given != null ? given : defaultIndex;
    // An index given is required; the default one only if it is there (compress and dedup need none).
    LuceneIndex idx = given != null || Files.isDirectory(path) ? Components.openExisting(path) : null;
    try {
      HttpService.Builder routes = HttpService.builder().host(host).port(port).maxBodyBytes(maxBodyBytes)
          .requestTimeoutMillis(requestTimeoutMillis).maxConcurrent(maxConcurrent).maxQueued(maxQueued).log(log);
      endpoints(routes, idx);
      HttpService service = routes.start();
      String where = host.contains(":") ? "[" + host + "]" : host;
      log.println("ctxpack serve: listening on http://" + where + ":" + service.port() + " ("
          + (idx != null ? "index " + path : "no index: /v1/search and /v1/pack answer 503; give --index DIR") + ")");
      log.flush();
      return new Running(service, idx);
    } catch (IOException | RuntimeException e) {
      if (idx != null) idx.close();
      throw e;
    }
  }

  /**
   * The routes. Each is the {@link JsonEndpoint} the command's {@code --batch} mode runs, built
   * from that command's default options; a new command's endpoint is one more line here.
   */
  private void endpoints(HttpService.Builder routes, LuceneIndex idx) throws IOException {
    if (idx != null) {
      Embedder e = Components.searchEmbedder(idx, embedder);
      routes.post("/v1/search", defaults(new SearchCommand()).endpoint(idx, e));
      routes.post("/v1/pack", defaults(new PackCommand()).endpoint(idx, e));
    } else {
      routes.unavailable("/v1/search", NO_INDEX).unavailable("/v1/pack", NO_INDEX);
    }
    routes.post("/v1/compress", defaults(new CompressCommand(), "--embedder", embedder).endpoint());
    routes.post("/v1/dedup", defaults(new DedupCommand(), "--embedder", embedder).endpoint());
    routes.post("/v1/verify", defaults(new VerifyCommand(), "--embedder", embedder).endpoint());
  }

  /** {@code command} with its options as the CLI would parse {@code args}: its defaults otherwise. */
  static <T> T defaults(T command, String... args) {
    CommandLine cl = new CommandLine(command);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.parseArgs(args);
    return command;
  }

  /** A started service and the index it holds open: {@link #close()} stops the server, then closes the index. */
  static final class Running implements AutoCloseable {
    private final HttpService service;
    private final LuceneIndex index;
    private final AtomicBoolean closed = new AtomicBoolean();

    Running(HttpService service, LuceneIndex index) {
      this.service = service;
      this.index = index;
    }

    int port() {
      return service.port();
    }

    @Override
    public void close() throws IOException {
      if (!closed.compareAndSet(false, true)) return;
      try {
        service.close();
      } finally {
        if (index != null) index.close();
      }
    }
  }
}
