package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Signal;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link HttpReranker} against a real HTTP server on loopback that plays a rerank service and
 * scores each document by how many distinct query words it contains. The first path segment picks
 * the behaviour: {@code cohere} and {@code tei} answer in those shapes (results best first, as the
 * services do, so the client must match by index); {@code fail} answers 503; {@code malformed},
 * {@code noresults}, {@code short}, {@code dupindex}, {@code noindex}, {@code badscore} answer broken
 * bodies; {@code slow} answers after 1.5 s.
 */
class HttpRerankerTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final List<Recorded> REQUESTS = new CopyOnWriteArrayList<>();
  static final String ERROR_BODY = "model overloaded: " + "x".repeat(182) + "SECRET-TAIL" + "y".repeat(50);

  static HttpServer server;
  static ExecutorService serverThreads;

  record Recorded(String path, String authorization, String contentType, JsonNode body) {}

  static final String QUERY = "how does bm25 rank documents";
  static final List<Candidate> CANDIDATES =
      List.of(
          Candidates.of("c1", "Cats sleep for most of the day."),
          Candidates.of("c2", "BM25 ranks documents by term frequency and inverse document frequency."),
          Candidates.of("c3", "", "Dense retrieval ranks documents with vectors.", 3.0),
          Candidates.of("c4", "How BM25 works", "It ranks documents with a saturating term frequency.", 0.5),
          Candidates.of("c5", "Nothing in common here."));

  @BeforeAll
  static void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", HttpRerankerTest::handle);
    serverThreads = Executors.newFixedThreadPool(4);
    server.setExecutor(serverThreads);
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
    serverThreads.shutdownNow();
  }

  static String url(String behaviour) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + behaviour + "/v1/rerank";
  }

  static HttpReranker.Builder builder(String behaviour) {
    return HttpReranker.builder(url(behaviour)).timeout(Duration.ofSeconds(10));
  }

  static List<Recorded> requests(String behaviour) {
    return REQUESTS.stream().filter(r -> r.path().startsWith("/" + behaviour + "/")).collect(Collectors.toList());
  }

  @Test
  void cohereShapeRanksByTheServiceScoresAndKeepsOtherScores() throws IOException {
    HttpReranker r = builder("cohere-rank").model("rerank-test").build();
    List<Candidate> ranked = r.rerank(QUERY, CANDIDATES);

    // c4 gets "how" from its title on top of bm25 and documents; c3 led on BM25 but shares one word;
    // c1 and c5 share nothing (a tie, broken by id).
    assertThat(Candidates.ids(ranked)).containsExactly("c4", "c2", "c3", "c1", "c5");
    assertThat(ranked).extracting(Candidates::rerank).containsExactly(3.0, 2.0, 1.0, 0.0, 0.0);
    assertThat(ranked.get(0).scores().get(Signal.BM25)).hasValue(0.5);
    assertThat(ranked).allSatisfy(c -> assertThat(c.scores().get(Signal.BM25)).isPresent());
    assertThat(r.id()).isEqualTo("http:" + url("cohere-rank"));
  }

  @Test
  void cohereRequestCarriesModelQueryDocumentsTopNAndTheBearerKey() throws IOException {
    builder("cohere-body").model("rerank-test").apiKey("sk-rerank").build().rerank(QUERY, CANDIDATES);
    Recorded got = requests("cohere-body").get(0);
    assertThat(got.path()).isEqualTo("/cohere-body/v1/rerank");
    assertThat(got.authorization()).isEqualTo("Bearer sk-rerank");
    assertThat(got.contentType()).startsWith("application/json");
    assertThat(got.body().get("model").asText()).isEqualTo("rerank-test");
    assertThat(got.body().get("query").asText()).isEqualTo(QUERY);
    assertThat(got.body().get("top_n").asInt()).isEqualTo(5);
    assertThat(got.body().get("documents")).hasSize(5);
    assertThat(got.body().get("documents").get(0).asText()).isEqualTo("Cats sleep for most of the day.");
    assertThat(got.body().get("documents").get(3).asText())
        .isEqualTo("How BM25 works\n\nIt ranks documents with a saturating term frequency.");
    assertThat(got.body().has("texts")).isFalse();
  }

  @Test
  void noKeyNoAuthorizationAndNoModelNoModelField() throws IOException {
    builder("cohere-nokey").apiKey(" ").build().rerank(QUERY, CANDIDATES.subList(0, 1));
    Recorded got = requests("cohere-nokey").get(0);
    assertThat(got.authorization()).isNull();
    assertThat(got.body().has("model")).isFalse();
  }

  @Test
  void teiShapeSendsTextsAndReadsATopLevelArray() throws IOException {
    HttpReranker r = builder("tei-rank").format(HttpReranker.Format.TEI).model("ignored").build();
    List<Candidate> ranked = r.rerank(QUERY, CANDIDATES);
    assertThat(Candidates.ids(ranked)).containsExactly("c4", "c2", "c3", "c1", "c5");
    Recorded got = requests("tei-rank").get(0);
    assertThat(got.body().get("texts")).hasSize(5);
    assertThat(got.body().get("query").asText()).isEqualTo(QUERY);
    assertThat(got.body().get("truncate").asBoolean()).isTrue();
    assertThat(got.body().has("documents")).isFalse();
    assertThat(got.body().has("model")).isFalse();
  }

  @Test
  void longListsAreSplitAndScoresMergedByIndex() throws IOException {
    List<Candidate> many = new ArrayList<>();
    for (int i = 0; i < 23; i++) {
      // candidate i shares (i % 5) query words; the ids sort in the input order
      String text = String.join(" ", List.of("how", "does", "bm25", "rank").subList(0, i % 5)) + " filler " + i;
      many.add(Candidates.of(String.format("m%02d", i), text));
    }
    for (HttpReranker.Format format : HttpReranker.Format.values()) {
      String behaviour = format.name().toLowerCase() + "-split";
      List<Candidate> ranked = builder(behaviour).format(format).maxDocuments(5).build().rerank(QUERY, many);

      assertThat(requests(behaviour)).extracting(r -> r.body().get(format == HttpReranker.Format.TEI ? "texts" : "documents").size())
          .containsExactly(5, 5, 5, 5, 3);
      List<String> expected = IntStream.range(0, 23).boxed()
          .sorted(Comparator.comparing((Integer i) -> -(i % 5)).thenComparing(i -> i))
          .map(i -> String.format("m%02d", i)).collect(Collectors.toList());
      assertThat(Candidates.ids(ranked)).as(behaviour).isEqualTo(expected);
      for (Candidate c : ranked) {
        int i = Integer.parseInt(c.chunk().id().substring(1));
        assertThat(Candidates.rerank(c)).as("%s %s", behaviour, c.chunk().id()).isEqualTo(i % 5);
      }
    }
  }

  @Test
  void emptyListSendsNoRequest() throws IOException {
    assertThat(builder("cohere-empty").build().rerank(QUERY, List.of())).isEmpty();
    assertThat(requests("cohere-empty")).isEmpty();
  }

  @Test
  void blankQueryIsRejected() {
    assertThatThrownBy(() -> builder("cohere-blank").build().rerank(" ", CANDIDATES))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("query");
    assertThat(requests("cohere-blank")).isEmpty();
  }

  @Test
  void errorStatusNamesUrlStatusAndTheStartOfTheBody() {
    HttpReranker r = builder("fail").model("m").apiKey("sk-never-shown").build();
    assertThatThrownBy(() -> r.rerank(QUERY, CANDIDATES))
        .isInstanceOfSatisfying(RerankServiceException.class, x -> assertThat(x.status()).isEqualTo(503))
        .hasMessageContaining("HTTP 503")
        .hasMessageContaining(url("fail"))
        .hasMessageContaining(ERROR_BODY.substring(0, 200))
        .hasMessageNotContaining("SECRET-TAIL")
        .hasMessageNotContaining("sk-never-shown");
  }

  @Test
  void aFailureInALaterRequestFailsTheWholeCall() {
    // the server answers the first request and fails the second: no partial result
    HttpReranker r = builder("failsecond").maxDocuments(3).build();
    assertThatThrownBy(() -> r.rerank(QUERY, CANDIDATES))
        .isInstanceOfSatisfying(RerankServiceException.class, x -> assertThat(x.status()).isEqualTo(500));
    assertThat(requests("failsecond")).hasSize(2);
  }

  @Test
  void malformedBodiesAreReportedClearly() {
    String[][] cases = {
      {"malformed", "not JSON"},
      {"noresults", "no results array"},
      {"short", "sent 5 documents but got 4 results"},
      {"dupindex", "out of range or repeated"},
      {"noindex", "no integer \"index\""},
      {"badscore", "no finite"},
    };
    for (String[] c : cases) {
      HttpReranker r = builder(c[0]).build();
      assertThatThrownBy(() -> r.rerank(QUERY, CANDIDATES))
          .as(c[0])
          .isInstanceOfSatisfying(RerankServiceException.class, x -> assertThat(x.status()).isEqualTo(-1))
          .hasMessageContaining("malformed response")
          .hasMessageContaining(url(c[0]))
          .hasMessageContaining(c[1])
          .hasMessageContaining("body starts:");
    }
  }

  @Test
  void slowServiceTimesOut() {
    HttpReranker r = HttpReranker.builder(url("slow")).timeout(Duration.ofMillis(300)).build();
    long start = System.nanoTime();
    assertThatThrownBy(() -> r.rerank(QUERY, CANDIDATES))
        .isInstanceOfSatisfying(RerankServiceException.class, x -> assertThat(x.status()).isEqualTo(-1))
        .hasMessageContaining("did not answer within 300 ms")
        .hasMessageContaining(url("slow"));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1400));
  }

  @Test
  void unreachableEndpointIsReported() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    HttpReranker r = HttpReranker.builder("http://127.0.0.1:" + port + "/rerank").timeout(Duration.ofSeconds(5)).build();
    assertThatThrownBy(() -> r.rerank(QUERY, CANDIDATES))
        .isInstanceOf(RerankServiceException.class)
        .hasMessageContaining("could not reach")
        .hasMessageContaining("127.0.0.1:" + port);
  }

  @Test
  void builderRejectsBadOptionsNamingThem() {
    assertThatThrownBy(() -> HttpReranker.builder("ftp://x/rerank")).hasMessageContaining("ftp://x/rerank");
    assertThatThrownBy(() -> HttpReranker.builder(" ")).hasMessageContaining("url");
    assertThatThrownBy(() -> builder("x").maxDocuments(0)).hasMessageContaining("maxDocuments").hasMessageContaining("0");
    assertThatThrownBy(() -> builder("x").timeout(Duration.ZERO)).hasMessageContaining("timeout");
    assertThatThrownBy(() -> HttpReranker.Format.parse("openai")).hasMessageContaining("cohere or tei");
    assertThat(HttpReranker.Format.parse(" TEI ")).isEqualTo(HttpReranker.Format.TEI);
    assertThat(builder("x").apiKey("sk-hidden").build().toString()).doesNotContain("sk-hidden").contains("apiKey=set");
  }

  static void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      byte[] raw = ex.getRequestBody().readAllBytes();
      JsonNode body = raw.length == 0 ? JSON.nullNode() : JSON.readTree(raw);
      REQUESTS.add(new Recorded(path, ex.getRequestHeaders().getFirst("Authorization"),
          ex.getRequestHeaders().getFirst("Content-Type"), body));
      String behaviour = path.split("/")[1];
      String kind = behaviour.split("-")[0];
      switch (kind) {
        case "fail":
          send(ex, 503, ERROR_BODY);
          return;
        case "failsecond":
          if (requests("failsecond").size() >= 2) {
            send(ex, 500, "{\"message\":\"internal\"}");
            return;
          }
          send(ex, 200, JSON.writeValueAsString(cohereAnswer(body, scores(body))));
          return;
        case "malformed":
          send(ex, 200, "{\"results\":[{\"index\":0,\"relev");
          return;
        case "noresults":
          send(ex, 200, "{\"id\":\"abc\",\"meta\":{}}");
          return;
        case "slow":
          try {
            Thread.sleep(1500);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          send(ex, 200, JSON.writeValueAsString(cohereAnswer(body, scores(body))));
          return;
        case "tei":
          send(ex, 200, JSON.writeValueAsString(teiAnswer(scores(body))));
          return;
        default:
          ObjectNode answer = cohereAnswer(body, scores(body));
          ArrayNode results = (ArrayNode) answer.get("results");
          if (kind.equals("short")) results.remove(results.size() - 1);
          if (kind.equals("dupindex")) ((ObjectNode) results.get(1)).put("index", results.get(0).get("index").asInt());
          if (kind.equals("noindex")) ((ObjectNode) results.get(2)).remove("index");
          if (kind.equals("badscore")) ((ObjectNode) results.get(0)).put("relevance_score", "high");
          send(ex, 200, JSON.writeValueAsString(answer));
      }
    }
  }

  /** The overlap score of each document or text the request carries, in request order. */
  static double[] scores(JsonNode body) {
    String query = body.get("query").asText();
    JsonNode docs = body.has("documents") ? body.get("documents") : body.get("texts");
    double[] scores = new double[docs.size()];
    for (int i = 0; i < scores.length; i++) scores[i] = Candidates.overlap(query, docs.get(i).asText());
    return scores;
  }

  /** Indexes best first, as the services list them. */
  static List<Integer> bestFirst(double[] scores) {
    return IntStream.range(0, scores.length).boxed()
        .sorted(Comparator.comparing((Integer i) -> -scores[i]).thenComparing(i -> i))
        .collect(Collectors.toList());
  }

  static ObjectNode cohereAnswer(JsonNode request, double[] scores) {
    ObjectNode root = JSON.createObjectNode().put("id", "test");
    ArrayNode results = root.putArray("results");
    int topN = request.has("top_n") ? request.get("top_n").asInt() : scores.length;
    for (int i : bestFirst(scores).subList(0, Math.min(topN, scores.length))) {
      results.addObject().put("index", i).put("relevance_score", scores[i]);
    }
    root.putObject("meta").putObject("billed_units").put("search_units", 1);
    return root;
  }

  static ArrayNode teiAnswer(double[] scores) {
    ArrayNode root = JSON.createArrayNode();
    for (int i : bestFirst(scores)) root.addObject().put("index", i).put("score", scores[i]);
    return root;
  }

  static void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
