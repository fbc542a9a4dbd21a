package dev.ctxpack.app;

import dev.ctxpack.app.json.AssembleEndpoint;
import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.AccessTermsAudit;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ctxpack serve}: the batch commands over HTTP. {@code POST /v1/<command>} takes exactly the
 * JSON of one {@code --batch} line of that command and answers exactly the JSON that line would
 * produce, through the same {@link JsonEndpoint}, with that command's default options. The index,
 * embedders and packer are opened once and shared by every request; they are closed when the
 * service stops (the JVM's shutdown: Ctrl-C, SIGTERM).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Serve search, pack, assemble, compress, dedup and verify over HTTP: POST /v1/<command> takes one --batch line's"
        + " JSON and answers that line's result; POST /v1/documents and DELETE /v1/documents/<id> change the index;"
        + " POST, GET /v1/memories and DELETE /v1/memories/<id> a user's memories;"
        + " GET /health, /ready and /metrics; GET / is the inspector page. With --tenants, API keys, collections and"
        + " access labels."
        + " Runs until stopped (Ctrl-C, SIGTERM).")
final class ServeCommand implements Callable<Integer> {
  static final String NO_INDEX = "no index: start ctxpack serve with --index DIR (an index made by ctxpack ingest)";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1",
      description = "Address to listen on. Default: ${DEFAULT-VALUE} (this machine only).")
  String host;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080", description = "Port to listen on; 0 for any free one. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--index", paramLabel = "SPEC",
      description = "Index: a directory, or lucene:DIR (default: $CTXPACK_INDEX or ./.ctxpack). Without one given and"
          + " none at ./.ctxpack, only compress and dedup are served.")
  String index;

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

  @Option(names = "--tenants", paramLabel = "FILE",
      description = "Tenants, their collections (one index each) and API keys (JSON; see docs/API.md). With it every"
          + " /v1 request needs 'Authorization: Bearer KEY' and sees only its tenant's collections and the documents"
          + " its key's labels may read. Not with --index.")
  Path tenants;

  @Option(names = "--max-queued", paramLabel = "N", defaultValue = "" + HttpService.DEFAULT_MAX_QUEUED,
      description = "Most requests waiting for one of the --max-concurrent slots, the wait counted within --request-timeout-ms;"
          + " more get 503 busy at once. Default: ${DEFAULT-VALUE}.")
  int maxQueued;

  @Option(names = "--memory", paramLabel = "DIR",
      description = "Memory directory of /v1/memories (default: <index>/memory; with --tenants, each collection's is"
          + " <collection>/memory). Not with --tenants.")
  Path memory;

  @Mixin LlmFlags llm = new LlmFlags();

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
    if (tenants != null && index != null) {
      throw new UsageException("give --index (one collection, no keys) or --tenants (each tenant's collections), not both");
    }
    if (tenants != null && memory != null) {
      throw new UsageException("--memory is for one index; with --tenants each collection keeps its memories in <collection>/memory");
    }
    Tenants t = tenants != null ? Tenants.load(tenants) : null;
    String env = System.getenv("CTXPACK_INDEX");
    IndexSpec given = index != null ? CommonOptions.spec(index, "--index")
        : env != null && !env.isBlank() ? CommonOptions.spec(env, "CTXPACK_INDEX") : null;
    IndexSpec spec = given != null ? given : IndexSpec.ofPath(defaultIndex);
    Metrics metrics = new Metrics();
    ServeCollections.Defaults commands = new ServeCollections.Defaults(() -> defaults(new SearchCommand()),
        () -> defaults(new PackCommand(), llm.args()), defaults(new IngestCommand(), "--embedder", embedder, "-"), metrics);
    java.util.function.Function<String, Embedder> perTenant = tenant -> Components.embedder(embedder);
    ServeCollections collections;
    if (t != null) {
      collections = ServeCollections.open(t, commands, perTenant);
    } else if (given != null || Indexes.exists(spec)) {
      // An index given is required; the default one only if it is there (compress and dedup need none).
      collections = ServeCollections.single(spec, Components.openExisting(spec), commands, perTenant);
    } else {
      collections = null;
    }
    if (collections != null && memory != null) collections.memoryStore(IndexSpec.ofPath(memory));
    try {
      if (collections != null) checkEmbedders(collections);
      HttpService.Builder routes = HttpService.builder().host(host).port(port).maxBodyBytes(maxBodyBytes)
          .requestTimeoutMillis(requestTimeoutMillis).maxConcurrent(maxConcurrent).maxQueued(maxQueued).log(log)
          .metrics(metrics);
      if (t != null) routes.authenticator(t::authenticate);
      endpoints(routes, collections);
      HttpService service = routes.start();
      String where = host.contains(":") ? "[" + host + "]" : host;
      String serving = t != null ? t.all().size() + " tenants, " + collections.indexes().size() + " collections from " + tenants
          : collections != null ? "index " + collections.indexes().get(0).location()
          : "no index: /v1/search, /v1/pack and /v1/documents answer 503; give --index DIR";
      log.println("ctxpack serve: listening on http://" + where + ":" + service.port() + " (" + serving + ")");
      if (t != null) {
        for (Index idx : collections.indexes()) {
          int legacy = idx instanceof AccessTermsAudit audit ? audit.documentsWithoutAccessTerms() : 0;
          if (legacy > 0) {
            log.println("ctxpack serve: warning: " + idx.location() + " holds " + legacy + " documents written before access"
                + " labels were indexed: only keys with labels [\"*\"] read them; re-ingest them into a new directory");
          }
        }
      }
      if (t == null && !isLoopback(host)) {
        log.println("ctxpack serve: warning: listening beyond this machine without --tenants: anyone who can reach "
            + where + " can read and change the index");
      }
      log.flush();
      return new Running(service, collections);
    } catch (IOException | RuntimeException e) {
      if (collections != null) collections.close();
      throw e;
    }
  }

  private static boolean isLoopback(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
  }

  /** Every collection holding vectors was embedded by the serve's --embedder (else its dense search would be meaningless). */
  private void checkEmbedders(ServeCollections collections) throws IOException {
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
   * The routes. Each is the {@link JsonEndpoint} the command's {@code --batch} mode runs, built
   * from that command's default options; a new command's endpoint is one more line here. Search
   * and pack run over the caller's collection as its access may read it ({@link ServeCollections}).
   */
  private void endpoints(HttpService.Builder routes, ServeCollections collections) {
    if (collections != null) {
      routes.post("/v1/search", collections.search());
      routes.post("/v1/pack", collections.pack());
      routes.post("/v1/assemble", collections.assemble());
      routes.post("/v1/documents", collections.addDocuments());
      routes.delete("/v1/documents/<id>", collections.removeDocument());
      routes.post("/v1/memories", collections.addMemory());
      routes.get("/v1/memories", collections.memories());
      routes.delete("/v1/memories/<id>", collections.deleteMemory());
    } else {
      routes.unavailable("/v1/search", NO_INDEX).unavailable("/v1/pack", NO_INDEX).unavailable("/v1/documents", NO_INDEX);
      routes.unavailable("/v1/memories", NO_INDEX);
      HttpService.Handler down = (caller, request) -> {
        throw new HttpService.HttpError(503, "unavailable", NO_INDEX);
      };
      routes.get("/v1/memories", down).delete("/v1/memories/<id>", down).delete("/v1/documents/<id>", down);
    }
    if (collections == null) {
      // No index: windows without evidence (a request asking for retrieval gets 400).
      routes.post("/v1/assemble", perTenant(() -> AssembleEndpoint.of(Components.assembler(null, null, null, llm.client()))));
    }
    routes.post("/v1/compress", perTenant(() -> defaults(new CompressCommand(), "--embedder", embedder).endpoint()));
    routes.post("/v1/dedup", perTenant(() -> defaults(new DedupCommand(), "--embedder", embedder).endpoint()));
    routes.post("/v1/verify", perTenant(() -> defaults(new VerifyCommand(), "--embedder", embedder).endpoint()));
    Inspector.routes(routes);
  }

  /**
   * An endpoint per tenant, made on its first request: a tenant's embedding caches hold only what
   * it sent, so another tenant cannot time a request to learn what it embedded (the models are shared).
   */
  private static HttpService.Handler perTenant(Supplier<JsonEndpoint> make) {
    java.util.Map<String, JsonEndpoint> byTenant = new java.util.concurrent.ConcurrentHashMap<>();
    return (caller, request) -> byTenant.computeIfAbsent(caller.tenant(), t -> make.get()).handle(request);
  }

  /** {@code command} with its options as the CLI would parse {@code args}: its defaults otherwise. */
  /** The options the service's pack command gets from this command: the model that executes plans, if any. */

  static <T> T defaults(T command, String... args) {
    CommandLine cl = new CommandLine(command);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.parseArgs(args);
    return command;
  }

  /** A started service and the indexes it holds open: {@link #close()} stops the server, then closes the indexes. */
  static final class Running implements AutoCloseable {
    private final HttpService service;
    private final ServeCollections index;
    private final AtomicBoolean closed = new AtomicBoolean();

    Running(HttpService service, ServeCollections index) {
      this.service = service;
      this.index = index;
    }

    /** The collections served (null when none). */
    ServeCollections collections() {
      return index;
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
