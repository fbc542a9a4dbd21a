package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.Requests;
import dev.ctxpack.index.IndexSpec;
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
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests built to hurt, against the real {@code ctxpack serve} (real BM25 index, real MiniLM) on
 * loopback: each gets a 4xx whose message names what was wrong, and a normal request right after it
 * is still answered. The caps are those of docs/API.md ("Limits").
 */
class HostileRequestsTest {
  private static final int MAX_BODY = 1 << 20;
  private static final String NORMAL = "{\"query\": \"What is the stimulant in coffee?\", \"k\": 2}";

  @TempDir static Path dir;
  static String index;
  static Service server;
  static final StringWriter serverLog = new StringWriter();
  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void indexAndServe() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    index = dir.resolve("idx").toString();
    Files.writeString(corpus.resolve("coffee.txt"),
        "Coffee is a brewed drink prepared from roasted coffee beans. Caffeine in coffee acts as a stimulant of the"
            + " central nervous system.");
    Files.writeString(corpus.resolve("tea.txt"), "Tea is an aromatic beverage prepared by pouring hot water over cured leaves.");
    CliRunner in = CliRunner.run("ingest", "--index", index, "--no-embed", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();
    server = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).maxBodyBytes(MAX_BODY).build(),
            ServiceLog.text(new PrintWriter(serverLog, true)));
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) server.close();
  }

  /** {@code n} distinct words, so that each is its own term in every language field. */
  static String words(int n) {
    return IntStream.range(0, n).mapToObj(i -> "w" + Integer.toString(i, 36)).collect(Collectors.joining(" "));
  }

  private static ObjectNode query(String q) {
    return Json.object().put("query", q);
  }

  private static ObjectNode withPassages(ObjectNode req, int n) {
    ArrayNode ps = req.putArray("passages");
    for (int i = 0; i < n; i++) ps.add(Json.object().put("id", "p" + i).put("text", "Coffee beans are roasted, number " + i + "."));
    return req;
  }

  private static ObjectNode withSources(ObjectNode req, int n) {
    ArrayNode ss = req.putArray("sources");
    for (int i = 0; i < n; i++) ss.add(Json.object().put("id", "S" + (i + 1)).put("text", "Coffee beans are roasted."));
    return req;
  }

  // ---- long queries ----

  @Test
  void aFiveThousandWordQueryIsRefusedByEveryCommandThatTakesOne() throws Exception {
    String q = words(5_000);
    refused("/v1/search", query(q), "field 'query' has 5000 words; at most 1024");
    refused("/v1/pack", query(q), "field 'query' has 5000 words");
    refused("/v1/compress", withPassages(query(q).put("budget", 50), 2), "field 'query' has 5000 words");
    refused("/v1/verify", withSources(query(q).put("answer", "Coffee beans are roasted [S1]."), 1), "field 'query' has 5000 words");
  }

  @Test
  void aQueryOverTheCharacterCapIsRefused() throws Exception {
    String q = "coffee".repeat(2_000); // one 12,000-character word
    refused("/v1/search", query(q), "field 'query' has 12000 characters; at most 8192");
    refused("/v1/pack", query(q), "field 'query' has 12000 characters");
  }

  @Test
  void aQueryAtTheCapOfDistinctTermsIsAnsweredNeverHittingLucenesClauseLimit() throws Exception {
    // 1,024 distinct terms in each of the three language fields would be over Lucene's 1,024 clauses.
    String q = words(Requests.MAX_QUERY_WORDS - 1) + " coffee";
    assertThat(q.length()).isLessThanOrEqualTo(Requests.MAX_QUERY_CHARS);
    for (String path : new String[] {"/v1/search", "/v1/pack"}) {
      HttpResponse<String> r = post(path, Json.line(query(q)));
      assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    }
    assertThat(serverLog.toString()).doesNotContain("failed");
  }

  @Test
  void aBatchLineGetsTheSameRefusalNamingTheField() {
    CliRunner r = CliRunner.runWithStdin(Json.line(query(words(5_000))) + "\n" + NORMAL + "\n", "search", "--batch", "-", "--index", index);
    String[] lines = r.out().strip().split("\n");
    assertThat(lines).as(r.err()).hasSize(2);
    assertThat(lines[0]).contains("\"line\":1").contains("field 'query' has 5000 words; at most 1024");
    assertThat(lines[1]).contains("\"results\"");
    assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
  }

  // ---- bodies ----

  @Test
  void jsonNestedTenThousandDeepIsABadRequest() throws Exception {
    refused("/v1/search", "{\"query\": \"coffee\", \"x\": " + "[".repeat(10_000) + "]".repeat(10_000) + "}", "nesting depth");
    refused("/v1/pack", "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000), "nesting depth");
    refused("/v1/dedup", "[".repeat(10_000), "nesting depth");
  }

  /** One raw request on a socket (no client normalises it), the whole response back. */
  private static String raw(String request) throws IOException {
    URI u = uri("/");
    try (java.net.Socket socket = new java.net.Socket(u.getHost(), u.getPort())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private static void assertJsonError(String response, int status, String code) throws Exception {
    assertThat(response).startsWith("HTTP/1.1 " + status).containsIgnoringCase("content-type: application/json")
        .doesNotContain("<html").doesNotContain("<h2>");
    JsonNode error = Json.MAPPER.readTree(response.substring(response.indexOf("\r\n\r\n") + 4)).get("error");
    assertThat(error.get("code").asText()).isEqualTo(code);
    assertThat(error.get("message").asText()).isNotBlank();
  }

  @Test
  void errorsJettyAnswersItselfAreJsonNotHtml() throws Exception {
    // A path with .. segments and headers over Jetty's limit used to get Jetty's HTML error page.
    assertJsonError(raw("GET /v1/../../etc/passwd HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), 400, "bad_request");
    assertJsonError(raw("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(64 * 1024)
        + "\r\nConnection: close\r\n\r\n"), 431, "headers_too_large");
    HttpResponse<String> normal = post("/v1/search", NORMAL);
    assertThat(normal.statusCode()).isEqualTo(200);
  }

  @Test
  void aBodyOverTheCapIsTooLarge() throws Exception {
    String big = "{\"query\": \"coffee\", \"pad\": \"" + "x".repeat(MAX_BODY) + "\"}";
    assertRefused(post("/v1/search", big), 413, "too_large", MAX_BODY + " bytes");
  }

  @Test
  void invalidUtf8IsABadRequest() throws Exception {
    byte[] head = "{\"query\": \"caf".getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[head.length + 4];
    System.arraycopy(head, 0, body, 0, head.length);
    body[head.length] = (byte) 0xFF; // never valid in UTF-8
    body[head.length + 1] = (byte) 0xFE;
    body[head.length + 2] = '"';
    body[head.length + 3] = '}';
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/v1/search")).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertRefused(r, 400, "bad_request", "not valid UTF-8");
  }

  @Test
  void unknownFieldsAreIgnored() throws Exception {
    HttpResponse<String> r = post("/v1/search", "{\"query\": \"coffee\", \"k\": 1, \"bogus\": {\"deep\": [1, 2]}, \"K\": \"x\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(Json.MAPPER.readTree(r.body()).get("results").size()).isEqualTo(1);
  }

  // ---- numbers out of range and wrong types ----

  @Test
  void budgetsThatAreNegativeZeroOrAbsurdAreRefused() throws Exception {
    refused("/v1/pack", query("coffee").put("budget", -5), "field 'budget' must be in [1, 2000000], was -5");
    refused("/v1/pack", query("coffee").put("budget", 0), "field 'budget' must be in [1, 2000000], was 0");
    refused("/v1/pack", query("coffee").put("budget", 1_000_000_000), "field 'budget' must be in [1, 2000000]");
    refused("/v1/pack", query("coffee").put("budget", 1e30), "field 'budget' must be an integer");
    refused("/v1/compress", withPassages(query("coffee").put("budget", -1), 1), "budget must be in [1, 2000000]");
    refused("/v1/compress", withPassages(query("coffee").put("budget", 5_000_000), 1), "budget must be in [1, 2000000]");
  }

  @Test
  void kOutOfRangeIsRefused() throws Exception {
    refused("/v1/search", query("coffee").put("k", 0), "field 'k' must be in [1, 1000], was 0");
    refused("/v1/search", query("coffee").put("k", -3), "field 'k' must be in [1, 1000], was -3");
    refused("/v1/search", query("coffee").put("k", 1_001), "field 'k' must be in [1, 1000], was 1001");
    refused("/v1/search", query("coffee").put("k", 10_000_000_000L), "field 'k' must be an integer");
  }

  @Test
  void packHonoursKAndRefusesItOutOfRange() throws Exception {
    // /v1/pack used to ignore "k": -5 and 1,000,000 were both 200.
    refused("/v1/pack", query("coffee").put("k", -5), "field 'k' must be in [1, 1000], was -5");
    refused("/v1/pack", query("coffee").put("k", 1_000_000), "field 'k' must be in [1, 1000], was 1000000");
    refused("/v1/pack", query("coffee").put("mode", "fuzzy"), "field 'mode'");
    HttpResponse<String> r = post("/v1/pack", Json.line(query("What is the stimulant in coffee?").put("k", 3).put("mode", "bm25")));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.body()).contains("candidates: mode=bm25, k=3, sparseK=2, denseK=2");
  }

  @Test
  void aKeyGivenTwiceIsRefusedNotReadAsItsLastValue() throws Exception {
    refused("/v1/search", "{\"query\": \"coffee\", \"k\": 5, \"k\": 1000000}", "Duplicate field 'k'");
    refused("/v1/pack", "{\"query\": \"coffee\", \"budget\": 100, \"budget\": 900}", "Duplicate field 'budget'");
  }

  @Test
  void aFieldOfTheWrongTypeIsRefusedByName() throws Exception {
    refused("/v1/search", "{\"query\": \"coffee\", \"k\": \"ten\"}", "field 'k' must be an integer");
    refused("/v1/search", "{\"query\": \"coffee\", \"k\": 2.5}", "field 'k' must be an integer");
    refused("/v1/search", "{\"query\": 42}", "field 'query' must be a string");
    refused("/v1/search", "{\"query\": \"coffee\", \"mode\": true}", "field 'mode' must be a string");
    refused("/v1/pack", "{\"query\": \"coffee\", \"budget\": [1]}", "field 'budget' must be an integer");
    refused("/v1/pack", "{\"query\": [\"coffee\"]}", "field 'query' must be a string");
    refused("/v1/compress", "{\"query\": \"coffee\", \"budget\": 10, \"passages\": {}}", "field 'passages' must be an array");
    refused("/v1/compress", Json.line(withPassages(query("coffee").put("threshold", "high"), 1)), "field 'threshold' must be a number");
    refused("/v1/dedup", "{\"passages\": \"p\"}", "field 'passages' must be an array");
    refused("/v1/verify", "{\"sources\": 1, \"answer\": \"x\"}", "field 'sources' must be an array");
    refused("/v1/verify", Json.line(withSources(Json.object().put("answer", 7), 1)), "field 'answer' must be a string or an object");
  }

  // ---- batch caps ----

  @Test
  void tooManyPassagesOrTooMuchTextAreRefusedNamingTheFieldAndTheCap() throws Exception {
    int over = Requests.MAX_PASSAGES + 1;
    refused("/v1/compress", withPassages(query("coffee").put("budget", 50), over), "field 'passages' has 257 items; at most 256");
    refused("/v1/dedup", withPassages(Json.object(), over), "field 'passages' has 257 items; at most 256");
    String half = "Coffee beans are roasted. ".repeat(Requests.MAX_TEXT_CHARS / 2 / 26 + 1);
    ObjectNode big = query("coffee").put("budget", 50);
    big.putArray("passages").add(Json.object().put("id", "a").put("text", half)).add(Json.object().put("id", "b").put("text", half));
    refused("/v1/compress", big, "field 'passages' holds " + 2 * half.length() + " characters of text; at most 250000");
    big.remove("query");
    refused("/v1/dedup", big, "field 'passages' holds " + 2 * half.length() + " characters of text");
  }

  @Test
  void tooManySourcesTooMuchSourceTextAnAnswerTooLongOrTooManyClaimsAreRefused() throws Exception {
    refused("/v1/verify", withSources(Json.object().put("answer", "Coffee beans are roasted [S1]."), Requests.MAX_SOURCES + 1),
        "field 'sources' has 257 items; at most 256");
    ObjectNode bigSource = Json.object().put("answer", "Coffee beans are roasted [S1].");
    bigSource.putArray("sources").add(Json.object().put("id", "S1").put("text", "x".repeat(Requests.MAX_TEXT_CHARS + 1)));
    refused("/v1/verify", bigSource, "field 'sources' holds 250001 characters of text; at most 250000");
    String longAnswer = "Coffee beans are roasted [S1]. ".repeat(Requests.MAX_ANSWER_CHARS / 31 + 1);
    refused("/v1/verify", withSources(Json.object().put("answer", longAnswer), 1),
        "field 'answer' has " + longAnswer.length() + " characters; at most 20000");
    ObjectNode structured = withSources(Json.object(), 1);
    ArrayNode claims = structured.putObject("answer").putArray("claims");
    for (int i = 0; i <= Requests.MAX_CLAIMS; i++) claims.add(Json.object().put("text", "Coffee is roasted."));
    refused("/v1/verify", structured, "field 'answer.claims' has 257 items; at most 256");
  }

  @Test
  void requestsAtTheCapsAreAnswered() throws Exception {
    ObjectNode compress = withPassages(query("coffee beans").put("budget", 50), Requests.MAX_PASSAGES);
    assertThat(post("/v1/compress", Json.line(compress)).statusCode()).isEqualTo(200);
    ObjectNode verify = withSources(Json.object(), Requests.MAX_SOURCES);
    verify.put("answer", "Coffee beans are roasted [S1]. ".repeat(Requests.MAX_ANSWER_CHARS / 31));
    HttpResponse<String> r = post("/v1/verify", Json.line(verify));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  // ---- helpers ----

  private static void refused(String path, ObjectNode body, String messagePart) throws Exception {
    refused(path, Json.line(body), messagePart);
  }

  private static void refused(String path, String body, String messagePart) throws Exception {
    assertRefused(post(path, body), 400, "bad_request", messagePart);
  }

  /** Asserts the error, then that the service still answers a normal search. */
  private static void assertRefused(HttpResponse<String> r, int status, String code, String messagePart) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode error = Json.MAPPER.readTree(r.body()).get("error");
    assertThat(error).as(r.body()).isNotNull();
    assertThat(error.get("code").asText()).isEqualTo(code);
    assertThat(error.get("message").asText()).contains(messagePart).doesNotContain("Exception");
    HttpResponse<String> normal = post("/v1/search", NORMAL);
    assertThat(normal.statusCode()).as("a normal request after it: " + normal.body()).isEqualTo(200);
    assertThat(Json.MAPPER.readTree(normal.body()).get("results").get(0).get("text").asText()).contains("Caffeine");
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  private static HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
