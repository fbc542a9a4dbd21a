package dev.ctxpack.onnx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.llm.ChatMessage;
import dev.ctxpack.llm.LlmClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * An {@link LlmClient} for any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, LM Studio,
 * proxies): {@code POST {baseUrl}/chat/completions} with {@code {"model", "messages",
 * "temperature": 0}}, answered by {@code {"choices": [{"message": {"content": "..."}}]}}.
 *
 * <p>{@link #fromEnvironment(String)} takes the base URL from {@code CTXPACK_LLM_URL} (default
 * {@value OpenAiEmbedder#DEFAULT_BASE_URL}) and the key from {@code CTXPACK_LLM_KEY} or {@code
 * OPENAI_API_KEY}. A non-2xx status, a malformed body or an unreachable endpoint throws {@link
 * IOException} naming the endpoint and quoting the start of the body; the key never appears in
 * messages. No retries. Thread-safe.
 */
public final class OpenAiChatClient implements LlmClient {
  public static final String URL_ENV = "CTXPACK_LLM_URL";
  public static final String KEY_ENV = "CTXPACK_LLM_KEY";

  private final URI endpoint;
  private final String model;
  private final String apiKey;
  private final Duration timeout;
  private final HttpClient http;

  private OpenAiChatClient(String baseUrl, String model, String apiKey, Duration timeout) {
    String base = JsonHttp.httpUrl(baseUrl, "chat base URL").toString().replaceAll("/+$", "");
    this.endpoint = URI.create(base + "/chat/completions");
    if (model == null || model.isBlank()) throw new IllegalArgumentException("chat model must not be blank");
    this.model = model;
    this.apiKey = apiKey;
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.http = JsonHttp.defaultClient(timeout, "ctxpack-llm-http");
  }

  /** A client for {@code model} at {@code baseUrl}; {@code apiKey} may be null for local servers. */
  public static OpenAiChatClient of(String baseUrl, String model, String apiKey, Duration timeout) {
    return new OpenAiChatClient(baseUrl, model, apiKey, timeout);
  }

  /** A client for {@code model} configured from the environment (see the class comment). */
  public static OpenAiChatClient fromEnvironment(String model) {
    return fromEnvironment(model, System::getenv);
  }

  static OpenAiChatClient fromEnvironment(String model, Function<String, String> env) {
    String url = Specs.nonBlank(env.apply(URL_ENV));
    String key = Specs.nonBlank(env.apply(KEY_ENV));
    if (key == null) key = Specs.nonBlank(env.apply("OPENAI_API_KEY"));
    String base = url != null ? url : OpenAiEmbedder.DEFAULT_BASE_URL;
    if (key == null && "api.openai.com".equalsIgnoreCase(URI.create(base).getHost())) {
      throw new IllegalArgumentException("the chat model '" + model + "' targets api.openai.com, which needs an API key: set "
          + KEY_ENV + " or OPENAI_API_KEY, or point " + URL_ENV + " at a local server");
    }
    return new OpenAiChatClient(base, model, key, Duration.ofSeconds(60));
  }

  @Override
  public String id() {
    return "openai:" + model;
  }

  @Override
  public String chat(List<ChatMessage> messages) throws IOException {
    ObjectNode body = JsonHttp.JSON.createObjectNode().put("model", model).put("temperature", 0);
    ArrayNode ms = body.putArray("messages");
    for (ChatMessage m : messages) ms.addObject().put("role", m.role()).put("content", m.content());
    HttpRequest request = JsonHttp.post(endpoint, JsonHttp.write(body), timeout, apiKey);
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for chat endpoint " + endpoint, e);
    } catch (IOException e) {
      throw new IOException("could not reach chat endpoint " + endpoint + ": " + e, e);
    }
    String text = response.body() == null ? "" : response.body();
    if (response.statusCode() / 100 != 2) {
      throw new IOException("chat endpoint " + endpoint + " answered " + response.statusCode() + ": " + JsonHttp.head(text));
    }
    JsonNode root;
    try {
      root = JsonHttp.JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IOException("chat endpoint " + endpoint + " sent invalid JSON: " + JsonHttp.head(text), e);
    }
    JsonNode content = root == null ? null : root.path("choices").path(0).path("message").path("content");
    if (content == null || !content.isTextual()) {
      throw new IOException("chat endpoint " + endpoint + " sent no choices[0].message.content: " + JsonHttp.head(text));
    }
    return content.asText();
  }

  @Override
  public String toString() {
    return "OpenAiChatClient[" + id() + ", " + endpoint + ", apiKey=" + (apiKey == null ? "none" : "set") + "]";
  }
}
