package dev.ctxpack.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The only test double: an OpenAI-compatible chat-completions server on loopback that answers from
 * the prompt it received (the first sentence of the first fenced source, cited with its label), or,
 * once when asked, cites the invented label {@code [S99]}. Every request body is recorded.
 */
final class LoopbackChatServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FENCE = Pattern.compile("<(source(?:-[0-9a-f]+)?) id=\"(S\\d+)\"[^>\\n]*>\\n(.*?)\\n</\\1>", Pattern.DOTALL);

  private final HttpServer server;
  final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  final AtomicBoolean inventNext = new AtomicBoolean();

  LoopbackChatServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", ex -> {
      try (InputStream in = ex.getRequestBody()) {
        JsonNode req = JSON.readTree(in);
        requests.add(req);
        byte[] body = JSON.writeValueAsBytes(reply(answer(req)));
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
          out.write(body);
        }
      } catch (RuntimeException e) {
        byte[] b = ("{\"error\":{\"message\":\"" + e + "\"}}").getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(500, b.length);
        ex.getResponseBody().write(b);
        ex.close();
      }
    });
    server.start();
  }

  String baseUrl() {
    return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/v1";
  }

  /** The text of every message of a recorded request, in order. */
  static List<String> texts(JsonNode req) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : req.get("messages")) out.add(text(m));
    return out;
  }

  static String text(JsonNode m) {
    JsonNode c = m.get("content");
    if (c == null || c.isNull()) return "";
    if (c.isTextual()) return c.asText();
    StringBuilder sb = new StringBuilder();
    for (JsonNode part : c) if (part.has("text")) sb.append(part.get("text").asText());
    return sb.toString();
  }

  /** The last user message holding ctxpack fences. */
  static String lastPrompt(JsonNode req) {
    String found = null;
    for (JsonNode m : req.get("messages")) {
      if ("user".equals(m.get("role").asText()) && FENCE.matcher(text(m)).find()) found = text(m);
    }
    return found;
  }

  private String answer(JsonNode req) {
    String prompt = lastPrompt(req);
    if (prompt == null) return "The sources do not contain the answer.";
    Matcher m = FENCE.matcher(prompt);
    m.find();
    String label = m.group(2);
    String body = m.group(3);
    String sentence = body.lines().filter(l -> !l.isBlank() && !l.startsWith("[")).findFirst().orElse(body);
    int stop = sentence.indexOf(". ");
    if (stop > 0) sentence = sentence.substring(0, stop);
    sentence = sentence.strip();
    if (sentence.endsWith(".")) sentence = sentence.substring(0, sentence.length() - 1);
    String cite = inventNext.getAndSet(false) ? "S99" : label;
    return sentence + " [" + cite + "].";
  }

  private static ObjectNode reply(String content) {
    ObjectNode r = JSON.createObjectNode();
    r.put("id", "chatcmpl-loopback").put("object", "chat.completion").put("created", 0).put("model", "loopback");
    ObjectNode choice = r.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", "stop");
    choice.putObject("message").put("role", "assistant").put("content", content);
    r.putObject("usage").put("prompt_tokens", 1).put("completion_tokens", 1).put("total_tokens", 2);
    return r;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
