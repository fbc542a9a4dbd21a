package dev.ctxpack.onnx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.embed.Embedder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An {@link Embedder} for any OpenAI-compatible embeddings endpoint (OpenAI, Azure-style proxies,
 * vLLM, Ollama, LM Studio, text-embeddings-inference): {@code POST {baseUrl}/embeddings} with
 * {@code {"model": ..., "input": [...]}}, answered by {@code {"data": [{"index": i, "embedding":
 * [...]}]}}.
 *
 * <p>Contract: texts go out in batches of {@link Builder#batchSize(int)} (default 64), one request
 * at a time, in order; vectors are put back in input order by their {@code index} and scaled to
 * unit length. {@link #id()} is {@code openai:<model>}. {@link #dimension()} is the configured
 * {@link Builder#dimension(int)} or, if none was given, learned by embedding one probe text on its
 * first call. A vector whose length differs from the dimension, a non-2xx status, a malformed body
 * or an unreachable endpoint throws {@link EmbeddingServiceException}. Thread-safe.
 *
 * <pre>{@code
 * Embedder embedder = OpenAiEmbedder.builder()
 *     .model("text-embedding-3-small")
 *     .apiKey(System.getenv("OPENAI_API_KEY"))
 *     .build();
 * }</pre>
 *
 * <p>Traps: vectors depend on the service's model version, so "deterministic" holds only as long
 * as the service keeps the model; no retries are made (wrap the embedder to retry 429/5xx); the
 * API key is sent as {@code Authorization: Bearer} and never appears in messages or {@link
 * #toString()}.
 */
public final class OpenAiEmbedder implements Embedder {
  /** Where requests go when no base URL is given. */
  public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

  private static final String PROBE = "dimension probe";
  private static final ObjectMapper JSON = JsonHttp.JSON;

  private final URI endpoint;
  private final String baseUrl;
  private final String model;
  private final String apiKey;
  private final int batchSize;
  private final Duration timeout;
  private final HttpClient http;
  private volatile int dimension;

  private OpenAiEmbedder(Builder b) {
    this.baseUrl = b.baseUrl;
    this.endpoint = URI.create(b.baseUrl + "/embeddings");
    this.model = b.model;
    this.apiKey = b.apiKey;
    this.batchSize = b.batchSize;
    this.timeout = b.timeout;
    this.dimension = b.dimension;
    this.http =
        b.httpClient != null ? b.httpClient : JsonHttp.defaultClient(b.timeout, "ctxpack-openai-http");
  }

  /** Starts a configuration; {@link Builder#model(String)} is required. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String id() {
    return "openai:" + model;
  }

  /** The vector length; may send one request (a probe text) the first time it is called. */
  @Override
  public int dimension() {
    int d = dimension;
    if (d == 0) {
      d = embed(List.of(PROBE)).get(0).length;
    }
    return d;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    Texts.requireNonBlank(texts);
    List<float[]> out = new ArrayList<>(texts.size());
    for (int from = 0; from < texts.size(); from += batchSize) {
      List<String> batch = texts.subList(from, Math.min(texts.size(), from + batchSize));
      out.addAll(embedBatch(batch, from));
    }
    return Collections.unmodifiableList(out);
  }

  /** The base URL requests go to (without {@code /embeddings}). */
  public String baseUrl() {
    return baseUrl;
  }

  /** The model name sent with every request. */
  public String model() {
    return model;
  }

  /** Texts per request. */
  public int batchSize() {
    return batchSize;
  }

  @Override
  public String toString() {
    return "OpenAiEmbedder[" + id() + ", " + endpoint + ", batchSize=" + batchSize
        + ", apiKey=" + (apiKey == null ? "none" : "set") + "]";
  }

  private List<float[]> embedBatch(List<String> batch, int offset) {
    HttpRequest request = JsonHttp.post(endpoint, requestBody(batch), timeout, apiKey);
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new EmbeddingServiceException(
          "could not reach embeddings endpoint " + endpoint + ": " + e, -1, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EmbeddingServiceException(
          "interrupted while waiting for embeddings endpoint " + endpoint, -1, e);
    }
    int status = response.statusCode();
    String body = response.body() == null ? "" : response.body();
    if (status < 200 || status > 299) {
      throw new EmbeddingServiceException(
          "embeddings endpoint " + endpoint + " answered HTTP " + status + " for model " + model
              + ": " + head(body),
          status,
          null);
    }
    return parse(body, batch.size(), offset);
  }

  private String requestBody(List<String> batch) {
    ObjectNode root = JSON.createObjectNode();
    root.put("model", model);
    ArrayNode input = root.putArray("input");
    for (String t : batch) input.add(t);
    return JsonHttp.write(root);
  }

  private List<float[]> parse(String body, int expected, int offset) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw malformed("body is not JSON", body, e);
    }
    JsonNode data = root == null ? null : root.get("data");
    if (data == null || !data.isArray()) throw malformed("no \"data\" array", body, null);
    if (data.size() != expected) {
      throw malformed("sent " + expected + " texts but got " + data.size() + " embeddings", body, null);
    }
    float[][] vectors = new float[expected][];
    for (JsonNode item : data) {
      JsonNode index = item.get("index");
      JsonNode embedding = item.get("embedding");
      if (index == null || !index.canConvertToInt() || embedding == null || !embedding.isArray()) {
        throw malformed("each item needs an integer \"index\" and an \"embedding\" array", body, null);
      }
      int i = index.asInt();
      if (i < 0 || i >= expected || vectors[i] != null) {
        throw malformed("index " + i + " is out of range or repeated for a batch of " + expected, body, null);
      }
      float[] v = new float[embedding.size()];
      for (int k = 0; k < v.length; k++) {
        JsonNode x = embedding.get(k);
        if (!x.isNumber()) {
          throw malformed("embedding " + i + " holds a non-number (base64 encoding is not supported)", body, null);
        }
        v[k] = x.floatValue();
      }
      checkDimension(v.length, offset + i);
      vectors[i] = Embedder.normalize(v);
    }
    return List.of(vectors);
  }

  private void checkDimension(int length, int textIndex) {
    if (length == 0) {
      throw new EmbeddingServiceException(
          "embeddings endpoint " + endpoint + " returned an empty vector for texts[" + textIndex + "]", -1, null);
    }
    int d = dimension;
    if (d == 0) {
      synchronized (this) {
        if (dimension == 0) dimension = length;
        d = dimension;
      }
    }
    if (length != d) {
      throw new EmbeddingServiceException(
          "dimension mismatch: model " + model + " at " + endpoint + " returned " + length
              + " dimensions for texts[" + textIndex + "] but " + d + " were expected"
              + " (set Builder.dimension to the model's size, or check the model name)",
          -1,
          null);
    }
  }

  private EmbeddingServiceException malformed(String what, String body, Throwable cause) {
    return new EmbeddingServiceException(
        "malformed response from embeddings endpoint " + endpoint + ": " + what + "; body starts: " + head(body),
        -1,
        cause);
  }

  private static String head(String body) {
    return JsonHttp.head(body);
  }

  /**
   * Options for {@link OpenAiEmbedder}; each setter validates its value and names it when it is
   * wrong.
   */
  public static final class Builder {
    private String baseUrl = DEFAULT_BASE_URL;
    private String model;
    private String apiKey;
    private int batchSize = 64;
    private Duration timeout = Duration.ofSeconds(60);
    private int dimension;
    private HttpClient httpClient;

    private Builder() {}

    /** Base URL without {@code /embeddings}, http or https; default {@value OpenAiEmbedder#DEFAULT_BASE_URL}. */
    public Builder baseUrl(String baseUrl) {
      if (baseUrl == null || baseUrl.isBlank()) throw new IllegalArgumentException("baseUrl must not be blank");
      String url = baseUrl.trim();
      while (url.endsWith("/")) url = url.substring(0, url.length() - 1);
      JsonHttp.httpUrl(url, "baseUrl");
      this.baseUrl = url;
      return this;
    }

    /** Model name sent in every request, e.g. {@code text-embedding-3-small}; required. */
    public Builder model(String model) {
      if (model == null || model.isBlank()) throw new IllegalArgumentException("model must not be blank");
      this.model = model.trim();
      return this;
    }

    /** Sent as {@code Authorization: Bearer <key>}; null or blank sends no header (local servers). */
    public Builder apiKey(String apiKey) {
      this.apiKey = Specs.nonBlank(apiKey);
      return this;
    }

    /** Texts per request, 1..2048; default 64. */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1 || batchSize > 2048) {
        throw new IllegalArgumentException("batchSize must be in 1..2048, was " + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    /** Connect and per-request timeout; default 60 s. */
    public Builder timeout(Duration timeout) {
      this.timeout = Specs.positive(timeout);
      return this;
    }

    /**
     * Expected vector length; responses of another length are rejected. Unset (0), it is learned
     * from the first response.
     */
    public Builder dimension(int dimension) {
      if (dimension < 0) throw new IllegalArgumentException("dimension must be >= 0, was " + dimension);
      this.dimension = dimension;
      return this;
    }

    /**
     * The client to send requests with (proxy, TLS, executor settings). By default a client with
     * a two-thread daemon executor and the connect timeout is created.
     */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /**
     * @throws IllegalArgumentException if no model was set
     */
    public OpenAiEmbedder build() {
      if (model == null) throw new IllegalArgumentException("model is required, e.g. text-embedding-3-small");
      return new OpenAiEmbedder(this);
    }
  }
}
