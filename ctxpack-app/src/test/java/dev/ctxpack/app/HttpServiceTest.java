package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
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
    shared = HttpService.builder().host("127.0.0.1").port(0).log(new PrintWriter(log, true))
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
        .contains("\tat dev.ctxpack.app.HttpServiceTest");
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

  @Test
  void aPortInUseIsReportedWithTheAddress() {
    int taken = shared.port();
    assertThatThrownBy(() -> HttpService.builder().host("127.0.0.1").port(taken).start())
        .hasMessageContaining("cannot listen on 127.0.0.1:" + taken);
  }
}
