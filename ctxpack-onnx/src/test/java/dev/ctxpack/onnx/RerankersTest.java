package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.ctxpack.rerank.Reranker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RerankersTest {
  @TempDir static Path dir;
  static Path model;
  static HttpServer server;
  static final List<String> AUTHORIZATIONS = new CopyOnWriteArrayList<>();
  static final List<String> PATHS = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void setUp() throws IOException {
    model = Files.write(dir.resolve("cross.onnx"), OnnxGraphs.overlapCrossEncoder(false, true));
    try (InputStream in = RerankersTest.class.getClassLoader().getResourceAsStream(MiniLmEmbedder.TOKENIZER_RESOURCE)) {
      Files.copy(in, dir.resolve("tokenizer.json"));
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", ex -> {
      try (ex) {
        ex.getRequestBody().readAllBytes();
        AUTHORIZATIONS.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
        PATHS.add(ex.getRequestURI().getPath());
        byte[] body = "{\"results\":[{\"index\":0,\"relevance_score\":0.25}]}".getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
          out.write(body);
        }
      }
    });
    server.start();
  }

  @AfterAll
  static void tearDown() {
    server.stop(0);
  }

  static Function<String, String> env(Map<String, String> vars) {
    return vars::get;
  }

  static String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/rerank";
  }

  @Test
  void httpSpecTakesTheWholeUrlModelFormatAndBatch() {
    HttpReranker r = (HttpReranker) Rerankers.byName(
        "HTTP:" + url() + ", model=rerank-v3.5 ,format=TEI,batch=7", env(Map.of()));
    assertThat(r.endpoint().toString()).isEqualTo(url());
    assertThat(r.id()).isEqualTo("http:" + url());
    assertThat(r.model()).isEqualTo("rerank-v3.5");
    assertThat(r.format()).isEqualTo(HttpReranker.Format.TEI);
    assertThat(r.maxDocuments()).isEqualTo(7);

    HttpReranker defaults = (HttpReranker) Rerankers.byName("http:" + url(), env(Map.of()));
    assertThat(defaults.format()).isEqualTo(HttpReranker.Format.COHERE);
    assertThat(defaults.model()).isNull();
    assertThat(defaults.maxDocuments()).isEqualTo(32);
  }

  @Test
  void httpSpecSendsTheKeyFromTheEnvironment() throws IOException {
    Reranker keyed = Rerankers.byName("http:" + url(), env(Map.of(Rerankers.KEY_ENV, "sk-rerank")));
    assertThat(keyed.rerank("q", List.of(Candidates.of("c", "text")))).singleElement()
        .satisfies(c -> assertThat(Candidates.rerank(c)).isEqualTo(0.25));
    assertThat(AUTHORIZATIONS).last().isEqualTo("Bearer sk-rerank");
    assertThat(PATHS).last().isEqualTo("/v1/rerank");

    Rerankers.byName("http:" + url(), env(Map.of())).rerank("q", List.of(Candidates.of("c", "text")));
    assertThat(AUTHORIZATIONS).last().isEqualTo("null");
  }

  @Test
  void httpSpecErrorsNameWhatIsWrong() {
    assertThatThrownBy(() -> Rerankers.byName("http:", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no URL");
    assertThatThrownBy(() -> Rerankers.byName("http://localhost:8080/rerank", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bare URL")
        .hasMessageContaining("http:http://localhost:8080/rerank");
    assertThatThrownBy(() -> Rerankers.byName("https://api.example.com/v1/rerank", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("http:https://api.example.com/v1/rerank");
    assertThatThrownBy(() -> Rerankers.byName("http:ftp://host/rerank", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ftp://host/rerank")
        .hasMessageContaining("accepted forms");
    assertThatThrownBy(() -> Rerankers.byName("http:" + url() + ",format=xml", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cohere or tei");
    for (String bad : new String[] {"0", "ten", "-3"}) {
      assertThatThrownBy(() -> Rerankers.byName("http:" + url() + ",batch=" + bad, env(Map.of())))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("batch=" + bad)
          .hasMessageContaining("1..10000");
    }
    assertThatThrownBy(() -> Rerankers.byName("http:" + url() + ",top_n=3", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("top_n")
        .hasMessageContaining("model, format, batch");
    assertThatThrownBy(() -> Rerankers.byName("http:" + url() + ",model", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key=value");
  }

  @Test
  void onnxSpecLoadsTheModelWithTheTokenizerBesideItOrGiven(@TempDir Path other) throws IOException {
    try (OnnxCrossEncoderReranker r = (OnnxCrossEncoderReranker) Rerankers.byName("onnx:" + model, env(Map.of()))) {
      assertThat(r.id()).isEqualTo("onnx-cross-encoder:cross.onnx");
      assertThat(r.tokenizer()).isEqualTo(dir.resolve("tokenizer.json").toAbsolutePath());
      assertThat(r.maxLength()).isEqualTo(512);
      assertThat(Candidates.ids(r.rerank("java", List.of(Candidates.of("x", "tea"), Candidates.of("y", "java")))))
          .containsExactly("y", "x");
    }
    Path lonely = Files.copy(model, other.resolve("m.onnx"));
    try (OnnxCrossEncoderReranker r = (OnnxCrossEncoderReranker) Rerankers.byName(
        "ONNX:" + lonely + " , MAX-LENGTH=64,tokenizer=" + dir.resolve("tokenizer.json"), env(Map.of()))) {
      assertThat(r.id()).isEqualTo("onnx-cross-encoder:m.onnx");
      assertThat(r.maxLength()).isEqualTo(64);
    }
  }

  @Test
  void onnxSpecErrorsNameWhatIsWrong() {
    Path missing = dir.resolve("missing.onnx");
    assertThatThrownBy(() -> Rerankers.byName("onnx:" + missing, env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(missing.toAbsolutePath().toString());
    assertThatThrownBy(() -> Rerankers.byName("onnx:", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no model file");
    assertThatThrownBy(() -> Rerankers.byName("onnx:" + model + ",max-length=4", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-length=4").hasMessageContaining("8..8192");
    assertThatThrownBy(() -> Rerankers.byName("onnx:" + model + ",pooling=cls", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pooling")
        .hasMessageContaining("tokenizer, max-length");
  }

  @Test
  void unknownSpecsListTheAcceptedForms() {
    for (String spec : new String[] {"features", "none", "", "  ", "cohere:rerank-v3.5", "minilm"}) {
      assertThatThrownBy(() -> Rerankers.byName(spec, env(Map.of())))
          .as("'%s'", spec)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("http:URL[,model=NAME][,format=cohere|tei][,batch=N]")
          .hasMessageContaining("onnx:/path/model.onnx[,tokenizer=/path/tokenizer.json][,max-length=N]")
          .hasMessageContaining(Rerankers.KEY_ENV);
    }
  }
}
