package dev.ctxpack.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Issue 23, item 2: a few heavy requests within the caps must not stall the service. Six
 * concurrent {@code /v1/dedup} requests, each of 256 near-identical passages (one real abstract cut
 * to 960 characters, each copy ending with its own number, so every pair looks alike and every
 * pair is kept apart by the guard: about 253 kB a request), and meanwhile one client sending
 * normal searches one after another, and a health check after each: the searches' latency while
 * the heavy requests are in flight (after {@link #WARM_SEARCHES} searches to warm up), their
 * statuses, and how the heavy requests were answered.
 */
final class StallCase {
  static final int HEAVY = 6;
  static final int PASSAGES = 256;
  static final int CHARS = 960;
  static final int WARM_SEARCHES = 20;

  private StallCase() {}

  /** The body of one heavy request: {@link #PASSAGES} near copies of {@code text}'s first {@link #CHARS} characters. */
  static byte[] heavyBody(String text) {
    ObjectMapper json = new ObjectMapper();
    ObjectNode req = json.createObjectNode();
    ArrayNode ps = req.putArray("passages");
    String base = text.length() > CHARS ? text.substring(0, CHARS) : text;
    for (int i = 0; i < PASSAGES; i++) ps.add(json.createObjectNode().put("id", "p" + i).put("text", base + " (" + i + ")"));
    return req.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Runs the case against {@code server}; {@code text} is the abstract copied, {@code query} the searches'. */
  static Map<String, Object> run(HttpClient http, ServerProcess server, String query, String text, long requestTimeoutMs)
      throws Exception {
    byte[] body = heavyBody(text);
    Duration clientTimeout = Duration.ofMillis(requestTimeoutMs + 30_000);
    HttpRequest heavy = HttpRequest.newBuilder(server.uri("/v1/dedup")).timeout(clientTimeout)
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    HttpRequest search = HttpRequest.newBuilder(server.uri("/v1/search")).timeout(clientTimeout)
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(LoadBench.body(query))).build();
    HttpRequest health = HttpRequest.newBuilder(server.uri("/health")).timeout(clientTimeout).build();
    // Warm: the query embedder and the search path are loaded before the measurement.
    for (int i = 0; i < WARM_SEARCHES; i++) http.send(search, HttpResponse.BodyHandlers.discarding());
    long t0 = System.nanoTime();
    List<CompletableFuture<long[]>> heavies = new ArrayList<>();
    for (int i = 0; i < HEAVY; i++) {
      heavies.add(http.sendAsync(heavy, HttpResponse.BodyHandlers.ofString())
          .handle((r, e) -> new long[] {r == null ? -1 : r.statusCode(), System.nanoTime() - t0}));
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(heavies.toArray(CompletableFuture[]::new));
    List<Long> lat = new ArrayList<>();
    Map<String, Long> searchStatuses = new TreeMap<>();
    long healthMax = 0;
    // Searches one after another until every heavy request is answered (at least one).
    do {
      long s = System.nanoTime();
      String status;
      try {
        status = Integer.toString(http.send(search, HttpResponse.BodyHandlers.ofString()).statusCode());
      } catch (IOException e) {
        status = "no answer (" + e.getClass().getSimpleName() + ")";
      }
      lat.add(System.nanoTime() - s);
      searchStatuses.merge(status, 1L, Long::sum);
      long h = System.nanoTime();
      try {
        http.send(health, HttpResponse.BodyHandlers.discarding());
      } catch (IOException e) {
        // counted in its time
      }
      healthMax = Math.max(healthMax, System.nanoTime() - h);
    } while (!all.isDone());
    Map<String, Long> heavyStatuses = new TreeMap<>();
    long heavyMax = 0;
    for (CompletableFuture<long[]> f : heavies) {
      long[] r = f.get();
      heavyStatuses.merge(r[0] < 0 ? "no answer" : Long.toString(r[0]), 1L, Long::sum);
      heavyMax = Math.max(heavyMax, r[1]);
    }
    long[] sorted = lat.stream().mapToLong(Long::longValue).sorted().toArray();
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("request", String.format(Locale.ROOT, "%d concurrent /v1/dedup of %d near-identical passages (%,d bytes each)",
        HEAVY, PASSAGES, body.length));
    row.put("heavyStatuses", heavyStatuses);
    row.put("heavyLastAnsweredMs", ms(heavyMax));
    row.put("searches", sorted.length);
    row.put("searchStatuses", searchStatuses);
    row.put("searchP50Ms", ms(LoadBench.percentile(sorted, 50)));
    row.put("searchP99Ms", ms(LoadBench.percentile(sorted, 99)));
    row.put("searchMaxMs", ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]));
    row.put("healthMaxMs", ms(healthMax));
    return row;
  }

  @SuppressWarnings("unchecked")
  static String markdown(Map<String, Object> row) {
    StringBuilder sb = new StringBuilder();
    sb.append("\n| stall case (issue 23, item 2) | heavy answers | last heavy answered ms | searches during | search answers"
        + " | search p50 ms | search p99 ms | search max ms | health max ms |\n");
    sb.append("|---|---|---:|---:|---|---:|---:|---:|---:|\n");
    sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", row.get("request"),
        statuses((Map<String, Long>) row.get("heavyStatuses")), row.get("heavyLastAnsweredMs"), row.get("searches"),
        statuses((Map<String, Long>) row.get("searchStatuses")), row.get("searchP50Ms"), row.get("searchP99Ms"),
        row.get("searchMaxMs"), row.get("healthMaxMs")));
    return sb.toString();
  }

  private static String statuses(Map<String, Long> m) {
    StringBuilder sb = new StringBuilder();
    m.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(v).append("× ").append(k));
    return sb.toString();
  }

  private static double ms(long ns) {
    return Math.round(ns / 1e5) / 10.0;
  }

}
