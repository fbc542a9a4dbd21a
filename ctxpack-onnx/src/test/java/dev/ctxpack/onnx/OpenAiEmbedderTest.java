package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ctxpack.embed.Embedder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link OpenAiEmbedder} against a real HTTP server on loopback that plays an
 * OpenAI-compatible endpoint. The first path segment picks the behaviour: {@code ok-*} answers
 * like OpenAI (items in reverse order, vectors not normalised), {@code fail} answers 500,
 * {@code malformed}, {@code nodata}, {@code short}, {@code mixeddim} answer broken bodies.
 */
class OpenAiEmbedderTest extends EmbedderContract {
  static final int DIM = 16;
  static final ObjectMapper JSON = new ObjectMapper();
  static final List<Recorded> REQUESTS = new CopyOnWriteArrayList<>();
  static final String ERROR_BODY = "upstream exploded: " + "x".repeat(181) + "SECRET-TAIL" + "y".repeat(100);

  static HttpServer server;
  static OpenAiEmbedder contract;

  record Recorded(String method, String path, String authorization, String contentType, JsonNode body) {}

  @BeforeAll
  static void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", OpenAiEmbedderTest::handle);
    server.start();
    contract = builder("ok-contract").apiKey("sk-test").batchSize(4).build();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  static OpenAiEmbedder.Builder builder(String behaviour) {
    return OpenAiEmbedder.builder()
        .baseUrl("http://127.0.0.1:" + server.getAddress().getPort() + "/" + behaviour + "/v1")
        .model("test-embed")
        .timeout(Duration.ofSeconds(10));
  }

  static List<Recorded> requests(String behaviour) {
    return REQUESTS.stream().filter(r -> r.path().startsWith("/" + behaviour + "/")).collect(Collectors.toList());
  }

  /** What the fake model returns for a text: deterministic, not unit length. */
  static float[] fakeVector(String text, int dim) {
    Random r = new Random(text.hashCode());
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) v[i] = (float) (3 * r.nextGaussian());
    return v;
  }

  @Override
  Embedder embedder() {
    return contract;
  }

  @Test
  void sendsModelInputAndBearerKeyAsJson() {
    OpenAiEmbedder e = builder("ok-body").apiKey("sk-secret").build();
    e.embed(List.of("alpha", "beta \"quoted\" ação"));
    List<Recorded> got = requests("ok-body");
    assertThat(got).hasSize(1);
    Recorded r = got.get(0);
    assertThat(r.method()).isEqualTo("POST");
    assertThat(r.path()).isEqualTo("/ok-body/v1/embeddings");
    assertThat(r.authorization()).isEqualTo("Bearer sk-secret");
    assertThat(r.contentType()).startsWith("application/json");
    assertThat(r.body().get("model").asText()).isEqualTo("test-embed");
    assertThat(r.body().get("input")).hasSize(2);
    assertThat(r.body().get("input").get(0).asText()).isEqualTo("alpha");
    assertThat(r.body().get("input").get(1).asText()).isEqualTo("beta \"quoted\" ação");
    assertThat(r.body().size()).as("only model and input are sent").isEqualTo(2);
  }

  @Test
  void sendsNoAuthorizationWithoutKey() {
    builder("ok-nokey").apiKey("  ").build().embed(List.of("alpha"));
    assertThat(requests("ok-nokey")).singleElement().satisfies(r -> assertThat(r.authorization()).isNull());
  }

  @Test
  void splitsIntoBatchesAndReordersByIndexAndNormalises() {
    OpenAiEmbedder e = builder("ok-batching").build();
    List<String> texts = IntStream.range(0, 150).mapToObj(i -> "text number " + i).collect(Collectors.toList());
    List<float[]> vectors = e.embed(texts);

    assertThat(requests("ok-batching")).extracting(r -> r.body().get("input").size()).containsExactly(64, 64, 22);
    assertThat(requests("ok-batching").get(2).body().get("input").get(0).asText()).isEqualTo("text number 128");
    assertThat(vectors).hasSize(150);
    for (int i = 0; i < texts.size(); i++) {
      float[] expected = Embedder.normalize(fakeVector(texts.get(i), DIM));
      assertThat(vectors.get(i)).as("texts[%d]", i).containsExactly(expected, within(1e-6f));
      assertThat(norm(vectors.get(i))).isCloseTo(1.0, within(1e-6));
    }
  }

  @Test
  void emptyInputSendsNoRequest() {
    assertThat(builder("ok-empty").build().embed(List.of())).isEmpty();
    assertThat(requests("ok-empty")).isEmpty();
  }

  @Test
  void dimensionIsLearnedWithOneProbeOrTakenFromTheBuilder() {
    OpenAiEmbedder probed = builder("ok-probe").build();
    assertThat(probed.dimension()).isEqualTo(DIM);
    assertThat(probed.dimension()).isEqualTo(DIM);
    assertThat(requests("ok-probe")).hasSize(1);

    OpenAiEmbedder configured = builder("ok-configured").dimension(DIM).build();
    assertThat(configured.dimension()).isEqualTo(DIM);
    assertThat(requests("ok-configured")).isEmpty();
  }

  @Test
  void serverErrorNamesStatusAndTheStartOfTheBody() {
    OpenAiEmbedder e = builder("fail").build();
    assertThatThrownBy(() -> e.embed(List.of("alpha")))
        .isInstanceOfSatisfying(EmbeddingServiceException.class, x -> assertThat(x.status()).isEqualTo(500))
        .hasMessageContaining("HTTP 500")
        .hasMessageContaining("/fail/v1/embeddings")
        .hasMessageContaining(ERROR_BODY.substring(0, 200))
        .hasMessageNotContaining("SECRET-TAIL");
  }

  @Test
  void malformedBodyIsReportedClearly() {
    for (String behaviour : List.of("malformed", "nodata", "short")) {
      OpenAiEmbedder e = builder(behaviour).build();
      assertThatThrownBy(() -> e.embed(List.of("alpha", "beta")))
          .as(behaviour)
          .isInstanceOfSatisfying(EmbeddingServiceException.class, x -> assertThat(x.status()).isEqualTo(-1))
          .hasMessageContaining("malformed response")
          .hasMessageContaining("/" + behaviour + "/v1/embeddings");
    }
  }

  @Test
  void mismatchedDimensionsAreReported() {
    assertThatThrownBy(() -> builder("mixeddim").build().embed(List.of("alpha", "beta", "gamma")))
        .isInstanceOf(EmbeddingServiceException.class)
        .hasMessageContaining("dimension mismatch")
        .hasMessageContaining("8")
        .hasMessageContaining("16");
    assertThatThrownBy(() -> builder("ok-wrongdim").dimension(1536).build().embed(List.of("alpha")))
        .isInstanceOf(EmbeddingServiceException.class)
        .hasMessageContaining("dimension mismatch")
        .hasMessageContaining("1536");
  }

  @Test
  void unreachableEndpointIsReported() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    OpenAiEmbedder e = OpenAiEmbedder.builder().baseUrl("http://127.0.0.1:" + port + "/v1").model("m")
        .timeout(Duration.ofSeconds(5)).build();
    assertThatThrownBy(() -> e.embed(List.of("alpha")))
        .isInstanceOfSatisfying(EmbeddingServiceException.class, x -> assertThat(x.status()).isEqualTo(-1))
        .hasMessageContaining("could not reach")
        .hasMessageContaining("127.0.0.1:" + port);
  }

  @Test
  void builderRejectsBadOptionsNamingThem() {
    assertThatThrownBy(() -> OpenAiEmbedder.builder().build()).hasMessageContaining("model");
    assertThatThrownBy(() -> OpenAiEmbedder.builder().batchSize(0)).hasMessageContaining("batchSize").hasMessageContaining("0");
    assertThatThrownBy(() -> OpenAiEmbedder.builder().baseUrl("ftp://x/v1")).hasMessageContaining("ftp://x/v1");
    assertThatThrownBy(() -> OpenAiEmbedder.builder().timeout(Duration.ZERO)).hasMessageContaining("timeout");
  }

  @Test
  void idNamesTheModelAndToStringHidesTheKey() {
    OpenAiEmbedder e = builder("ok-x").apiKey("sk-very-secret").build();
    assertThat(e.id()).isEqualTo("openai:test-embed");
    assertThat(e.toString()).doesNotContain("sk-very-secret");
    OpenAiEmbedder slash = OpenAiEmbedder.builder().baseUrl("http://localhost:1/v1//").model("m").build();
    assertThat(slash.baseUrl()).isEqualTo("http://localhost:1/v1");
  }

  static void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      byte[] raw = ex.getRequestBody().readAllBytes();
      JsonNode body = raw.length == 0 ? JSON.nullNode() : JSON.readTree(raw);
      REQUESTS.add(new Recorded(ex.getRequestMethod(), path,
          ex.getRequestHeaders().getFirst("Authorization"), ex.getRequestHeaders().getFirst("Content-Type"), body));
      String behaviour = path.split("/")[1];
      if (behaviour.equals("fail")) {
        send(ex, 500, ERROR_BODY);
      } else if (behaviour.equals("malformed")) {
        send(ex, 200, "{\"object\":\"list\",\"data\":[{\"index\":0,\"embe");
      } else if (behaviour.equals("nodata")) {
        send(ex, 200, "{\"object\":\"list\",\"error\":null}");
      } else {
        JsonNode input = body.get("input");
        ObjectNode response = JSON.createObjectNode().put("object", "list");
        ArrayNode data = response.putArray("data");
        int n = behaviour.equals("short") ? input.size() - 1 : input.size();
        for (int i = n - 1; i >= 0; i--) { // reverse order: the client must sort by index
          int dim = behaviour.equals("mixeddim") && i == n - 1 ? 8 : DIM;
          ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
          ArrayNode vector = item.putArray("embedding");
          for (float x : fakeVector(input.get(i).asText(), dim)) vector.add(x);
        }
        response.put("model", body.get("model").asText());
        send(ex, 200, JSON.writeValueAsString(response));
      }
    }
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
