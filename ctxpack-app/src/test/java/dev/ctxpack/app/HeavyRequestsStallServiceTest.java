package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.DedupEndpoint;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.index.IndexSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 2: a few requests within the caps stalled the whole service. Six concurrent {@code
 * /v1/dedup} requests of 256 near-identical passages (each pair looks alike, each differs in a
 * number, so the guard compares every pair at two levels) took every endpoint slot; a normal search
 * queued behind them, and a time-out answered the client but left the work running, holding its
 * slot. Against the real service on loopback (real BM25 index, real MiniLM): a search and a health
 * check are answered while the six heavy requests are still running; a heavy request over the cap
 * on dedup's work gets 422 naming the cap; and after a 503 {@code timeout} the endpoint's slot is
 * free for the very next request.
 */
class HeavyRequestsStallServiceTest {
  private static final String NORMAL = "{\"query\": \"What is the stimulant in coffee?\", \"k\": 2}";
  private static final String TRIAL = "The multicentre trial enrolled adults with chronic kidney disease from twelve"
      + " university hospitals in three countries, randomised them to the new treatment or to standard care, and"
      + " followed every participant with blood tests, imaging and interviews for two full years after the first dose.";
  /** Six more sentences, for passages whose pairs cost more than the cap on comparisons. */
  private static final List<String> LONG = List.of("The study enrolled adults with chronic kidney disease at twelve sites.",
      "Every site used one protocol and one laboratory for all of the blood tests.",
      "Participants were randomised to the new treatment or to the standard care arm.",
      "An independent board reviewed the safety data of both arms every six months.",
      "Follow-up lasted two years after the first dose for every participant.",
      "Interviews and imaging were repeated at the same visits in both arms.");

  @TempDir Path dir;
  final StringWriter serverLog = new StringWriter();
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  /** The {@code i}th of 256 near copies: the same sentences, a different number in the last one. */
  private static String nearCopy(List<String> same, int i) {
    return (String.join(" ", same) + " At the end of the two years of follow-up the investigators of all twelve"
        + " hospitals reported that the estimated filtration rate had improved in " + (i + 1) + " percent of the treated"
        + " participants, a result they found consistent across age groups, sexes, sites, countries, laboratories and the"
        + " severity of the disease at the start of the study, and close to what the pilot study had found.").strip();
  }

  private static String dedupOf(List<String> same, int n) {
    ObjectNode req = Json.object();
    ArrayNode ps = req.putArray("passages");
    for (int i = 0; i < n; i++) ps.add(Json.object().put("id", "p" + i).put("text", nearCopy(same, i)));
    return req.toString();
  }

  private HttpRequest post(Service s, String path, String body) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path)).timeout(Duration.ofMinutes(5))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  private static JsonNode json(HttpResponse<String> r) {
    return Json.parseObject(r.body());
  }

  /** Threads of this JVM whose stack holds a frame {@code frame} accepts. */
  private static long threadsIn(Predicate<StackTraceElement> frame) {
    return Thread.getAllStackTraces().values().stream().filter(st -> Arrays.stream(st).anyMatch(frame)).count();
  }

  /** A frame of a class of the dedup cascade. */
  private static boolean dedup(StackTraceElement f) {
    return f.getClassName().startsWith("dev.ctxpack.dedup.");
  }

  /** A request handed to the endpoints: a server thread waiting in {@code EndpointPool.run} (not the task it runs). */
  private static boolean handedOver(StackTraceElement f) {
    return f.getClassName().equals("dev.ctxpack.app.http.EndpointPool") && f.getMethodName().equals("run");
  }

  @Test
  void searchAndHealthAreAnsweredWhileSixHeavyDedupRequestsRun() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    String index = dir.resolve("idx").toString();
    Files.writeString(corpus.resolve("coffee.txt"), "Coffee is a brewed drink prepared from roasted coffee beans."
        + " Caffeine in coffee acts as a stimulant of the central nervous system.");
    CliRunner in = CliRunner.run("ingest", "--index", index, "--no-embed", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();
    try (Service s = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).maxConcurrent(4)
        .requestTimeoutMillis(600_000).build(),
        ServiceLog.text(new PrintWriter(serverLog, true)))) {
      // Within every cap: 256 passages of one sentence, one sentence pair for each of the 32,640
      // look-alike pairs at the near and the semantic level.
      String heavy = dedupOf(List.of(), 256);
      List<CompletableFuture<HttpResponse<String>>> running = new ArrayList<>();
      for (int i = 0; i < 6; i++) running.add(http.sendAsync(post(s, "/v1/dedup", heavy), HttpResponse.BodyHandlers.ofString()));
      // All six handed to the endpoints (running or waiting for a slot), at least one deduplicating.
      long waitUntil = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (threadsIn(HeavyRequestsStallServiceTest::handedOver) < 6 || threadsIn(HeavyRequestsStallServiceTest::dedup) < 1) {
        assertThat(running).as("the heavy requests were answered before they were all running").noneMatch(CompletableFuture::isDone);
        assertThat(System.nanoTime()).as("the six heavy requests never all reached the endpoints").isLessThan(waitUntil);
        Thread.sleep(10);
      }

      HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/health"))
          .timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> search = http.send(post(s, "/v1/search", NORMAL), HttpResponse.BodyHandlers.ofString());
      List<Boolean> doneWhenSearchAnswered = running.stream().map(CompletableFuture::isDone).toList();

      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
      assertThat(json(search).get("results")).isNotEmpty();
      assertThat(doneWhenSearchAnswered).as("the search waited until heavy requests were done").containsOnly(false);
      for (CompletableFuture<HttpResponse<String>> f : running) {
        HttpResponse<String> r = f.get();
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("passages")).hasSize(256);
      }

      // The same shape with seven sentences a passage: 49 pairs for each look-alike pair, over the cap.
      List<String> seven = new ArrayList<>(LONG);
      HttpResponse<String> over = http.send(post(s, "/v1/dedup", dedupOf(seven, 256)), HttpResponse.BodyHandlers.ofString());
      assertThat(over.statusCode()).as(over.body()).isEqualTo(422);
      assertThat(json(over).at("/error/code").asText()).isEqualTo("too_much_work");
      assertThat(json(over).at("/error/message").asText())
          .contains("more than 250,000 sentence comparisons between look-alike passages")
          .contains("at most 250,000 are accepted per request").contains("--max-dedup-comparisons");
      // Compress and verify: 256 items of 25 short sentences, 6,400 sentences, refused before any is scored.
      ObjectNode compress = Json.object().put("query", "coffee").put("budget", 100);
      ObjectNode verify = Json.object().put("query", "coffee").put("answer", "Coffee is hot [S1].");
      ArrayNode cps = compress.putArray("passages");
      ArrayNode vss = verify.putArray("sources");
      for (int i = 0; i < 256; i++) {
        StringBuilder t = new StringBuilder();
        for (int k = 0; k < 25; k++) t.append("Coffee is hot ").append(i * 25 + k).append(". ");
        cps.add(Json.object().put("id", "p" + i).put("text", t.toString()));
        vss.add(Json.object().put("id", "S" + (i + 1)).put("text", t.toString()));
      }
      for (String[] c : new String[][] {{"/v1/compress", compress.toString(), "'passages'"}, {"/v1/verify", verify.toString(), "'sources'"}}) {
        HttpResponse<String> r = http.send(post(s, c[0], c[1]), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        assertThat(json(r).at("/error/message").asText())
            .contains("the request needs 6,400 sentences in " + c[2] + "; at most 5,000 are accepted per request")
            .contains("--max-sentences");
      }
      // And the service still answers.
      assertThat(http.send(post(s, "/v1/search", NORMAL), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aTimedOutRequestStopsItsWorkAndFreesItsSlot() throws Exception {
    // What a first request loads once (the tokenizer's tables, the segmenter's rules) is not work a
    // deadline can stop: loaded here, before the service starts.
    String small = "{\"passages\": [{\"id\": \"a\", \"text\": \"Tea is a drink.\"}, {\"id\": \"b\", \"text\": \"Coffee is a drink.\"}]}";
    DedupEndpoint.of(DedupEndpoint.Cascade.of(DedupOptions.strict(), "none")).handle(Json.parseObject(small));
    // One slot, one place in the queue, a limit far below what the request needs (two sentences a
    // passage, near level only: 130,560 of the 250,000 sentence comparisons).
    try (Service s = Service.start(ServiceConfig.builder().port(0).embedder("none").maxConcurrent(1).maxQueued(1)
        .requestTimeoutMillis(300).build(), ServiceLog.text(new PrintWriter(serverLog, true)))) {
      HttpResponse<String> slow = http.send(post(s, "/v1/dedup", dedupOf(List.of(TRIAL), 256)),
          HttpResponse.BodyHandlers.ofString());
      assertThat(slow.statusCode()).as(slow.body()).isEqualTo(503);
      assertThat(json(slow).at("/error/code").asText()).isEqualTo("timeout");
      assertThat(json(slow).at("/error/message").asText()).contains("longer than the limit of 300 ms (--request-timeout-ms)");

      // Its work stopped with the answer: the next request finds the slot free (it would otherwise
      // wait its whole limit behind work nobody is waiting for).
      HttpResponse<String> next = http.send(post(s, "/v1/dedup", small), HttpResponse.BodyHandlers.ofString());
      assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
      assertThat(threadsIn(HeavyRequestsStallServiceTest::dedup)).as("dedup work still running after its time-out").isZero();
    }
  }
}
