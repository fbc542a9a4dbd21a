package dev.ctxpack.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The only test double: an OpenAI-compatible chat-completions endpoint on loopback. It answers from
 * the prompt it received: the first sentence of the source sharing most words with the question,
 * with that source's label; a question holding {@code INVENT} is answered citing {@code [S97]}, which
 * no prompt has, unless the request is a re-ask (it holds the answer before it); no sources give the
 * abstention. Every request body is recorded.
 */
final class LoopbackChatServer implements AutoCloseable {
  static final String INVENTED = "S97";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SOURCE = Pattern.compile("<source[^>]*\\bid=\"(S\\d+)\"[^>]*>\\n?(.*?)\\n?</source", Pattern.DOTALL);
  private final HttpServer server;
  private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());

  LoopbackChatServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        JsonNode req = JSON.readTree(in);
        requests.add(req);
        byte[] body = JSON.writeValueAsBytes(completion(answer(req)));
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      } catch (RuntimeException e) {
        byte[] body = ("{\"error\":{\"message\":\"" + e + "\"}}").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(500, body.length);
        exchange.getResponseBody().write(body);
      } finally {
        exchange.close();
      }
    });
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Every request body received, oldest first. */
  List<JsonNode> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  void clear() {
    requests.clear();
  }

  /** The messages of a request as role and text. */
  static List<Map.Entry<String, String>> messages(JsonNode req) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    for (JsonNode m : req.path("messages")) out.add(Map.entry(m.path("role").asText(), content(m)));
    return out;
  }

  static String content(JsonNode m) {
    JsonNode c = m.path("content");
    if (c.isTextual()) return c.asText();
    StringBuilder sb = new StringBuilder();
    for (JsonNode part : c) sb.append(part.path("text").asText());
    return sb.toString();
  }

  static String answer(JsonNode req) {
    List<Map.Entry<String, String>> ms = messages(req);
    boolean reask = ms.stream().anyMatch(e -> e.getKey().equals("assistant") && e.getValue().contains("[" + INVENTED + "]"));
    String prompt = "";
    for (Map.Entry<String, String> e : ms) {
      if (e.getKey().equals("user") && e.getValue().contains("<source")) prompt = e.getValue();
    }
    if (prompt.isEmpty()) return "The sources do not contain the answer.";
    boolean pt = prompt.contains("PERGUNTA");
    String question = prompt.substring(prompt.lastIndexOf(pt ? "PERGUNTA" : "QUESTION"));
    Map<String, String> sources = new LinkedHashMap<>();
    Matcher m = SOURCE.matcher(prompt);
    while (m.find()) sources.putIfAbsent(m.group(1), m.group(2).trim());
    if (sources.isEmpty()) return pt ? "As fontes não contêm a resposta." : "The sources do not contain the answer.";
    Set<String> q = words(question);
    String best = null;
    int bestScore = -1;
    for (Map.Entry<String, String> s : sources.entrySet()) {
      Set<String> w = words(s.getValue());
      w.retainAll(q);
      if (w.size() > bestScore) {
        bestScore = w.size();
        best = s.getKey();
      }
    }
    String text = sources.get(best);
    int stop = text.indexOf(". ");
    String sentence = stop > 0 ? text.substring(0, stop + 1) : text;
    String label = question.contains("INVENT") && !reask ? INVENTED : best;
    return sentence + " [" + label + "]";
  }

  private static Set<String> words(String s) {
    return Pattern.compile("[^\\p{L}\\p{N}]+").splitAsStream(s.toLowerCase(Locale.ROOT))
        .filter(w -> w.length() > 3).collect(Collectors.toSet());
  }

  private static ObjectNode completion(String text) {
    ObjectNode r = JSON.createObjectNode();
    r.put("id", "chatcmpl-loopback");
    r.put("object", "chat.completion");
    r.put("created", 1700000000L);
    r.put("model", "loopback");
    ObjectNode choice = r.putArray("choices").addObject();
    choice.put("index", 0);
    choice.putObject("message").put("role", "assistant").put("content", text);
    choice.put("finish_reason", "stop");
    r.putObject("usage").put("prompt_tokens", 1).put("completion_tokens", 1).put("total_tokens", 2);
    return r;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
