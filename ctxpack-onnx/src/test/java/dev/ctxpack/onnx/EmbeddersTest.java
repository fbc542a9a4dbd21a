package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.ctxpack.embed.Embedder;
import java.io.IOException;
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

class EmbeddersTest {
  @TempDir static Path dir;
  static Path model;
  static HttpServer server;
  static final List<String> AUTHORIZATIONS = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void setUp() throws IOException {
    model = OnnxFileEmbedderTest.extract(MiniLmEmbedder.MODEL_RESOURCE, dir.resolve("model.onnx"));
    OnnxFileEmbedderTest.extract(MiniLmEmbedder.TOKENIZER_RESOURCE, dir.resolve("tokenizer.json"));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", ex -> {
      try (ex) {
        ex.getRequestBody().readAllBytes();
        AUTHORIZATIONS.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
        byte[] body = "{\"data\":[{\"index\":0,\"embedding\":[3.0,4.0]}]}".getBytes(StandardCharsets.UTF_8);
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

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/";
  }

  @Test
  void minilmIsTheDefault() {
    assertThat(Embedders.byName("minilm", env(Map.of()))).isInstanceOf(MiniLmEmbedder.class);
    assertThat(Embedders.byName(" MiniLM ", env(Map.of())).id()).isEqualTo(MiniLmEmbedder.ID);
    assertThat(Embedders.byName(MiniLmEmbedder.ID, env(Map.of()))).isInstanceOf(MiniLmEmbedder.class);
    assertThat(Embedders.defaultEmbedder().id()).isEqualTo(MiniLmEmbedder.ID);
  }

  @Test
  void onnxSpecLoadsTheFileWithTheTokenizerBesideIt() {
    Embedder e = Embedders.byName("onnx:" + model, env(Map.of()));
    assertThat(e).isInstanceOf(OnnxFileEmbedder.class);
    assertThat(e.id()).isEqualTo("onnx:model.onnx:mean");
    assertThat(((OnnxFileEmbedder) e).tokenizer()).isEqualTo(dir.resolve("tokenizer.json").toAbsolutePath());
  }

  @Test
  void onnxSpecTakesTokenizerAndPooling(@TempDir Path other) throws IOException {
    Path lonely = Files.copy(model, other.resolve("m.onnx"));
    Path tokenizer = dir.resolve("tokenizer.json");
    Embedder e = Embedders.byName("onnx:" + lonely + ", pooling=CLS ,tokenizer=" + tokenizer, env(Map.of()));
    assertThat(e.id()).isEqualTo("onnx:m.onnx:cls");
    assertThat(((OnnxFileEmbedder) e).tokenizer()).isEqualTo(tokenizer.toAbsolutePath());
    assertThat(e.embed("works")).hasSize(384);
  }

  @Test
  void onnxSpecErrorsNameWhatIsWrong() {
    Path missing = dir.resolve("missing.onnx");
    assertThatThrownBy(() -> Embedders.byName("onnx:" + missing, env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(missing.toAbsolutePath().toString());
    assertThatThrownBy(() -> Embedders.byName("onnx:" + model + ",normalize=true", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("normalize")
        .hasMessageContaining("tokenizer, pooling");
    assertThatThrownBy(() -> Embedders.byName("onnx:" + model + ",pooling", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key=value");
    assertThatThrownBy(() -> Embedders.byName("onnx:" + model + ",pooling=max", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mean or cls");
    assertThatThrownBy(() -> Embedders.byName("onnx:", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no model file");
  }

  @Test
  void openAiSpecReadsUrlAndKeyFromTheEnvironment() {
    Embedder e = Embedders.byName("openai:nomic-embed-text",
        env(Map.of(Embedders.URL_ENV, url(), Embedders.KEY_ENV, "sk-ctxpack", Embedders.OPENAI_KEY_ENV, "sk-openai")));
    assertThat(e.id()).isEqualTo("openai:nomic-embed-text");
    assertThat(e.embed("hello")).containsExactly(0.6f, 0.8f);
    assertThat(AUTHORIZATIONS).last().isEqualTo("Bearer sk-ctxpack");

    Embedders.byName("openai:m", env(Map.of(Embedders.URL_ENV, url(), Embedders.OPENAI_KEY_ENV, "sk-openai")))
        .embed("hello");
    assertThat(AUTHORIZATIONS).last().isEqualTo("Bearer sk-openai");

    Embedders.byName("openai:m", env(Map.of(Embedders.URL_ENV, url()))).embed("hello");
    assertThat(AUTHORIZATIONS).last().isEqualTo("null");
  }

  @Test
  void openAiSpecDefaultsToOpenAiAndNeedsAKeyThere() {
    OpenAiEmbedder e = (OpenAiEmbedder) Embedders.byName("openai:text-embedding-3-small",
        env(Map.of(Embedders.OPENAI_KEY_ENV, "sk-x")));
    assertThat(e.baseUrl()).isEqualTo(OpenAiEmbedder.DEFAULT_BASE_URL);
    assertThat(e.model()).isEqualTo("text-embedding-3-small");
    assertThatThrownBy(() -> Embedders.byName("openai:text-embedding-3-small", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Embedders.KEY_ENV)
        .hasMessageContaining(Embedders.OPENAI_KEY_ENV);
    assertThatThrownBy(() -> Embedders.byName("openai:", env(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no model");
  }

  @Test
  void unknownSpecListsTheAcceptedForms() {
    for (String spec : new String[] {"bert", "", "  ", "huggingface:foo"}) {
      assertThatThrownBy(() -> Embedders.byName(spec, env(Map.of())))
          .as("'%s'", spec)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("minilm")
          .hasMessageContaining("onnx:/path/model.onnx")
          .hasMessageContaining("openai:MODEL");
    }
  }
}
