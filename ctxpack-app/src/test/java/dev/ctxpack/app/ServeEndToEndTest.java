package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.cli.Main;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.index.IndexSpec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ctxpack serve} end to end: the real command's wiring on a loopback ephemeral port, a real
 * BM25 index, the real MiniLM for compress and dedup, called with {@link HttpClient}; every answer
 * is compared with what the command's {@code --batch} mode gives for the same line.
 */
class ServeEndToEndTest {
  /** Small, so the 413 cases stay small; every other request here is well under it. */
  private static final int MAX_BODY = 32 * 1024;

  private static final String CURIE = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891 to study "
      + "physics. She won the Nobel Prize in Chemistry in 1911. We use cookies to improve your experience.";
  private static final String RHINE = "The Rhine rises in the Swiss Alps. It flows through six countries before "
      + "reaching the North Sea. The river is about 1,230 km long.";

  @TempDir static Path dir;
  static String index;
  static Service server;
  static final StringWriter serverLog = new StringWriter();
  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  private Service other;

  @BeforeAll
  static void indexAndServe() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    index = dir.resolve("idx").toString();
    Files.writeString(corpus.resolve("coffee.txt"),
        "Coffee is a brewed drink prepared from roasted coffee beans. It is one of the most popular drinks in the world. "
            + "Caffeine in coffee acts as a stimulant of the central nervous system.");
    Files.writeString(corpus.resolve("docs.jsonl"), """
        {"_id": "tea-1", "title": "Tea", "text": "Tea is an aromatic beverage prepared by pouring hot water over cured leaves."}
        {"_id": "tea-2", "title": "Tea copy", "text": "Tea is an aromatic beverage prepared by pouring hot water over cured leaves."}
        {"_id": "mate", "title": "Mate", "text": "O chimarrão é uma bebida tradicional do sul do Brasil preparada com erva-mate."}
        """);
    CliRunner in = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();
    server = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).maxBodyBytes(MAX_BODY).build(),
            ServiceLog.text(new PrintWriter(serverLog, true)));
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) server.close();
  }

  @AfterEach
  void stopOther() throws IOException {
    if (other != null) other.close();
  }

  // ---- what the endpoints answer ----

  @Test
  void healthSaysOk() throws Exception {
    HttpResponse<String> r = get("/health");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(r.body()).isEqualTo("{\"status\":\"ok\"}");
    assertThat(serverLog.toString()).contains("listening on http://127.0.0.1:" + server.port()).contains("index " + index);
  }

  @Test
  void compressAnswersExactlyWhatItsBatchLineAnswers() throws Exception {
    ObjectNode req = Json.object().put("id", "r1").put("query", "How long is the Rhine?").put("budget", 25);
    req.putArray("passages").add(passage("curie", CURIE)).add(passage("rhine", RHINE));
    String line = Json.line(req);

    HttpResponse<String> r = post("/v1/compress", line);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.body()).isEqualTo(batch(line, "compress"));
    JsonNode out = Json.MAPPER.readTree(r.body());
    assertThat(out.get("id").asText()).isEqualTo("r1");
    assertThat(out.get("tokensOut").asInt()).isPositive().isLessThanOrEqualTo(25);
    assertThat(out.get("scorer").asText()).contains("minilm");
    assertThat(out.get("passages").get(0).get("text").asText()).contains("The river is about 1,230 km long.");
    assertThat(out.get("dropped").toString()).contains("\"reason\":\"boilerplate\"");
  }

  @Test
  void verifyAnswersExactlyWhatItsBatchLineAnswers() throws Exception {
    ObjectNode req = Json.object().put("id", "v1").put("query", "How long is the Rhine?")
        .put("answer", "The river is about 1,320 km long [S1]. It rises in the Swiss Alps [S1]. It is wide [S7].");
    req.putArray("sources").add(Json.object().put("id", "S1").put("text", RHINE));
    String line = Json.line(req);

    HttpResponse<String> r = post("/v1/verify", line);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.body()).isEqualTo(batch(line, "verify"));
    JsonNode out = Json.MAPPER.readTree(r.body());
    assertThat(out.get("id").asText()).isEqualTo("v1");
    assertThat(out.get("claims").get(0).get("verdict").asText()).isEqualTo("contradicted");
    assertThat(out.get("claims").get(1).get("verdict").asText()).isEqualTo("supported");
    assertThat(out.get("invalidCitations").toString()).isEqualTo("[\"S7\"]");
    assertThat(out.get("feedback").asText()).contains("Claim 1 contradicts [S1]");

    HttpResponse<String> bad = post("/v1/verify", "{\"sources\": [], \"answer\": 3}");
    assertError(bad, 400, "bad_request", "answer");
  }

  @Test
  void metricsCountVerifyClaimsByVerdictAndCompressTokensFromTheResults() throws Exception {
    String before = get("/metrics").body();
    ObjectNode verify = Json.object().put("query", "How long is the Rhine?")
        .put("answer", "The river is about 1,320 km long [S1]. It rises in the Swiss Alps [S1].");
    verify.putArray("sources").add(Json.object().put("id", "S1").put("text", RHINE));
    HttpResponse<String> v = post("/v1/verify", Json.line(verify));
    assertThat(v.statusCode()).as(v.body()).isEqualTo(200);
    Map<String, Integer> verdicts = new TreeMap<>();
    Json.MAPPER.readTree(v.body()).get("claims").forEach(c -> verdicts.merge(c.get("verdict").asText(), 1, Integer::sum));
    assertThat(verdicts).containsKeys("contradicted", "supported");

    ObjectNode compress = Json.object().put("query", "How long is the Rhine?").put("budget", 25);
    compress.putArray("passages").add(passage("rhine", RHINE));
    HttpResponse<String> c = post("/v1/compress", Json.line(compress));
    assertThat(c.statusCode()).as(c.body()).isEqualTo(200);
    JsonNode tokens = Json.MAPPER.readTree(c.body());

    String after = get("/metrics").body();
    for (Map.Entry<String, Integer> e : verdicts.entrySet()) {
      String series = "ctxpack_verify_claims_total{verdict=\"" + e.getKey() + "\"}";
      assertThat(metric(after, series) - valueOr0(before, series)).as(series).isEqualTo(e.getValue().doubleValue());
    }
    assertThat(metric(after, "ctxpack_tokens_in_total") - metric(before, "ctxpack_tokens_in_total"))
        .isEqualTo(tokens.get("tokensIn").asInt());
    assertThat(metric(after, "ctxpack_tokens_out_total") - metric(before, "ctxpack_tokens_out_total"))
        .isEqualTo(tokens.get("tokensOut").asInt());
    String ok = "ctxpack_requests_total{endpoint=\"/v1/verify\",status=\"200\"}";
    assertThat(metric(after, ok) - valueOr0(before, ok)).isEqualTo(1);
    assertThat(after).contains("ctxpack_request_seconds_bucket{endpoint=\"/v1/compress\",le=\"+Inf\"}");
  }

  @Test
  void metricsTimeEachStageOfPackAndSearchAndCountDedupDecisionsByLevel() throws Exception {
    String before = get("/metrics").body();
    HttpResponse<String> p = post("/v1/pack", "{\"query\": \"What is tea prepared from?\", \"budget\": 400}");
    assertThat(p.statusCode()).as(p.body()).isEqualTo(200);
    JsonNode pack = Json.MAPPER.readTree(p.body());
    assertThat(post("/v1/search", "{\"query\": \"tea leaves\"}").statusCode()).isEqualTo(200);
    String after = get("/metrics").body();
    for (String stage : List.of("retrieve", "dedup", "select", "compress", "order", "render")) {
      String series = "ctxpack_stage_seconds_count{endpoint=\"/v1/pack\",stage=\"" + stage + "\"}";
      assertThat(metric(after, series) - valueOr0(before, series)).as(series).isEqualTo(1);
    }
    String search = "ctxpack_stage_seconds_count{endpoint=\"/v1/search\",stage=\"retrieve\"}";
    assertThat(metric(after, search) - valueOr0(before, search)).isEqualTo(1);
    // The two tea documents are exact copies: the pack's trace merges them, and the metrics count it.
    Map<String, Integer> levels = new TreeMap<>();
    for (JsonNode d : pack.get("trace")) {
      if (d.get("stage").asText().equals("dedup")) {
        String rule = d.get("rule").asText();
        levels.merge(rule.substring(0, rule.indexOf(':')) + "/" + d.get("action").asText(), 1, Integer::sum);
      }
    }
    assertThat(levels).isNotEmpty();
    for (Map.Entry<String, Integer> e : levels.entrySet()) {
      String[] la = e.getKey().split("/");
      String series = "ctxpack_dedup_decisions_total{level=\"" + la[0] + "\",action=\"" + la[1] + "\"}";
      assertThat(metric(after, series) - valueOr0(before, series)).as(series).isEqualTo(e.getValue().doubleValue());
    }
    assertThat(metric(after, "ctxpack_pack_prompt_tokens_total") - valueOr0(before, "ctxpack_pack_prompt_tokens_total"))
        .isEqualTo(pack.get("budget").get("used").asInt());
  }

  private static double valueOr0(String metrics, String series) {
    return metrics.contains(series + " ") ? metric(metrics, series) : 0;
  }

  @Test
  void readyOnceTheComponentsAreLoaded() throws Exception {
    HttpResponse<String> r = get("/ready");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("{\"status\":\"ready\"}");
  }

  @Test
  void dedupAnswersExactlyWhatItsBatchLineAnswers() throws Exception {
    ObjectNode req = Json.object().put("id", "d1");
    req.putArray("passages").add(passage("a", RHINE)).add(passage("b", RHINE)).add(passage("c", CURIE));
    String line = Json.line(req);

    HttpResponse<String> r = post("/v1/dedup", line);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.body()).isEqualTo(batch(line, "dedup"));
    JsonNode out = Json.MAPPER.readTree(r.body());
    assertThat(out.get("passages")).hasSize(2);
    assertThat(out.get("passages").get(0).get("sources").toString()).contains("\"a\"").contains("\"b\"");
    assertThat(out.get("decisions").get(0).get("level").asText()).isEqualTo("exact");
  }

  @Test
  void searchAndPackAnswerExactlyWhatTheirBatchLinesAnswer() throws Exception {
    String search = "{\"id\": \"q1\", \"query\": \"What is the stimulant in coffee?\", \"k\": 3}";
    HttpResponse<String> s = post("/v1/search", search);
    assertThat(s.statusCode()).as(s.body()).isEqualTo(200);
    assertThat(s.body()).isEqualTo(batch(search, "search", "--index", index));
    JsonNode results = Json.MAPPER.readTree(s.body()).get("results");
    assertThat(results.size()).isBetween(1, 3);
    assertThat(results.get(0).get("text").asText()).contains("Caffeine");

    String pack = "{\"id\": \"p1\", \"query\": \"How is tea prepared?\", \"budget\": 600}";
    HttpResponse<String> p = post("/v1/pack", pack);
    assertThat(p.statusCode()).as(p.body()).isEqualTo(200);
    assertThat(p.body()).isEqualTo(batch(pack, "pack", "--index", index));
    JsonNode pkg = Json.MAPPER.readTree(p.body());
    assertThat(pkg.get("prompt").asText()).contains("[S1]").contains("pouring hot water");
    assertThat(pkg.get("budget").get("used").asInt()).isPositive().isLessThanOrEqualTo(600);
    assertThat(pkg.get("trace").toString()).contains("\"stage\":\"dedup\"");
    String marked = "{\"id\": \"p2\", \"query\": \"How is tea prepared?\", \"budget\": 600, \"injection\": \"datamark\"}";
    HttpResponse<String> m = post("/v1/pack", marked);
    assertThat(m.statusCode()).as(m.body()).isEqualTo(200);
    assertThat(m.body()).isEqualTo(batch(marked, "pack", "--index", index));
    assertThat(Json.MAPPER.readTree(m.body()).get("prompt").asText()).contains("pouringˆhotˆwater");
  }

  @Test
  void unknownFieldsAreIgnoredAsInBatchMode() throws Exception {
    HttpResponse<String> plain = post("/v1/search", "{\"query\": \"coffee beans\", \"k\": 2}");
    HttpResponse<String> extra = post("/v1/search", "{\"query\": \"coffee beans\", \"k\": 2, \"colour\": {\"x\": [1, 2]}}");
    assertThat(extra.statusCode()).isEqualTo(200);
    assertThat(extra.body()).isEqualTo(plain.body()).contains("roasted coffee beans");
  }

  @Test
  void concurrentRequestsShareTheComponentsAndGetTheSequentialAnswers() throws Exception {
    ObjectNode c = Json.object().put("query", "Where was Curie born?").put("budget", 30);
    c.putArray("passages").add(passage("curie", CURIE)).add(passage("rhine", RHINE));
    String compress = Json.line(c);
    String search = "{\"query\": \"tea leaves\", \"k\": 2}";
    String compressed = post("/v1/compress", compress).body();
    String found = post("/v1/search", search).body();
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      calls.add(http.sendAsync(postRequest("/v1/compress", compress), HttpResponse.BodyHandlers.ofString()));
      calls.add(http.sendAsync(postRequest("/v1/search", search), HttpResponse.BodyHandlers.ofString()));
    }
    for (int i = 0; i < calls.size(); i++) {
      HttpResponse<String> r = calls.get(i).get(30, TimeUnit.SECONDS);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).isEqualTo(i % 2 == 0 ? compressed : found);
    }
  }

  // ---- errors: status, code, message, and the server still answers afterwards ----

  @Test
  void invalidJsonIsABadRequest() throws Exception {
    assertError(post("/v1/search", "{\"query\": "), 400, "bad_request", "invalid JSON");
    assertError(post("/v1/compress", "not json at all"), 400, "bad_request", "invalid JSON");
  }

  @Test
  void aBodyThatIsNotAnObjectIsABadRequest() throws Exception {
    assertError(post("/v1/search", "[1, 2]"), 400, "bad_request", "expected a JSON object");
    assertError(post("/v1/dedup", "\"passages\""), 400, "bad_request", "expected a JSON object");
    assertError(post("/v1/dedup", ""), 400, "bad_request", "expected a JSON object");
  }

  @Test
  void aRefusedFieldIsABadRequestWithTheBatchModesMessage() throws Exception {
    String[][] cases = {
        {"/v1/search", "search", "{\"query\": \"coffee\", \"k\": \"ten\"}", "field 'k'"},
        {"/v1/search", "search", "{\"k\": 3}", "field 'query'"},
        {"/v1/pack", "pack", "{\"query\": \"tea\", \"budget\": 5}", "budget of 5 tokens is too small"},
        {"/v1/pack", "pack", "{\"query\": \"tea\", \"preset\": \"huge\"}", "unknown preset 'huge'"},
        {"/v1/pack", "pack", "{\"query\": \"tea\", \"injection\": \"loud\"}", "field 'injection': unknown injection policy 'loud'"},
        {"/v1/compress", "compress", "{\"query\": \"q\", \"budget\": -5, \"passages\": []}", "budget must be in [1"},
        {"/v1/compress", "compress", "{\"query\": \"q\", \"passages\": []}", "give a budget, a preset or a threshold"},
        {"/v1/dedup", "dedup", "{\"passages\": [{\"id\": \"a\", \"text\": \"\"}]}", "passages[0]: field 'text' of a"},
        {"/v1/dedup", "dedup", "{\"passages\": 3}", "field 'passages' must be an array"},
    };
    for (String[] c : cases) {
      JsonNode error = assertError(post(c[0], c[2]), 400, "bad_request", c[3]);
      // The same words as the batch mode's error line for the same request.
      String batchLine = c[1].equals("search") || c[1].equals("pack")
          ? batch(c[2], c[1], "--index", index) : batch(c[2], c[1], "--embedder", "none");
      assertThat(Json.MAPPER.readTree(batchLine).get("error").asText()).as(c[2]).isEqualTo(error.get("message").asText());
    }
  }

  @Test
  void anUnknownPathIsNotFound() throws Exception {
    assertError(post("/v1/nothing", "{}"), 404, "not_found", "/v1/nothing");
    assertError(get("/nothing"), 404, "not_found", "GET /nothing");
    // Served since assemble came: an empty request is a bad request, not an unknown path.
    assertError(post("/v1/assemble", "{}"), 400, "bad_request", "query");
  }

  @Test
  void aWrongMethodIsNotAllowed() throws Exception {
    HttpResponse<String> r = get("/v1/search");
    assertError(r, 405, "method_not_allowed", "GET");
    assertThat(r.headers().firstValue("Allow")).hasValue("POST");
    HttpResponse<String> h = post("/health", "{}");
    assertError(h, 405, "method_not_allowed", "/health");
    assertThat(h.headers().firstValue("Allow")).hasValue("GET");
  }

  @Test
  void aBodyOverTheCapIsTooLargeWithOrWithoutAContentLength() throws Exception {
    String big = "{\"query\": \"" + "x".repeat(MAX_BODY) + "\"}";
    assertError(post("/v1/search", big), 413, "too_large", Integer.toString(MAX_BODY));
    // Chunked: no Content-Length to refuse it by, so the cap is counted while reading.
    HttpRequest chunked = HttpRequest.newBuilder(uri("/v1/compress")).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
        .build();
    assertError(http.send(chunked, HttpResponse.BodyHandlers.ofString()), 413, "too_large", "bytes");
    // Just under the cap is read and answered.
    String fits = "{\"query\": \"coffee\", \"pad\": \"" + "x".repeat(MAX_BODY - 100) + "\"}";
    assertThat(post("/v1/search", fits).statusCode()).isEqualTo(200);
  }

  @Test
  void jsonNestedDeeperThan64IsABadRequest() throws Exception {
    // The request object is level 1: 63 arrays inside it make 64 levels, which is allowed.
    String ok = "{\"query\": \"coffee\", \"deep\": " + "[".repeat(63) + "]".repeat(63) + "}";
    assertThat(post("/v1/search", ok).statusCode()).isEqualTo(200);
    String deep = "{\"query\": \"coffee\", \"deep\": " + "[".repeat(64) + "]".repeat(64) + "}";
    assertError(post("/v1/search", deep), 400, "bad_request", "nesting depth");
    assertError(post("/v1/dedup", "[".repeat(5000)), 400, "bad_request", "nesting depth");
  }

  @Test
  void invalidUtf8IsABadRequest() throws Exception {
    byte[] head = "{\"query\": \"caf".getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[head.length + 3];
    System.arraycopy(head, 0, body, 0, head.length);
    body[head.length] = (byte) 0xC3; // a lead byte followed by no continuation byte
    body[head.length + 1] = '"';
    body[head.length + 2] = '}';
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/v1/search"))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertError(r, 400, "bad_request", "not valid UTF-8 (byte " + head.length + ")");
    // Well-formed UTF-8 is fine, a leading byte-order mark included.
    byte[] bom = ("\uFEFF{\"query\": \"café\"}").getBytes(StandardCharsets.UTF_8);
    assertThat(http.send(HttpRequest.newBuilder(uri("/v1/search")).POST(HttpRequest.BodyPublishers.ofByteArray(bom)).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
  }

  // ---- starting and stopping ----

  @Test
  void withoutAnIndexCompressAndDedupAreServedAndSearchAndPackSaySo() throws Exception {
    StringWriter log = new StringWriter();
    other = Service.start(ServiceConfig.builder().port(0).build(), ServiceLog.text(new PrintWriter(log, true)));
    assertThat(log.toString()).contains("no index");
    URI base = URI.create("http://127.0.0.1:" + other.port());
    assertThat(send(HttpRequest.newBuilder(base.resolve("/health")).build()).statusCode()).isEqualTo(200);
    String line = "{\"passages\": [{\"id\": \"a\", \"text\": \"Same words.\"}, {\"id\": \"b\", \"text\": \"Same words.\"}]}";
    HttpResponse<String> d = send(HttpRequest.newBuilder(base.resolve("/v1/dedup")).POST(HttpRequest.BodyPublishers.ofString(line)).build());
    assertThat(d.statusCode()).isEqualTo(200);
    assertThat(d.body()).isEqualTo(batch(line, "dedup"));
    for (String path : List.of("/v1/search", "/v1/pack")) {
      HttpResponse<String> r = send(HttpRequest.newBuilder(base.resolve(path))
          .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"tea\"}")).build());
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(Json.MAPPER.readTree(r.body()).get("error").get("code").asText()).isEqualTo("unavailable");
      assertThat(Json.MAPPER.readTree(r.body()).get("error").get("message").asText()).contains("--index");
    }
    // The index's other routes say the same, whatever their method.
    for (HttpRequest req : List.of(HttpRequest.newBuilder(base.resolve("/v1/memories?user=ana")).build(),
        HttpRequest.newBuilder(base.resolve("/v1/memories/m1?user=ana")).DELETE().build(),
        HttpRequest.newBuilder(base.resolve("/v1/documents/d1")).DELETE().build())) {
      HttpResponse<String> r = send(req);
      assertThat(r.statusCode()).as(req.method() + " " + req.uri()).isEqualTo(503);
      assertThat(Json.MAPPER.readTree(r.body()).get("error").get("message").asText()).contains("--index");
    }
  }

  @Test
  void anIndexGivenButMissingStopsTheCommandWithExitCode1() {
    CliRunner r = CliRunner.run("serve", "--index", dir.resolve("missing").toString(), "--port", "0");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("no index at").contains("missing");
  }

  @Test
  void closingStopsListening() throws Exception {
    other = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).build(),
            ServiceLog.text(new PrintWriter(new StringWriter())));
    URI health = URI.create("http://127.0.0.1:" + other.port() + "/health");
    assertThat(send(HttpRequest.newBuilder(health).build()).statusCode()).isEqualTo(200);
    other.close();
    other.close(); // idempotent
    assertThatThrownBy(() -> send(HttpRequest.newBuilder(health).build())).isInstanceOf(IOException.class);
  }

  /** The real command in its own JVM: it starts, answers, and on SIGTERM stops the server and says so. */
  @Test
  void theServeCommandRunsUntilSigtermAndThenStopsCleanly() throws Exception {
    Path stderr = Files.createTempFile(dir, "serve", ".err");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "serve", "--index", index, "--port", "0", "--embedder", "none")
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(stderr.toFile())
        .start();
    try {
      Matcher m = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+) ").matcher("");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!m.reset(Files.readString(stderr)).find() && p.isAlive() && System.nanoTime() < deadline) Thread.sleep(50);
      assertThat(m.reset(Files.readString(stderr)).find()).as("stderr: %s", Files.readString(stderr)).isTrue();
      URI base = URI.create("http://127.0.0.1:" + m.group(1));
      assertThat(send(HttpRequest.newBuilder(base.resolve("/health")).build()).body()).isEqualTo("{\"status\":\"ok\"}");
      assertThat(send(HttpRequest.newBuilder(base.resolve("/v1/search"))
          .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"tea\"}")).build()).body()).contains("Tea is an aromatic");

      p.destroy(); // SIGTERM
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("stopped within 20 s").isTrue();
      assertThat(Files.readAllLines(stderr)).contains("ctxpack serve: stopped");
      assertThatThrownBy(() -> send(HttpRequest.newBuilder(base.resolve("/health")).build())).isInstanceOf(IOException.class);
    } finally {
      p.destroyForcibly();
    }
  }

  // The child JVMs below get native access as the CLI jar's manifest grants it (Enable-Native-Access): without it
  // a JDK 22+ child warns on stderr when Lucene maps files through java.lang.foreign.

  /** {@code serve --format json}: every log line on stderr is a JSON object, from listening to stopped. */
  @Test
  void withFormatJsonTheLogLinesAreJsonObjects() throws Exception {
    Path stderr = Files.createTempFile(dir, "serve-json", ".err");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "serve", "--index", index, "--port", "0", "--embedder", "none", "--host", "127.0.0.1", "--format", "json")
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(stderr.toFile())
        .start();
    try {
      Matcher m = Pattern.compile("\\{\"level\":\"info\",\"message\":\"listening on http://127\\.0\\.0\\.1:(\\d+) ").matcher("");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!m.reset(Files.readString(stderr)).find() && p.isAlive() && System.nanoTime() < deadline) Thread.sleep(50);
      assertThat(m.reset(Files.readString(stderr)).find()).as("stderr: %s", Files.readString(stderr)).isTrue();
      URI base = URI.create("http://127.0.0.1:" + m.group(1));
      assertThat(send(HttpRequest.newBuilder(base.resolve("/health")).build()).statusCode()).isEqualTo(200);
      p.destroy(); // SIGTERM
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("stopped within 20 s").isTrue();
      List<String> lines = Files.readAllLines(stderr);
      assertThat(lines).hasSize(2);
      JsonNode first = Json.parseObject(lines.get(0));
      assertThat(first.get("level").asText()).isEqualTo("info");
      assertThat(first.get("message").asText()).isEqualTo("listening on " + base + " (index " + index + ")");
      assertThat(lines.get(1)).isEqualTo("{\"level\":\"info\",\"message\":\"stopped\"}");
    } finally {
      p.destroyForcibly();
    }
  }

  // ---- helpers ----

  /** The value of the one series {@code series} (name and labels, as written) in a metrics text. */
  private static double metric(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
    assertThat(m.find()).as("%s in%n%s", series, metrics).isTrue();
    return Double.parseDouble(m.group(1));
  }

  private static ObjectNode passage(String id, String text) {
    return Json.object().put("id", id).put("text", text);
  }

  /** The one output line of {@code ctxpack <command> --batch -} given {@code line}. */
  private static String batch(String line, String command, String... options) {
    List<String> args = new ArrayList<>(List.of(command, "--batch", "-"));
    args.addAll(List.of(options));
    CliRunner r = CliRunner.runWithStdin(line + "\n", args.toArray(String[]::new));
    String[] lines = r.out().strip().split("\n");
    assertThat(lines).as(r.err()).hasSize(1);
    return lines[0];
  }

  /** Asserts the error shape and the server's health after it; returns the {@code error} object. */
  private static JsonNode assertError(HttpResponse<String> r, int status, String code, String messagePart) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    JsonNode error = Json.MAPPER.readTree(r.body()).get("error");
    assertThat(error).as(r.body()).isNotNull();
    assertThat(error.get("code").asText()).isEqualTo(code);
    assertThat(error.get("message").asText()).contains(messagePart).doesNotContain("\tat ").doesNotContain("Exception");
    assertThat(get("/health").body()).isEqualTo("{\"status\":\"ok\"}");
    return error;
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  private static HttpRequest postRequest(String path, String body) {
    return HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return send(postRequest(path, body));
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET().build());
  }

  private static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
