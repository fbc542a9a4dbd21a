package dev.ctxpack.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.data.BeirLoader;
import dev.ctxpack.bench.data.Dataset;
import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.onnx.MiniLmEmbedder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The HTTP service under load: {@code ctxpack serve} in its own JVM on loopback, over the SciFact
 * index, driven by closed-loop clients ({@link HttpClient}, HTTP/1.1).
 *
 * <ol>
 *   <li>the SciFact index: reused from {@code --index} or {@code --work-dir}, else built there as
 *       the evaluations build it (300-token chunks, MiniLM; a few minutes, once);
 *   <li>{@code ctxpack serve --port 0} started from {@code --jar}, its port read from its stderr;
 *   <li>a warm-up per endpoint; then, for each endpoint and each number of clients, {@code
 *       --duration} seconds in which every client sends its next request as soon as the last one is
 *       answered, the queries taken in turn from SciFact's judged test queries; each client finishes
 *       the request it has in flight when the time is up;
 *   <li>per step: answered requests per second, p50/p90/p99/max latency, answers by status, requests
 *       dropped (sent and never answered: a connection error or a client time-out), the server's
 *       peak resident memory during the step (VmRSS sampled every 200 ms) and its live heap after
 *       a full collection at the end of the step;
 *   <li>the hostile requests of {@link HostileCases}, each sent {@code --hostile-repeats} times, each
 *       time followed by a normal search: how long the answer took, its status, and whether the
 *       normal request after it was answered 200;
 *   <li>the stall case of {@link StallCase}: normal searches while six heavy dedup requests run;
 *   <li>{@code results.md} and {@code results.json} in {@code --out}.
 * </ol>
 *
 * On demand only: {@code java -jar ctxpack-bench/target/ctxpack-bench.jar load}.
 */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Throughput, latency and memory of ctxpack serve (/v1/search, /v1/pack) under 1, 16 and 64 closed-loop"
        + " clients on the SciFact index, and how quickly hostile requests are refused.")
public final class LoadBench implements Callable<Integer> {
  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/load).")
  Path out;

  @Option(names = "--work-dir", description = "Where the SciFact index is kept between runs (default: ctxpack-bench/target/load-work).")
  Path workDir;

  @Option(names = "--index", description = "Serve this index as it is instead (it must hold MiniLM vectors).")
  Path index;

  @Option(names = "--jar", description = "The ctxpack CLI jar (default: ctxpack-app/target/ctxpack.jar).")
  Path jar;

  @Option(names = "--endpoints", split = ",", description = "Endpoints to load: search, pack (default: search,pack).")
  List<String> endpoints = new ArrayList<>(List.of("search", "pack"));

  @Option(names = "--clients", split = ",", description = "Concurrent clients per step (default: 1,16,64).")
  List<Integer> clients = new ArrayList<>(List.of(1, 16, 64));

  @Option(names = "--duration", description = "Seconds per step (default: ${DEFAULT-VALUE}).")
  int duration = 30;

  @Option(names = "--warmup", description = "Seconds of warm-up per endpoint, at 16 clients (default: ${DEFAULT-VALUE}).")
  int warmup = 15;

  @Option(names = "--max-concurrent", description = "The server's --max-concurrent (default: its own, twice the processors).")
  Integer maxConcurrent;

  @Option(names = "--max-concurrent-heavy", description = "The server's --max-concurrent-heavy (default: its own, half of --max-concurrent).")
  Integer maxConcurrentHeavy;

  @Option(names = "--max-queued", description = "The server's --max-queued (default: ${DEFAULT-VALUE}: every client of the largest step waits, none is refused).")
  int maxQueued = 256;

  @Option(names = "--request-timeout-ms", description = "The server's --request-timeout-ms (default: ${DEFAULT-VALUE}).")
  long requestTimeoutMs = 30_000;

  @Option(names = "--max-body-bytes", description = "The server's --max-body-bytes (default: ${DEFAULT-VALUE}, its own default).")
  long maxBodyBytes = 10L * 1024 * 1024;

  @Option(names = "--server-heap", description = "The server JVM's -Xmx (default: ${DEFAULT-VALUE}).")
  String serverHeap = "2g";

  @Option(names = "--hostile-repeats", description = "Times each hostile request is sent; 0 skips them (default: ${DEFAULT-VALUE}).")
  int hostileRepeats = 5;

  @Option(names = "--hostile-only", description = "Skip the load steps: only the hostile requests (and those at the caps).")
  boolean hostileOnly;

  @Option(names = "--stall-only", description = "Only the stall case (issue 23, item 2): normal searches while six heavy dedup requests run.")
  boolean stallOnly;

  private String[] args = new String[0];
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();

  public static int run(String[] args) {
    LoadBench b = new LoadBench();
    b.args = args.clone();
    return RunSupport.execute(b, "load", args);
  }

  @Override
  public Integer call() throws Exception {
    if (duration < 1) throw new IllegalArgumentException("--duration must be at least 1 second, was " + duration);
    if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0, was " + warmup);
    for (int c : clients) if (c < 1) throw new IllegalArgumentException("--clients must be at least 1, was " + c);
    for (String e : endpoints) {
      if (!e.equals("search") && !e.equals("pack")) throw new IllegalArgumentException("--endpoints takes search and pack, not '" + e + "'");
    }
    Path root = RunSupport.projectRoot();
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = Files.createDirectories(out != null ? out : root.resolve("ctxpack-bench/target/load"));
    Path cli = jar != null ? jar : root.resolve("ctxpack-app/target/ctxpack.jar");
    if (!Files.isRegularFile(cli)) {
      throw new IllegalArgumentException("no ctxpack CLI jar at " + cli + ": build it first (mvn -B -pl ctxpack-app,ctxpack-bench -am package -DskipTests)");
    }
    Path scifact = dataDir.resolve("scifact/beir_test");
    if (!Files.isDirectory(scifact)) throw new IllegalArgumentException("no SciFact data at " + scifact + ": pass --data DIR");
    Dataset ds = BeirLoader.load("scifact", scifact, "test");
    List<String> queries = new ArrayList<>(ds.judgedQueries().values());
    Path idx = index != null ? index : indexIn(workDir != null ? workDir : root.resolve("ctxpack-bench/target/load-work"), scifact);

    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + serverHeap, "-jar", cli.toString(), "serve", "--index", idx.toString(), "--host", "127.0.0.1", "--port", "0",
        "--max-queued", Integer.toString(maxQueued), "--request-timeout-ms", Long.toString(requestTimeoutMs),
        "--max-body-bytes", Long.toString(maxBodyBytes)));
    if (maxConcurrent != null) command.addAll(List.of("--max-concurrent", Integer.toString(maxConcurrent)));
    if (maxConcurrentHeavy != null) command.addAll(List.of("--max-concurrent-heavy", Integer.toString(maxConcurrentHeavy)));
    String self = "java -jar ctxpack-bench/target/ctxpack-bench.jar load"
        + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining());

    Map<String, Object> report = new LinkedHashMap<>();
    report.put("command", self);
    report.put("environment", Environment.describe());
    report.put("server", String.join(" ", command));
    report.put("queries", "SciFact test, " + queries.size() + " judged queries, taken in turn");
    List<Map<String, Object>> steps = new ArrayList<>();
    List<Map<String, Object>> hostile = new ArrayList<>();
    report.put("steps", steps);
    report.put("hostile", hostile);
    System.err.println("[load] starting: " + String.join(" ", command));
    try (ServerProcess server = ServerProcess.start(command, outDir.resolve("server.log"), Duration.ofMinutes(3))) {
      report.put("serverRssAfterStartMiB", server.statusKib("VmRSS") / 1024.0);
      for (String e : hostileOnly || stallOnly ? List.<String>of() : endpoints) {
        if (warmup > 0) {
          System.err.printf(Locale.ROOT, "[load] warm-up /v1/%s: %d s at 16 clients%n", e, warmup);
          step(server, e, 16, warmup, queries);
        }
        for (int c : clients) {
          Map<String, Object> s = step(server, e, c, duration, queries);
          steps.add(s);
          System.err.println("[load] " + s);
        }
      }
      List<String> abstracts = ds.indexableCorpus().stream().limit(1_000).map(d -> d.text()).toList();
      if (hostileRepeats > 0 && !stallOnly) hostile.addAll(hostile(server, queries.get(0), abstracts));
      if (hostileRepeats > 0 || stallOnly) {
        String longest = abstracts.stream().filter(t -> t.length() >= StallCase.CHARS).findFirst().orElse(abstracts.get(0));
        Map<String, Object> stall = StallCase.run(http, server, queries.get(0), longest, requestTimeoutMs);
        report.put("stall", stall);
        System.err.println("[load] stall " + stall);
      }
      report.put("serverPeakRssMiB", server.statusKib("VmHWM") / 1024.0);
      report.put("serverAliveAtEnd", server.alive());
    }
    report.put("loadAverageAtEnd", Environment.loadAverage());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(outDir.resolve("results.json").toFile(), report);
    String md = markdown(report);
    Files.writeString(outDir.resolve("results.md"), md);
    System.out.print(md);
    return 0;
  }

  /** The SciFact index in {@code work}, built there first when it is not. */
  private static Path indexIn(Path work, Path scifact) throws IOException {
    Path dir = work.resolve("scifact-index");
    if (Files.isDirectory(dir)) {
      try (LuceneIndex existing = LuceneIndex.openExisting(dir)) {
        if (existing.stats().vectors() > 0) {
          System.err.println("[load] reusing index " + dir + ": " + existing.stats());
          return dir;
        }
      } catch (IOException | RuntimeException e) {
        System.err.println("[load] rebuilding " + dir + " (" + e.getMessage() + ")");
      }
      RunSupport.deleteTree(dir);
    }
    Files.createDirectories(work);
    long t0 = System.nanoTime();
    try (LuceneIndex idx = LuceneIndex.open(dir)) {
      IngestSummary s = new Ingestor(idx, Loaders.defaults(), CtxpackPipeline.options(new MiniLmEmbedder(), null,
          CtxpackPipeline.CHUNK_TOKENS), null).ingest(List.of(scifact.resolve("corpus.jsonl")));
      System.err.printf(Locale.ROOT, "[load] built the SciFact index in %.1f s: %d documents, %d chunks%n",
          (System.nanoTime() - t0) / 1e9, s.added(), s.chunks());
    }
    return dir;
  }

  /** The body of one request to {@code endpoint}: the query alone, every other field the service's default. */
  static String body(String query) {
    return "{\"query\":" + new ObjectMapper().getNodeFactory().textNode(query) + "}";
  }

  private Map<String, Object> step(ServerProcess server, String endpoint, int n, int seconds, List<String> queries)
      throws Exception {
    URI uri = server.uri("/v1/" + endpoint);
    String expect = endpoint.equals("search") ? "\"results\"" : "\"prompt\"";
    AtomicInteger next = new AtomicInteger();
    AtomicLong sent = new AtomicLong();
    AtomicLong answered = new AtomicLong();
    AtomicLong malformed = new AtomicLong();
    Map<String, AtomicLong> statuses = new TreeMap<>();
    Map<String, AtomicLong> drops = new TreeMap<>();
    AtomicLong peakRss = new AtomicLong(server.statusKib("VmRSS"));
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(() -> peakRss.accumulateAndGet(server.statusKib("VmRSS"), Math::max), 0, 200, TimeUnit.MILLISECONDS);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    List<Future<long[]>> futures = new ArrayList<>();
    String load0 = Environment.loadAverage();
    long t0 = System.nanoTime();
    long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds);
    Duration clientTimeout = Duration.ofMillis(requestTimeoutMs + 30_000);
    for (int i = 0; i < n; i++) {
      futures.add(pool.submit(() -> {
        long[] lat = new long[1024];
        int count = 0;
        while (System.nanoTime() < deadline) {
          String q = queries.get(Math.floorMod(next.getAndIncrement(), queries.size()));
          HttpRequest req = HttpRequest.newBuilder(uri).timeout(clientTimeout).header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(body(q))).build();
          sent.incrementAndGet();
          long s = System.nanoTime();
          try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            long ns = System.nanoTime() - s;
            answered.incrementAndGet();
            count(statuses, Integer.toString(r.statusCode()));
            if (r.statusCode() == 200 && !r.body().contains(expect)) malformed.incrementAndGet();
            if (count == lat.length) lat = Arrays.copyOf(lat, 2 * count);
            lat[count++] = ns;
          } catch (IOException e) {
            count(drops, e.getClass().getSimpleName());
          }
        }
        return Arrays.copyOf(lat, count);
      }));
    }
    List<long[]> all = new ArrayList<>();
    for (Future<long[]> f : futures) all.add(f.get());
    double wall = (System.nanoTime() - t0) / 1e9;
    pool.shutdown();
    sampler.shutdown();
    sampler.awaitTermination(5, TimeUnit.SECONDS);
    long[] lat = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("endpoint", "/v1/" + endpoint);
    s.put("clients", n);
    s.put("seconds", Math.round(wall * 10) / 10.0);
    s.put("sent", sent.get());
    s.put("answered", answered.get());
    s.put("dropped", sent.get() - answered.get());
    s.put("dropReasons", plain(drops));
    s.put("statuses", plain(statuses));
    s.put("malformed200", malformed.get());
    s.put("reqPerSec", round(answered.get() / wall, 2));
    s.put("p50ms", ms(percentile(lat, 50)));
    s.put("p90ms", ms(percentile(lat, 90)));
    s.put("p99ms", ms(percentile(lat, 99)));
    s.put("maxMs", ms(lat.length == 0 ? 0 : lat[lat.length - 1]));
    s.put("peakRssMiB", round(peakRss.get() / 1024.0, 1));
    long[] heap = server.liveHeapKib();
    s.put("liveHeapAfterMiB", heap == null ? null : round(heap[0] / 1024.0, 1));
    s.put("committedHeapMiB", heap == null ? null : round(heap[1] / 1024.0, 1));
    s.put("loadAverageBefore", load0);
    s.put("loadAverageAfter", Environment.loadAverage());
    return s;
  }

  private List<Map<String, Object>> hostile(ServerProcess server, String query, List<String> texts) throws Exception {
    List<Map<String, Object>> rows = new ArrayList<>();
    HttpRequest normal = HttpRequest.newBuilder(server.uri("/v1/search")).timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body(query))).build();
    List<HostileCases.Case> cases = new ArrayList<>(HostileCases.all(query, maxBodyBytes));
    cases.addAll(HostileCases.atTheCaps(query, texts));
    for (HostileCases.Case c : cases) {
      long[] lat = new long[hostileRepeats];
      Map<String, AtomicLong> statuses = new TreeMap<>();
      String message = "";
      int normalOk = 0;
      long normalMax = 0;
      for (int i = 0; i < hostileRepeats; i++) {
        HttpRequest req = HttpRequest.newBuilder(server.uri(c.path())).timeout(Duration.ofMillis(requestTimeoutMs + 30_000))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(c.body())).build();
        long s = System.nanoTime();
        try {
          HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
          lat[i] = System.nanoTime() - s;
          count(statuses, Integer.toString(r.statusCode()));
          if (message.isEmpty()) message = errorText(r.body());
        } catch (IOException e) {
          lat[i] = System.nanoTime() - s;
          count(statuses, "no answer (" + e.getClass().getSimpleName() + ")");
        }
        long n0 = System.nanoTime();
        try {
          HttpResponse<String> ok = http.send(normal, HttpResponse.BodyHandlers.ofString());
          if (ok.statusCode() == 200 && ok.body().contains("\"results\"")) normalOk++;
        } catch (IOException e) {
          // counted as not answered
        }
        normalMax = Math.max(normalMax, System.nanoTime() - n0);
      }
      Arrays.sort(lat);
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("request", c.name());
      row.put("endpoint", c.path());
      row.put("bodyBytes", c.body().length);
      row.put("expected", c.expected());
      row.put("statuses", plain(statuses));
      row.put("asExpected", statuses.keySet().equals(java.util.Set.of(Integer.toString(c.expected()))));
      row.put("message", message);
      row.put("medianMs", ms(lat[lat.length / 2]));
      row.put("maxMs", ms(lat[lat.length - 1]));
      row.put("normalAfterOk", normalOk + "/" + hostileRepeats);
      row.put("normalAfterMaxMs", ms(normalMax));
      rows.add(row);
      System.err.println("[load] hostile " + row);
    }
    return rows;
  }

  /** The {@code error.message} of an error body, or its code-less start otherwise. */
  private static String errorText(String body) {
    try {
      var node = new ObjectMapper().readTree(body);
      if (node.has("error")) return node.get("error").get("code").asText() + ": " + node.get("error").get("message").asText();
    } catch (IOException | RuntimeException e) {
      // not JSON: shown as it is
    }
    return "(200: " + (body.length() > 40 ? body.substring(0, 40) + "…" : body) + ")";
  }

  private static void count(Map<String, AtomicLong> m, String key) {
    synchronized (m) {
      m.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
    }
  }

  private static Map<String, Long> plain(Map<String, AtomicLong> m) {
    synchronized (m) {
      Map<String, Long> out = new TreeMap<>();
      m.forEach((k, v) -> out.put(k, v.get()));
      return out;
    }
  }

  /** The nearest-rank percentile {@code p} of sorted {@code values}; 0 when there are none. */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) return 0;
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  private static double ms(long ns) {
    return round(ns / 1e6, 1);
  }

  private static double round(double v, int places) {
    double f = Math.pow(10, places);
    return Math.round(v * f) / f;
  }

  @SuppressWarnings("unchecked")
  static String markdown(Map<String, Object> report) {
    StringBuilder sb = new StringBuilder();
    Map<String, String> env = (Map<String, String>) report.get("environment");
    sb.append("`").append(report.get("command")).append("`\n\n");
    sb.append("Server: `").append(report.get("server")).append("`; ").append(report.get("queries")).append(". ")
        .append(env.get("cores")).append(" cores, ").append(env.get("cpu")).append(", Java ").append(env.get("java.version"))
        .append("; load average ").append(env.get("loadAverageAtStart")).append(" at the start, ")
        .append(report.get("loadAverageAtEnd")).append(" at the end.\n\n");
    List<Map<String, Object>> steps = (List<Map<String, Object>>) report.get("steps");
    if (!steps.isEmpty()) {
      sb.append("| endpoint | clients | answered | req/s | p50 ms | p90 ms | p99 ms | max ms | answers by status | dropped |"
          + " peak RSS MiB | live heap after MiB |\n");
      sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
      for (Map<String, Object> s : steps) {
        sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
            s.get("endpoint"), s.get("clients"), s.get("answered"), s.get("reqPerSec"), s.get("p50ms"), s.get("p90ms"),
            s.get("p99ms"), s.get("maxMs"), statuses((Map<String, Long>) s.get("statuses")), s.get("dropped"),
            s.get("peakRssMiB"), s.get("liveHeapAfterMiB") == null ? "n/a" : s.get("liveHeapAfterMiB")));
      }
    }
    sb.append(String.format(Locale.ROOT, "%nServer RSS after start %.0f MiB, peak (VmHWM) over the run %.0f MiB.%n",
        (Double) report.get("serverRssAfterStartMiB"), (Double) report.getOrDefault("serverPeakRssMiB", Double.NaN)));
    List<Map<String, Object>> hostile = (List<Map<String, Object>>) report.get("hostile");
    if (!hostile.isEmpty()) {
      sb.append("\n| request | endpoint | body bytes | answers | median ms | max ms | message | normal search after |\n");
      sb.append("|---|---|---:|---|---:|---:|---|---|\n");
      for (Map<String, Object> h : hostile) {
        String msg = ((String) h.get("message")).replace("|", "\\|");
        if (msg.length() > 90) msg = msg.substring(0, 90) + "…";
        sb.append(String.format(Locale.ROOT, "| %s | %s | %,d | %s | %s | %s | %s | %s 200 (max %s ms) |%n",
            h.get("request"), h.get("endpoint"), (Integer) h.get("bodyBytes"), statuses((Map<String, Long>) h.get("statuses")),
            h.get("medianMs"), h.get("maxMs"), msg, h.get("normalAfterOk"), h.get("normalAfterMaxMs")));
      }
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> stall = (Map<String, Object>) report.get("stall");
    if (stall != null) sb.append(StallCase.markdown(stall));
    return sb.toString();
  }

  private static String statuses(Map<String, Long> m) {
    return m.entrySet().stream().map(e -> e.getValue() + "× " + e.getKey()).collect(Collectors.joining(", "));
  }
}
