package dev.ctxpack.app.cli;

import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Requests;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ctxpack serve}: parses its options into a {@link ServiceConfig}, starts the {@link Service}
 * and runs until the JVM is asked to stop (Ctrl-C, SIGTERM), then stops the service and says so.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Serve search, pack, assemble, compress, dedup and verify over HTTP: POST /v1/<command> takes one --batch line's"
        + " JSON and answers that line's result; POST /v1/documents and DELETE /v1/documents/<id> change the index;"
        + " POST, GET /v1/memories and DELETE /v1/memories/<id> a user's memories;"
        + " GET /health, /ready and /metrics; GET / is the inspector page. With --tenants, API keys, collections and"
        + " access labels."
        + " Runs until stopped (Ctrl-C, SIGTERM).")
final class ServeCommand implements Callable<Integer> {
  /** How long the shutdown hook waits for the service to stop. */
  private static final long STOP_WAIT_MILLIS = 15_000;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--host", paramLabel = "HOST", defaultValue = ServiceConfig.DEFAULT_HOST,
      description = "Address to listen on. Default: ${DEFAULT-VALUE} (this machine only).")
  String host;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + ServiceConfig.DEFAULT_PORT,
      description = "Port to listen on; 0 for any free one. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--index", paramLabel = "SPEC",
      description = "Index: a directory, or lucene:DIR (default: $CTXPACK_INDEX or ./.ctxpack). Without one given and"
          + " none at ./.ctxpack, only compress and dedup are served.")
  String index;

  @Option(names = "--embedder", paramLabel = "SPEC", defaultValue = ServiceConfig.DEFAULT_EMBEDDER,
      description = "Embedder, as at ingest: minilm (default), onnx:..., openai:...; compress and dedup also take none.")
  String embedder;

  @Option(names = "--max-body-bytes", paramLabel = "N", defaultValue = "" + ServiceConfig.DEFAULT_MAX_BODY_BYTES,
      description = "Largest request body accepted, in bytes; larger ones get 413. Default: ${DEFAULT-VALUE} (10 MiB).")
  long maxBodyBytes;

  @Option(names = "--request-timeout-ms", paramLabel = "MS", defaultValue = "" + ServiceConfig.DEFAULT_REQUEST_TIMEOUT_MILLIS,
      description = "Longest a request may run; a longer one gets 503 timeout and is interrupted. Default: ${DEFAULT-VALUE}.")
  long requestTimeoutMillis;

  @Option(names = "--max-concurrent", paramLabel = "N",
      description = "Most requests run at once; more wait in a queue (--max-queued). Default: twice the processors (${DEFAULT-VALUE}).")
  int maxConcurrent = ServiceConfig.defaultMaxConcurrent();

  @Option(names = "--max-concurrent-heavy", paramLabel = "N",
      description = "Of the --max-concurrent slots, how many pack, assemble, compress, dedup, verify and document"
          + " additions may hold at once; search, memories and removals have the others (at least one), so they never"
          + " wait behind heavy requests. Default: half of --max-concurrent, at least 1.")
  int maxConcurrentHeavy;

  @Option(names = "--max-dedup-comparisons", paramLabel = "N", defaultValue = "" + Requests.MAX_DEDUP_COMPARISONS,
      description = "Most sentence pairs one /v1/dedup request's guard may compare (look-alike passages cost the product"
          + " of their sentence counts); more get 422 too_much_work. Default: ${DEFAULT-VALUE}.")
  long maxDedupComparisons;

  @Option(names = "--max-sentences", paramLabel = "N", defaultValue = "" + Requests.MAX_SENTENCES,
      description = "Most sentences the passages of one /v1/compress request, or the sources of one /v1/verify request,"
          + " may hold; more get 422 too_much_work. Default: ${DEFAULT-VALUE}.")
  int maxSentences;

  @Option(names = "--tenants", paramLabel = "FILE",
      description = "Tenants, their collections (one index each) and API keys (JSON; see docs/API.md). With it every"
          + " /v1 request needs 'Authorization: Bearer KEY' and sees only its tenant's collections and the documents"
          + " its key's labels may read. Not with --index.")
  Path tenants;

  @Option(names = "--max-queued", paramLabel = "N", defaultValue = "" + ServiceConfig.DEFAULT_MAX_QUEUED,
      description = "Most requests waiting for one of the --max-concurrent slots, the wait counted within --request-timeout-ms;"
          + " more get 503 busy at once. Default: ${DEFAULT-VALUE}.")
  int maxQueued;

  @Option(names = "--memory", paramLabel = "DIR",
      description = "Memory directory of /v1/memories (default: <index>/memory; with --tenants, each collection's is"
          + " <collection>/memory). Not with --tenants.")
  Path memory;

  @Option(names = "--check-on-start",
      description = "Before listening, verify every file of each index served and of its memory store against its checksum"
          + " (as ctxpack check does); a damaged one stops the start with exit 1, naming the segment and file.")
  boolean checkOnStart;

  @Mixin LlmFlags llm = new LlmFlags();

  /** Its log lines on stderr: text, or one JSON object per line ({@link ServiceLog#json}). */
  @Mixin FormatOption format = new FormatOption();

  /** The index used when none is given, if it exists (a field so tests can point it elsewhere). */
  Path defaultIndex = Path.of(".ctxpack");

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    ServiceLog log = format.json() ? ServiceLog.json(err) : ServiceLog.text(err);
    Service service = Service.start(config(), log);
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    // On Ctrl-C or SIGTERM the hook wakes this thread, which stops the server and closes the index,
    // and waits for that before letting the JVM go.
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        stopped.await(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "ctxpack-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      stop.await();
    } finally {
      try {
        service.close();
        log.info("stopped");
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

  /**
   * The service these options describe. The index is {@code --index}, else {@code $CTXPACK_INDEX}
   * (either must exist), else {@code ./.ctxpack} if it exists, else none; with {@code --tenants}, none.
   */
  ServiceConfig config() throws IOException {
    if (tenants != null && index != null) {
      throw new UsageException("give --index (one collection, no keys) or --tenants (each tenant's collections), not both");
    }
    if (tenants != null && memory != null) {
      throw new UsageException("--memory is for one index; with --tenants each collection keeps its memories in <collection>/memory");
    }
    String env = System.getenv("CTXPACK_INDEX");
    IndexSpec given = index != null ? CommonOptions.spec(index, "--index")
        : env != null && !env.isBlank() ? CommonOptions.spec(env, "CTXPACK_INDEX") : null;
    // An index given is required; the default one only if it is there (compress and dedup need none).
    IndexSpec served = tenants != null ? null : given != null ? given
        : Indexes.exists(IndexSpec.ofPath(defaultIndex)) ? IndexSpec.ofPath(defaultIndex) : null;
    return ServiceConfig.builder().host(host).port(port).index(served).tenants(tenants).embedder(embedder)
        .maxBodyBytes(maxBodyBytes).requestTimeoutMillis(requestTimeoutMillis).maxConcurrent(maxConcurrent)
        .maxConcurrentHeavy(maxConcurrentHeavy).maxDedupComparisons(maxDedupComparisons).maxSentences(maxSentences)
        .maxQueued(maxQueued).memory(memory == null ? null : IndexSpec.ofPath(memory)).llm(llm.client())
        .checkOnStart(checkOnStart).build();
  }
}
