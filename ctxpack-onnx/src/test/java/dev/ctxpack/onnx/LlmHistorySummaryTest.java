package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ctxpack.assemble.DefaultHistoryCompactor;
import dev.ctxpack.assemble.HistoryCompactor;
import dev.ctxpack.assemble.MessageCost;
import dev.ctxpack.assemble.Turn;
import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * History summaries written by a model through {@link OpenAiChatClient}, against a real HTTP server
 * on loopback that plays the (paid) chat service: it answers with the transcript lines it was sent
 * that hold a digit, which is what the compactor then puts at the start of the history.
 */
class LlmHistorySummaryTest {
  static HttpServer server;
  static String base;
  final Tokenizer tok = Tokenizers.byName("o200k_base");

  @BeforeAll
  static void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", LlmHistorySummaryTest::chat);
    server.createContext("/down/chat/completions", x -> reply(x, 503, "{\"error\": \"overloaded\"}"));
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  static void chat(HttpExchange x) throws IOException {
    JsonNode req = JsonHttp.JSON.readTree(x.getRequestBody().readAllBytes());
    String user = req.path("messages").path(1).path("content").asText();
    List<String> lines = new ArrayList<>();
    for (String l : user.split("\n")) if (l.matches("(user|assistant): .*\\d.*")) lines.add(l);
    reply(x, 200, JsonHttp.JSON.writeValueAsString(Map.of("choices",
        List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", String.join("\n", lines)))))));
  }

  static void reply(HttpExchange x, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "application/json");
    x.sendResponseHeaders(status, b.length);
    try (OutputStream o = x.getResponseBody()) {
      o.write(b);
    }
  }

  static List<Turn> history() {
    List<Turn> h = new ArrayList<>();
    h.add(Turn.of("user", "My order number is 48213 and I live in Porto."));
    h.add(Turn.of("assistant", "Noted: order 48213, delivery to Porto."));
    for (int i = 0; i < 10; i++) {
      h.add(Turn.of("user", "Tell me more about the weather patterns of the northern coast, please, in detail."));
      h.add(Turn.of("assistant", "The northern coast is often cloudy in the morning and clears in the afternoon."));
    }
    return h;
  }

  @Test
  void theModelsLinesBecomeTheSummaryWithinTheBudget() throws IOException {
    OpenAiChatClient model = OpenAiChatClient.of(base + "/v1", "summariser-1", "k", Duration.ofSeconds(5));
    Trace trace = new Trace();
    HistoryCompactor.Compacted c = DefaultHistoryCompactor.builder().llm(model).build()
        .compact("What was my order number?", history(), 150, tok, trace);
    assertThat(c.tokens()).isEqualTo(c.turns().stream().mapToInt(t -> MessageCost.of(t, tok)).sum())
        .isLessThanOrEqualTo(150);
    assertThat(c.turns().get(0).role()).isEqualTo("user");
    assertThat(c.turns().get(0).content()).endsWith(
        "\nuser: My order number is 48213 and I live in Porto.\nassistant: Noted: order 48213, delivery to Porto.");
    assertThat(trace.decisions()).anySatisfy(d -> assertThat(d.rule()).isEqualTo("history:llm:openai:summariser-1"));
  }

  @Test
  void aServiceFailureFallsBackToTheExtractiveSummary() throws IOException {
    OpenAiChatClient down = OpenAiChatClient.of(base + "/down", "summariser-1", "k", Duration.ofSeconds(5));
    Trace trace = new Trace();
    HistoryCompactor.Compacted c = DefaultHistoryCompactor.builder().llm(down).build()
        .compact("What was my order number?", history(), 150, tok, trace);
    assertThat(c.tokens()).isLessThanOrEqualTo(150);
    assertThat(c.turns().get(0).content()).contains("48213");
    assertThat(trace.decisions()).anySatisfy(d -> {
      assertThat(d.rule()).isEqualTo("history:extractive");
      assertThat(d.reason()).contains("503");
    });
  }
}
