package dev.ctxpack.onnx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * What the JSON-over-HTTP clients of this package ({@link OpenAiEmbedder}, {@link HttpReranker})
 * share, so they validate URLs, build requests and quote error bodies the same way.
 */
final class JsonHttp {
  /** How much of a response body an error message quotes. */
  static final int MAX_BODY_IN_MESSAGE = 200;

  static final ObjectMapper JSON = new ObjectMapper();

  private JsonHttp() {}

  /**
   * Parses {@code url} (trimmed) as an http or https URL with a host.
   *
   * @throws IllegalArgumentException naming the option ({@code what}) and the value
   */
  static URI httpUrl(String url, String what) {
    if (url == null || url.isBlank()) throw new IllegalArgumentException(what + " must not be blank");
    URI uri;
    try {
      uri = URI.create(url.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + " is not a valid URL: " + url, e);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
      throw new IllegalArgumentException(what + " must be an http(s) URL with a host, was " + url);
    }
    return uri;
  }

  /** A client with {@code connectTimeout} and a two-thread daemon executor named {@code threadPrefix}. */
  static HttpClient defaultClient(Duration connectTimeout, String threadPrefix) {
    return HttpClient.newBuilder()
        .connectTimeout(connectTimeout)
        .executor(BoundedExecutor.create(2, threadPrefix))
        .build();
  }

  /**
   * A POST of {@code json} to {@code endpoint} accepting JSON, with {@code Authorization: Bearer}
   * when {@code apiKey} is not null. Plain-http servers (local vLLM, TEI, Ollama, proxies) get
   * HTTP/1.1, not an h2c upgrade attempt.
   */
  static HttpRequest post(URI endpoint, String json, Duration timeout, String apiKey) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (apiKey != null) request.header("Authorization", "Bearer " + apiKey);
    if ("http".equalsIgnoreCase(endpoint.getScheme())) request.version(HttpClient.Version.HTTP_1_1);
    return request.build();
  }

  /** {@code node} as a JSON string. */
  static String write(JsonNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("could not encode request body", e);
    }
  }

  /** The first {@value #MAX_BODY_IN_MESSAGE} characters of {@code body}, marked when cut. */
  static String head(String body) {
    if (body == null) return "";
    return body.length() <= MAX_BODY_IN_MESSAGE ? body : body.substring(0, MAX_BODY_IN_MESSAGE) + "…";
  }
}
