package dev.ctxpack.examples.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Runs the example's main flow against a loopback OpenAI-compatible server that answers from its prompt. */
class RagExampleTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FENCE = Pattern.compile("<(source(?:-[0-9a-f]+)?) id=\"(S\\d+)\"[^>\\n]*>\\n(.*?)\\n</\\1>", Pattern.DOTALL);

  @Test
  void itAnswersWithCitedSources() throws Exception {
    List<String> prompts = new CopyOnWriteArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", ex -> {
      JsonNode req = JSON.readTree(ex.getRequestBody());
      JsonNode messages = req.get("messages");
      String prompt = messages.get(messages.size() - 1).get("content").asText();
      prompts.add(prompt);
      Matcher m = FENCE.matcher(prompt);
      String answer = "The sources do not contain the answer.";
      if (m.find()) {
        String first = m.group(3).split("\\. ")[0].strip();
        answer = (first.endsWith(".") ? first.substring(0, first.length() - 1) : first) + " [" + m.group(2) + "].";
      }
      ObjectNode r = JSON.createObjectNode().put("id", "x").put("object", "chat.completion").put("created", 0).put("model", "m");
      ObjectNode c = r.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop");
      c.putObject("message").put("role", "assistant").put("content", answer);
      byte[] body = JSON.writeValueAsBytes(r);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      int code = RagExample.run(Map.of("CTXPACK_LLM_URL", url), new String[] {"How deep is Lake Baikal?"},
          new PrintStream(buf, true, StandardCharsets.UTF_8));
      String out = buf.toString(StandardCharsets.UTF_8);
      assertThat(code).isZero();
      assertThat(prompts).hasSize(1);
      assertThat(prompts.get(0)).contains("<source", "Lake Baikal", "QUESTION\nHow deep is Lake Baikal?");
      assertThat(out).contains("ANSWER:", "[S1]", "Sources (", "Citation check: passed");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void withoutAModelItSaysWhatToSet() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    assertThat(RagExample.run(Map.of(), new String[0], new PrintStream(buf, true, StandardCharsets.UTF_8))).isEqualTo(2);
    assertThat(buf.toString(StandardCharsets.UTF_8)).contains("CTXPACK_LLM_URL");
  }
}
