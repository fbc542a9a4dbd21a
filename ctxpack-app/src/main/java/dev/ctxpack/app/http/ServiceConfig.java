package dev.ctxpack.app.http;

import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Requests;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.llm.LlmClient;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything {@link Service#start} needs to know, checked when it is built: a bad value is a
 * {@link UsageException} naming the {@code ctxpack serve} option it comes from and the value.
 *
 * <pre>{@code
 * ServiceConfig config = ServiceConfig.builder().index(IndexSpec.parse("lucene:my-index")).port(0).build();
 * try (Service service = Service.start(config, ServiceLog.text(new PrintWriter(System.err, true)))) {
 *   ... // http://127.0.0.1:service.port()/v1/pack
 * }
 * }</pre>
 *
 * @param host the address to listen on (loopback by default)
 * @param port the port; 0 for any free one ({@link Service#port()} tells which)
 * @param index the one index served, which must exist (a service without tenants); null with
 *     {@code tenants}, or for a service of compress, dedup, verify and assemble only
 * @param tenants the tenants file ({@link Tenants}): API keys, collections and access labels; null
 *     for a service without keys
 * @param embedder the embedder spec, as at ingest ({@code minilm}, {@code onnx:...}, {@code
 *     openai:...}; {@code none} for compress and dedup without vectors)
 * @param maxBodyBytes the largest request body read; a larger one gets 413
 * @param requestTimeoutMillis the longest a request may run, its wait for a slot included (503 {@code timeout})
 * @param maxConcurrent the requests run at once (the slots of both classes)
 * @param maxConcurrentHeavy of those, the heavy ones (pack, assemble, compress, dedup, verify, adding
 *     documents) run at once; the light ones (search, memories, removals) have the others, at least
 *     one; 0 for {@link #defaultMaxConcurrentHeavy}
 * @param maxQueued the requests that may wait for a slot; one more gets 503 {@code busy} at once
 * @param memory where the memories of the one index are (null: beside it); not with {@code tenants}
 * @param llm the chat model that executes plans and summarises history turns (null: offline and extractive)
 * @param maxDedupComparisons the most sentence pairs one {@code /v1/dedup} request's guard may compare (422 {@code too_much_work})
 * @param maxSentences the most sentences of one {@code /v1/compress} request's passages or {@code /v1/verify} request's sources
 * @param checkOnStart whether every index and memory store served is verified file by file, against its
 *     checksums, before the service listens; a damaged one stops the start ({@code --check-on-start})
 */
public record ServiceConfig(String host, int port, IndexSpec index, Path tenants, String embedder, long maxBodyBytes,
    long requestTimeoutMillis, int maxConcurrent, int maxQueued, IndexSpec memory, LlmClient llm, int maxConcurrentHeavy,
    long maxDedupComparisons, int maxSentences, boolean checkOnStart) {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 8080;
  public static final String DEFAULT_EMBEDDER = "minilm";
  /** The default cap on a request body: 10 MiB. */
  public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;
  /** The default limit on a request's run: 30 s. */
  public static final long DEFAULT_REQUEST_TIMEOUT_MILLIS = 30_000;
  /** The default cap on requests waiting for a slot. */
  public static final int DEFAULT_MAX_QUEUED = 256;
  /** The largest {@code maxQueued}: each queued request holds a thread. */
  public static final int MAX_QUEUED_LIMIT = 10_000;

  public ServiceConfig {
    Objects.requireNonNull(host, "host");
    checkPort(port);
    if (tenants != null && index != null) {
      throw new UsageException("give --index (one collection, no keys) or --tenants (each tenant's collections), not both");
    }
    if (tenants != null && memory != null) {
      throw new UsageException("--memory is for one index; with --tenants each collection keeps its memories in <collection>/memory");
    }
    Objects.requireNonNull(embedder, "embedder");
    checkMaxBodyBytes(maxBodyBytes);
    checkRequestTimeoutMillis(requestTimeoutMillis);
    checkMaxConcurrent(maxConcurrent);
    checkMaxQueued(maxQueued);
    if (maxConcurrentHeavy != 0) checkMaxConcurrentHeavy(maxConcurrentHeavy);
    if (maxConcurrentHeavy > maxConcurrent) {
      throw new UsageException("--max-concurrent-heavy (" + maxConcurrentHeavy + ") must not exceed --max-concurrent ("
          + maxConcurrent + ")");
    }
    if (maxDedupComparisons < 1) throw new UsageException("--max-dedup-comparisons must be at least 1, was " + maxDedupComparisons);
    if (maxSentences < 1) throw new UsageException("--max-sentences must be at least 1, was " + maxSentences);
  }

  /** The default share of heavy endpoints in {@code maxConcurrent} slots: half, at least one. */
  public static int defaultMaxConcurrentHeavy(int maxConcurrent) {
    return Math.max(1, maxConcurrent / 2);
  }

  /** The heavy slots this configuration gives ({@link #defaultMaxConcurrentHeavy} when 0). */
  public int heavySlots() {
    return maxConcurrentHeavy == 0 ? defaultMaxConcurrentHeavy(maxConcurrent) : maxConcurrentHeavy;
  }

  /** A config that does not check the stores at start (the components before {@code checkOnStart}). */
  public ServiceConfig(String host, int port, IndexSpec index, Path tenants, String embedder, long maxBodyBytes,
      long requestTimeoutMillis, int maxConcurrent, int maxQueued, IndexSpec memory, LlmClient llm) {
    this(host, port, index, tenants, embedder, maxBodyBytes, requestTimeoutMillis, maxConcurrent, maxQueued, memory, llm, 0,
        Requests.MAX_DEDUP_COMPARISONS, Requests.MAX_SENTENCES, false);
  }

  /** The default cap on requests run at once: twice the processors. */
  public static int defaultMaxConcurrent() {
    return 2 * Runtime.getRuntime().availableProcessors();
  }

  /** A builder with every default: loopback, port 8080, no index, MiniLM, the limits above. */
  public static Builder builder() {
    return new Builder();
  }

  static int checkPort(int port) {
    if (port < 0 || port > 65535) throw new UsageException("--port must be in [0, 65535], was " + port);
    return port;
  }

  static long checkMaxBodyBytes(long max) {
    if (max < 1) throw new UsageException("--max-body-bytes must be at least 1, was " + max);
    return max;
  }

  static long checkRequestTimeoutMillis(long millis) {
    if (millis < 1) throw new UsageException("--request-timeout-ms must be at least 1, was " + millis);
    return millis;
  }

  static int checkMaxConcurrent(int max) {
    if (max < 1) throw new UsageException("--max-concurrent must be at least 1, was " + max);
    return max;
  }

  static int checkMaxConcurrentHeavy(int max) {
    if (max < 1) throw new UsageException("--max-concurrent-heavy must be at least 1, was " + max);
    return max;
  }

  static int checkMaxQueued(int max) {
    if (max < 0 || max > MAX_QUEUED_LIMIT) {
      throw new UsageException("--max-queued must be in [0, " + MAX_QUEUED_LIMIT + "], was " + max);
    }
    return max;
  }

  /** Builds a {@link ServiceConfig}; {@link #build()} checks it. */
  public static final class Builder {
    private String host = DEFAULT_HOST;
    private int port = DEFAULT_PORT;
    private IndexSpec index;
    private Path tenants;
    private String embedder = DEFAULT_EMBEDDER;
    private long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private long requestTimeoutMillis = DEFAULT_REQUEST_TIMEOUT_MILLIS;
    private int maxConcurrent = defaultMaxConcurrent();
    private int maxQueued = DEFAULT_MAX_QUEUED;
    private IndexSpec memory;
    private LlmClient llm;
    private boolean checkOnStart;
    private int maxConcurrentHeavy;
    private long maxDedupComparisons = Requests.MAX_DEDUP_COMPARISONS;
    private int maxSentences = Requests.MAX_SENTENCES;

    private Builder() {}

    /** The heavy endpoints' share of {@link #maxConcurrent}; 0 (the default) for half of it, at least one. */
    public Builder maxConcurrentHeavy(int maxConcurrentHeavy) {
      this.maxConcurrentHeavy = maxConcurrentHeavy;
      return this;
    }

    public Builder maxDedupComparisons(long maxDedupComparisons) {
      this.maxDedupComparisons = maxDedupComparisons;
      return this;
    }

    public Builder maxSentences(int maxSentences) {
      this.maxSentences = maxSentences;
      return this;
    }

    public Builder host(String host) {
      this.host = host;
      return this;
    }

    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public Builder index(IndexSpec index) {
      this.index = index;
      return this;
    }

    public Builder tenants(Path tenants) {
      this.tenants = tenants;
      return this;
    }

    public Builder embedder(String embedder) {
      this.embedder = embedder;
      return this;
    }

    public Builder maxBodyBytes(long maxBodyBytes) {
      this.maxBodyBytes = maxBodyBytes;
      return this;
    }

    public Builder requestTimeoutMillis(long requestTimeoutMillis) {
      this.requestTimeoutMillis = requestTimeoutMillis;
      return this;
    }

    public Builder maxConcurrent(int maxConcurrent) {
      this.maxConcurrent = maxConcurrent;
      return this;
    }

    public Builder maxQueued(int maxQueued) {
      this.maxQueued = maxQueued;
      return this;
    }

    public Builder memory(IndexSpec memory) {
      this.memory = memory;
      return this;
    }

    public Builder llm(LlmClient llm) {
      this.llm = llm;
      return this;
    }

    /** Verify every index and memory store served before listening ({@code --check-on-start}). */
    public Builder checkOnStart(boolean checkOnStart) {
      this.checkOnStart = checkOnStart;
      return this;
    }

    public ServiceConfig build() {
      return new ServiceConfig(host, port, index, tenants, embedder, maxBodyBytes, requestTimeoutMillis, maxConcurrent,
          maxQueued, memory, llm, maxConcurrentHeavy, maxDedupComparisons, maxSentences, checkOnStart);
    }
  }
}
