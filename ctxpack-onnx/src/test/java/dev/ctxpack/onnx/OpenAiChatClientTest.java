package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ctxpack.llm.ChatMessage;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.ClaimVerdict;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.LlmJudge;
import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.VerifySource;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI-compatible chat client and the LLM judge of answer verification, against a real HTTP
 * server on loopback that plays the (paid) chat service: it reads the request as the service would
 * and answers by a fixed rule.
 */
class OpenAiChatClientTest {
  static HttpServer server;
  static String base;
  static final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  static final List<String> auth = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", OpenAiChatClientTest::chat);
    server.createContext("/broken/chat/completions", x -> reply(x, 503, "{\"error\": \"overloaded\"}"));
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  /** The judge's rule: a claim about "finished" is supported, one about 1890 contradicted. */
  static void chat(HttpExchange x) throws IOException {
    JsonNode req = JsonHttp.JSON.readTree(x.getRequestBody().readAllBytes());
    requests.add(req);
    auth.add(String.valueOf(x.getRequestHeaders().getFirst("Authorization")));
    String user = req.path("messages").path(1).path("content").asText();
    String verdict = user.contains("1890") ? "CONTRADICTED" : user.contains("finished") ? "SUPPORTED." : "maybe";
    String body = JsonHttp.JSON.writeValueAsString(Map.of("choices",
        List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", verdict)))));
    reply(x, 200, body);
  }

  static void reply(HttpExchange x, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "application/json");
    x.sendResponseHeaders(status, b.length);
    try (OutputStream o = x.getResponseBody()) {
      o.write(b);
    }
  }

  @Test
  void sendsTheModelMessagesAndKeyAndReturnsTheReply() throws IOException {
    OpenAiChatClient c = OpenAiChatClient.of(base + "/v1", "judge-1", "secret", Duration.ofSeconds(5));
    String reply = c.chat(List.of(ChatMessage.system("sys"), ChatMessage.user("it was finished")));
    assertThat(reply).isEqualTo("SUPPORTED.");
    JsonNode req = requests.get(requests.size() - 1);
    assertThat(req.get("model").asText()).isEqualTo("judge-1");
    assertThat(req.get("temperature").asInt()).isZero();
    assertThat(req.get("messages").get(0).get("role").asText()).isEqualTo("system");
    assertThat(auth.get(auth.size() - 1)).isEqualTo("Bearer secret");
    assertThat(c.toString()).doesNotContain("secret");
  }

  @Test
  void aFailingServiceIsAnIoErrorNamingTheEndpointAndStatus() {
    OpenAiChatClient c = OpenAiChatClient.of(base + "/broken", "m", null, Duration.ofSeconds(5));
    assertThatThrownBy(() -> c.chat(List.of(ChatMessage.user("x"))))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("/broken/chat/completions")
        .hasMessageContaining("503")
        .hasMessageContaining("overloaded");
  }

  @Test
  void environmentRefusesApiOpenAiComWithoutAKey() {
    assertThatThrownBy(() -> OpenAiChatClient.fromEnvironment("gpt", k -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CTXPACK_LLM_KEY");
    assertThat(OpenAiChatClient.fromEnvironment("gpt", k -> k.equals("CTXPACK_LLM_URL") ? base + "/v1" : null).id())
        .isEqualTo("openai:gpt");
  }

  @Test
  void theJudgeReplacesTheLexicalVerdictAndAnUnreadableReplyKeepsIt() throws IOException {
    List<VerifySource> sources = List.of(new VerifySource("S1",
        "The Eiffel Tower was completed in 1889 for the World's Fair. It is 330 metres tall."));
    EvidenceVerifier v = EvidenceVerifier.builder()
        .judge(new LlmJudge(OpenAiChatClient.of(base + "/v1", "judge-1", null, Duration.ofSeconds(5))))
        .build();
    // lexically partial ("finished", "construction" are not in the source); the judge supports it
    ClaimVerdict paraphrase = v.verify(null, sources,
        Answer.parse("Construction of the Eiffel Tower finished in 1889 [S1].")).claims().get(0);
    assertThat(paraphrase.verdict()).isEqualTo(Verdict.SUPPORTED);
    assertThat(paraphrase.reason()).startsWith("judge openai:judge-1: supported; lexical:");
    String shown = requests.get(requests.size() - 1).path("messages").path(1).path("content").asText();
    assertThat(shown).contains("CLAIM:\nConstruction of the Eiffel Tower finished in 1889.")
        .contains("[S1] The Eiffel Tower was completed in 1889");

    ClaimVerdict year = v.verify(null, sources, Answer.parse("The tower opened in 1890 [S1].")).claims().get(0);
    assertThat(year.verdict()).isEqualTo(Verdict.CONTRADICTED);

    ClaimVerdict unreadable = v.verify(null, sources, Answer.parse("It is 330 metres tall [S1].")).claims().get(0);
    assertThat(unreadable.verdict()).isEqualTo(Verdict.SUPPORTED); // the lexical verdict stands
    assertThat(unreadable.reason()).contains("gave no readable verdict");
  }
}
