package dev.ctxpack.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.JsonEndpoint;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link HttpService} with stand-in endpoints: faults, refusals and stopping, which real endpoints rarely show. */
class HttpServiceTest {
  private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static final StringWriter log = new StringWriter();
  /** One service for the tests that do not stop it (a stop waits about a second for idle connections). */
  private static HttpService shared;

  @BeforeAll
  static void startShared() {
    shared = HttpService.builder().host("127.0.0.1").port(0).log(ServiceLog.text(new PrintWriter(log, true)))
        .post("/v1/echo", req -> Json.object().put("got", req.get("x").asInt() + 1))
        .post("/v1/boom", req -> {
          throw new IllegalStateException("secret path /srv/data/x");
        })
        .post("/v1/overflow", req -> {
          throw new StackOverflowError("deep");
        })
        .post("/v1/usage", req -> {
          throw new UsageException("field 'budget' must be positive");
        })
        .post("/v1/arg", req -> {
          throw new IllegalArgumentException("field 'k' must be an integer");
        })
        .unavailable("/v1/search", "no index")
        .start();
  }

  @AfterAll
  static void stopShared() {
    if (shared != null) shared.close();
  }

  private static HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return post(shared, path, body);
  }

  private static HttpResponse<String> post(HttpService service, String path, String body) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(service, path)).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(HttpService service, String path) {
    return URI.create("http://127.0.0.1:" + service.port() + path);
  }

  private static JsonNode error(HttpResponse<String> r) throws IOException {
    return Json.MAPPER.readTree(r.body()).get("error");
  }

  private static int health() throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(shared, "/health")).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  @Test
  void theEndpointSeesTheRequestObjectAndItsResultIsTheBody() throws Exception {
    HttpResponse<String> r = post("/v1/echo", "{\"x\": 41, \"ignored\": true}");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("{\"got\":42}");
  }

  @Test
  void aFaultIsA500WithoutItsDetailsWhichGoToTheLog() throws Exception {
    HttpResponse<String> r = post("/v1/boom", "{}");
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(error(r).get("code").asText()).isEqualTo("internal");
    assertThat(r.body()).doesNotContain("secret").doesNotContain("IllegalStateException").doesNotContain("\tat ");
    assertThat(log.toString()).contains("POST /v1/boom failed").contains("IllegalStateException: secret path")
        .contains("\tat dev.ctxpack.app.http.HttpServiceTest");
    assertThat(health()).isEqualTo(200);
  }

  @Test
  void aJavaLangErrorIsA500TooAndTheServerGoesOn() throws Exception {
    HttpResponse<String> r = post("/v1/overflow", "{}");
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(error(r).get("code").asText()).isEqualTo("internal");
    assertThat(r.body()).doesNotContain("StackOverflowError");
    assertThat(log.toString()).contains("StackOverflowError");
    assertThat(health()).isEqualTo(200);
  }

  @Test
  void refusalsOfTheEndpointAreBadRequestsWithTheirMessage() throws Exception {
    HttpResponse<String> u = post("/v1/usage", "{}");
    assertThat(u.statusCode()).isEqualTo(400);
    assertThat(error(u).get("code").asText()).isEqualTo("bad_request");
    assertThat(error(u).get("message").asText()).isEqualTo("field 'budget' must be positive");
    HttpResponse<String> a = post("/v1/arg", "{}");
    assertThat(a.statusCode()).isEqualTo(400);
    assertThat(error(a).get("message").asText()).isEqualTo("field 'k' must be an integer");
    assertThat(log.toString()).doesNotContain("/v1/usage").doesNotContain("/v1/arg");
  }

  @Test
  void anUnavailableRouteIs503WithItsReason() throws Exception {
    HttpResponse<String> r = post("/v1/search", "{}");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(error(r).get("code").asText()).isEqualTo("unavailable");
    assertThat(error(r).get("message").asText()).isEqualTo("no index");
  }

  @Test
  void aRouteGivenTwiceIsRefused() {
    HttpService.Builder b = HttpService.builder().post("/v1/a", req -> req);
    assertThatThrownBy(() -> b.post("/v1/a", req -> req)).hasMessageContaining("/v1/a");
    assertThatThrownBy(() -> b.post("/health", req -> req)).hasMessageContaining("/health");
  }

  @Test
  void stoppingLetsARequestInFlightFinishAndThenRefusesConnections() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    HttpService service = HttpService.builder().host("127.0.0.1").port(0).post("/v1/slow", req -> {
      entered.countDown();
      Thread.sleep(700);
      return Json.object().put("done", true);
    }).start();
    try {
      CompletableFuture<HttpResponse<String>> inFlight = http.sendAsync(HttpRequest.newBuilder(uri(service, "/v1/slow"))
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      URI health = uri(service, "/health");
      long t0 = System.nanoTime();
      service.close();
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(HttpService.STOP_GRACE_MILLIS));
      HttpResponse<String> r = inFlight.get(10, TimeUnit.SECONDS);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("{\"done\":true}");
      assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(IOException.class);
    } finally {
      service.close();
    }
  }

  // ---- limits, readiness and metrics ----

  @Test
  void aSlowEndpointGetsTimeoutWithinTheLimitIsInterruptedAndTheServerGoesOn() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    HttpService service = HttpService.builder().host("127.0.0.1").port(0).requestTimeoutMillis(300).post("/v1/slow", req -> {
      try {
        Thread.sleep(10_000);
      } catch (InterruptedException e) {
        interrupted.countDown();
        throw e;
      }
      return Json.object().put("done", true);
    }).start();
    try {
      long t0 = System.nanoTime();
      HttpResponse<String> r = post(service, "/v1/slow", "{}");
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
      assertThat(error(r).get("code").asText()).isEqualTo("timeout");
      assertThat(error(r).get("message").asText()).contains("300 ms").contains("--request-timeout-ms");
      assertThat(took).as("timed out rather than waiting for the 10 s sleep").isLessThan(Duration.ofSeconds(10));
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).as("the endpoint's thread was interrupted").isTrue();
      assertThat(get(service, "/health").statusCode()).isEqualTo(200);
    } finally {
      service.close();
    }
  }

  /** An endpoint that holds its slot until {@code release}, ignoring interrupts (so a timeout does not free it). */
  private static JsonEndpoint holding(CountDownLatch entered, CountDownLatch release) {
    return req -> {
      entered.countDown();
      boolean interrupted = false;
      while (true) {
        try {
          if (release.await(20, TimeUnit.SECONDS)) break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) Thread.currentThread().interrupt();
      return Json.object().put("held", true);
    };
  }

  private static CompletableFuture<HttpResponse<String>> postAsync(HttpService service, String path, String body) {
    return http.sendAsync(HttpRequest.newBuilder(uri(service, path)).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Waits (bounded) until {@code n} requests are queued on {@code service}. */
  private static void awaitQueued(HttpService service, int n) throws InterruptedException {
    for (int i = 0; i < 1000 && service.queued() < n; i++) Thread.sleep(10);
    assertThat(service.queued()).isEqualTo(n);
  }

  @Test
  void requestsOverTheConcurrencyCapWaitInTheQueueAndAreServedInTurn() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    HttpService service = HttpService.builder().host("127.0.0.1").port(0).maxConcurrent(1).maxQueued(2)
        .post("/v1/hold", holding(entered, release))
        .post("/v1/echo", req -> Json.object().put("got", req.get("x").asInt())).start();
    try {
      CompletableFuture<HttpResponse<String>> first = postAsync(service, "/v1/hold", "{}");
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      CompletableFuture<HttpResponse<String>> second = postAsync(service, "/v1/echo", "{\"x\": 2}");
      CompletableFuture<HttpResponse<String>> third = postAsync(service, "/v1/echo", "{\"x\": 3}");
      awaitQueued(service, 2);
      // The queue is full: the next one is refused at once, naming both limits.
      HttpResponse<String> busy = post(service, "/v1/echo", "{\"x\": 4}");
      assertThat(busy.statusCode()).as(busy.body()).isEqualTo(503);
      assertThat(error(busy).get("code").asText()).isEqualTo("busy");
      assertThat(error(busy).get("message").asText()).contains("1 concurrent").contains("--max-concurrent")
          .contains("2 more are waiting").contains("--max-queued");
      assertThat(get(service, "/health").statusCode()).isEqualTo(200); // not an endpoint: never queued
      assertThat(second).isNotDone();
      assertThat(third).isNotDone();
      release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(second.get(10, TimeUnit.SECONDS).body()).isEqualTo("{\"got\":2}");
      assertThat(third.get(10, TimeUnit.SECONDS).body()).isEqualTo("{\"got\":3}");
      assertThat(post(service, "/v1/echo", "{\"x\": 5}").statusCode()).isEqualTo(200);
    } finally {
      release.countDown();
      service.close();
    }
  }

  @Test
  void withNoQueueARequestOverTheCapIsBusyAtOnceAndTheSlotComesBack() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    HttpService service = HttpService.builder().host("127.0.0.1").port(0).maxConcurrent(1).maxQueued(0)
        .post("/v1/hold", holding(entered, release))
        .post("/v1/echo", req -> Json.object().put("ok", true)).start();
    try {
      CompletableFuture<HttpResponse<String>> first = postAsync(service, "/v1/hold", "{}");
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      HttpResponse<String> busy = post(service, "/v1/echo", "{}");
      assertThat(busy.statusCode()).as(busy.body()).isEqualTo(503);
      assertThat(error(busy).get("code").asText()).isEqualTo("busy");
      release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(post(service, "/v1/echo", "{}").statusCode()).isEqualTo(200);
    } finally {
      release.countDown();
      service.close();
    }
  }

  @Test
  void theWaitForASlotCountsWithinTheTimeoutAndATimedOutRequestLeavesTheQueue() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger ran = new AtomicInteger();
    HttpService service = HttpService.builder().host("127.0.0.1").port(0).maxConcurrent(1).maxQueued(1)
        .requestTimeoutMillis(300)
        .post("/v1/hold", holding(entered, release))
        .post("/v1/echo", req -> Json.object().put("ran", ran.incrementAndGet())).start();
    try {
      CompletableFuture<HttpResponse<String>> first = postAsync(service, "/v1/hold", "{}");
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      // The holder outlives its own limit (it ignores the interrupt), so the slot stays taken.
      HttpResponse<String> waited = post(service, "/v1/echo", "{}");
      assertThat(waited.statusCode()).as(waited.body()).isEqualTo(503);
      assertThat(error(waited).get("code").asText()).isEqualTo("timeout");
      assertThat(error(waited).get("message").asText()).contains("waited").contains("300 ms")
          .contains("--request-timeout-ms").contains("--max-concurrent");
      assertThat(service.queued()).as("the timed-out request left the queue").isZero();
      release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).as("the holder's own answer").isEqualTo(503);
      assertThat(post(service, "/v1/echo", "{}").body()).isEqualTo("{\"ran\":1}");
      assertThat(ran.get()).as("the request that timed out in the queue never ran").isEqualTo(1);
    } finally {
      release.countDown();
      service.close();
    }
  }

  @Test
  void aQueueCapOutOfRangeIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> HttpService.builder().maxQueued(-1)).hasMessageContaining("--max-queued").hasMessageContaining("-1");
    assertThatThrownBy(() -> HttpService.builder().maxQueued(ServiceConfig.MAX_QUEUED_LIMIT + 1)).hasMessageContaining("--max-queued");
  }

  @Test
  void readyIsReadyUntilTheServiceStartsStopping() throws Exception {
    HttpService service = HttpService.builder().host("127.0.0.1").port(0).start();
    try {
      HttpResponse<String> ready = get(service, "/ready");
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body()).isEqualTo("{\"status\":\"ready\"}");
      // close() does this first; Jetty then stops accepting connections, so it is tested on its own.
      service.markStopping();
      HttpResponse<String> stopping = get(service, "/ready");
      assertThat(stopping.statusCode()).isEqualTo(503);
      assertThat(stopping.body()).isEqualTo("{\"status\":\"stopping\"}");
      assertThat(get(service, "/health").body()).isEqualTo("{\"status\":\"ok\"}");
    } finally {
      service.close();
    }
  }

  @Test
  void metricsCountRequestsErrorsDurationsTokensAndVerdicts() throws Exception {
    HttpService service = HttpService.builder().host("127.0.0.1").port(0)
        .post("/v1/echo", req -> Json.object().put("got", req.get("x").asInt()))
        .post("/v1/arg", req -> {
          throw new IllegalArgumentException("field 'k' must be an integer");
        })
        .post("/v1/compress", req -> Json.object().put("tokensIn", 100).put("tokensOut", 40))
        .post("/v1/verify", req -> {
          var out = Json.object();
          out.putArray("claims").add(Json.object().put("verdict", "supported"))
              .add(Json.object().put("verdict", "contradicted")).add(Json.object().put("verdict", "supported"));
          return out;
        })
        .start();
    try {
      for (int i = 0; i < 3; i++) assertThat(post(service, "/v1/echo", "{\"x\": 1}").statusCode()).isEqualTo(200);
      assertThat(post(service, "/v1/arg", "{}").statusCode()).isEqualTo(400);
      assertThat(post(service, "/v1/echo", "not json").statusCode()).isEqualTo(400);
      assertThat(get(service, "/no/such/path").statusCode()).isEqualTo(404);
      assertThat(post(service, "/v1/compress", "{}").statusCode()).isEqualTo(200);
      assertThat(post(service, "/v1/compress", "{}").statusCode()).isEqualTo(200);
      assertThat(post(service, "/v1/verify", "{}").statusCode()).isEqualTo(200);

      HttpResponse<String> r = get(service, "/metrics");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
      String m = r.body();
      assertThat(value(m, "ctxpack_requests_total{endpoint=\"/v1/echo\",status=\"200\"}")).isEqualTo(3);
      assertThat(value(m, "ctxpack_requests_total{endpoint=\"/v1/echo\",status=\"400\"}")).isEqualTo(1);
      assertThat(value(m, "ctxpack_requests_total{endpoint=\"/v1/arg\",status=\"400\"}")).isEqualTo(1);
      assertThat(value(m, "ctxpack_requests_total{endpoint=\"other\",status=\"404\"}")).isEqualTo(1);
      assertThat(value(m, "ctxpack_errors_total{endpoint=\"/v1/echo\",code=\"bad_request\"}")).isEqualTo(1);
      assertThat(value(m, "ctxpack_errors_total{endpoint=\"/v1/arg\",code=\"bad_request\"}")).isEqualTo(1);
      assertThat(value(m, "ctxpack_errors_total{endpoint=\"other\",code=\"not_found\"}")).isEqualTo(1);
      assertThat(value(m, "ctxpack_request_seconds_bucket{endpoint=\"/v1/echo\",le=\"+Inf\"}")).isEqualTo(4);
      assertThat(value(m, "ctxpack_request_seconds_count{endpoint=\"/v1/echo\"}")).isEqualTo(4);
      assertThat(value(m, "ctxpack_request_seconds_sum{endpoint=\"/v1/echo\"}")).isPositive();
      assertThat(value(m, "ctxpack_request_seconds_bucket{endpoint=\"/v1/echo\",le=\"10.0\"}")).isEqualTo(4);
      assertThat(value(m, "ctxpack_tokens_in_total")).isEqualTo(200);
      assertThat(value(m, "ctxpack_tokens_out_total")).isEqualTo(80);
      assertThat(value(m, "ctxpack_verify_claims_total{verdict=\"supported\"}")).isEqualTo(2);
      assertThat(value(m, "ctxpack_verify_claims_total{verdict=\"contradicted\"}")).isEqualTo(1);
      assertThat(m).contains("# TYPE ctxpack_request_seconds histogram\n").contains("# TYPE ctxpack_requests_total counter\n");
      // The same counts give the same text: the series are in a fixed order.
      assertThat(get(service, "/metrics").body()).contains(m.substring(m.indexOf("# HELP ctxpack_errors_total")));
    } finally {
      service.close();
    }
  }

  /** The value of the one series {@code series} (name and labels, as written) in a metrics text. */
  static double value(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
    assertThat(m.find()).as("%s in%n%s", series, metrics).isTrue();
    return Double.parseDouble(m.group(1));
  }

  private static HttpResponse<String> get(HttpService service, String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(service, path)).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aPortInUseIsReportedWithTheAddress() {
    int taken = shared.port();
    assertThatThrownBy(() -> HttpService.builder().host("127.0.0.1").port(taken).start())
        .hasMessageContaining("cannot listen on 127.0.0.1:" + taken);
  }
}
