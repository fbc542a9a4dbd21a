package dev.ctxpack.onnx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.rerank.Reranker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@link Reranker} that asks an HTTP rerank service to score each candidate against the query.
 * Two request shapes, chosen by {@link Builder#format(Format)}:
 *
 * <ul>
 *   <li>{@link Format#COHERE} (default; Cohere, Jina, Voyage, Infinity, vLLM, LiteLLM): {@code POST
 *       <url>} with {@code {"model": ..., "query": ..., "documents": [...], "top_n": n}}, answered
 *       by {@code {"results": [{"index": i, "relevance_score": s}, ...]}};
 *   <li>{@link Format#TEI} (Hugging Face text-embeddings-inference {@code /rerank}): {@code {"query":
 *       ..., "texts": [...], "truncate": true}}, answered by {@code [{"index": i, "score": s}, ...]}.
 * </ul>
 *
 * Either response is read the same forgiving way: the results are the top-level array or the
 * {@code results} (else {@code data}) array of an object, and each item's score is {@code
 * relevance_score} or {@code score}.
 *
 * <p>Contract: the text scored for a candidate is its chunk text, after the document title and a
 * blank line when there is a title. Candidates go out in requests of at most {@link
 * Builder#maxDocuments(int)} (default 32, TEI's default client batch limit), one request at a time,
 * in order; scores are matched back by {@code index} within each request. Every candidate gets
 * {@link dev.ctxpack.model.Signal#RERANK} (its other scores kept) and all are returned best first,
 * ties broken by chunk id. A status of 400 or more, a body that is not the expected JSON, a
 * missing, repeated or out-of-range index, a count other than the number of documents sent, a
 * score that is not a finite number, a timeout or an unreachable endpoint throws {@link
 * RerankServiceException} naming the URL (and the status and the start of the body where there
 * was one): never a partial result. {@link #id()} is {@code http:<url>}. Thread-safe.
 *
 * <pre>{@code
 * Reranker reranker = HttpReranker.builder("https://api.jina.ai/v1/rerank")
 *     .model("jina-reranker-v2-base-multilingual")
 *     .apiKey(System.getenv("CTXPACK_RERANK_KEY"))
 *     .build();
 * List<Candidate> best = reranker.rerank(query, candidates);
 * }</pre>
 *
 * <p>Traps: the URL is the whole endpoint ({@code .../v1/rerank}, TEI's {@code .../rerank}); nothing
 * is appended. Scores are whatever the service returns (probabilities from Cohere and TEI, raw
 * logits from some servers): compare them within one request's results, not across services. A
 * list split over several requests is scored pair by pair, so the split does not change the
 * scores of a cross-encoder service; services that normalise within a request would. TEI is sent
 * {@code truncate: true} so that long chunks are cut by the server instead of failing the request;
 * the model name is not sent to TEI (it serves one model). No retries are made. The API key is sent
 * as {@code Authorization: Bearer} and never appears in messages or {@link #toString()}.
 */
public final class HttpReranker implements Reranker {

  /** The request and response shape a service speaks. */
  public enum Format {
    /** Cohere / Jina: {@code documents} in, {@code results[].relevance_score} out. */
    COHERE,
    /** Hugging Face text-embeddings-inference: {@code texts} in, {@code [].score} out. */
    TEI;

    /** Parses {@code cohere} or {@code tei}, ignoring case. */
    public static Format parse(String name) {
      if (name != null) {
        for (Format f : values()) if (f.name().equalsIgnoreCase(name.trim())) return f;
      }
      throw new IllegalArgumentException("format must be cohere or tei, was " + name);
    }
  }

  private final URI endpoint;
  private final Format format;
  private final String model;
  private final String apiKey;
  private final int maxDocuments;
  private final Duration timeout;
  private final HttpClient http;

  private HttpReranker(Builder b) {
    this.endpoint = b.endpoint;
    this.format = b.format;
    this.model = b.model;
    this.apiKey = b.apiKey;
    this.maxDocuments = b.maxDocuments;
    this.timeout = b.timeout;
    this.http = b.httpClient != null ? b.httpClient : JsonHttp.defaultClient(b.timeout, "ctxpack-rerank-http");
  }

  /** Starts a configuration for the rerank endpoint at {@code url} (the full URL, http or https). */
  public static Builder builder(String url) {
    return new Builder(url);
  }

  @Override
  public String id() {
    return "http:" + endpoint;
  }

  /**
   * Scores every candidate against {@code query} with the service and returns them all, best first.
   * No request is sent for an empty list.
   *
   * @throws RerankServiceException if any request fails (see the class comment)
   * @throws IllegalArgumentException for a blank query or a null candidate
   */
  @Override
  public List<Candidate> rerank(String query, List<Candidate> candidates) throws IOException {
    Reranking.check(query, candidates);
    double[] scores = new double[candidates.size()];
    for (int from = 0; from < candidates.size(); from += maxDocuments) {
      List<Candidate> batch = candidates.subList(from, Math.min(candidates.size(), from + maxDocuments));
      double[] got = scoreBatch(query, batch);
      System.arraycopy(got, 0, scores, from, got.length);
    }
    return Reranking.ranked(candidates, scores);
  }

  /** The endpoint requests go to. */
  public URI endpoint() {
    return endpoint;
  }

  /** The request shape. */
  public Format format() {
    return format;
  }

  /** The model name sent with Cohere-shaped requests, or null. */
  public String model() {
    return model;
  }

  /** Documents per request. */
  public int maxDocuments() {
    return maxDocuments;
  }

  @Override
  public String toString() {
    return "HttpReranker[" + id() + ", format=" + format.name().toLowerCase(Locale.ROOT)
        + ", model=" + model + ", maxDocuments=" + maxDocuments + ", timeout=" + timeout
        + ", apiKey=" + (apiKey == null ? "none" : "set") + "]";
  }

  private double[] scoreBatch(String query, List<Candidate> batch) throws RerankServiceException {
    HttpResponse<String> response;
    try {
      response = http.send(
          JsonHttp.post(endpoint, requestBody(query, batch), timeout, apiKey),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpTimeoutException e) {
      throw new RerankServiceException(
          "rerank endpoint " + endpoint + " did not answer within " + timeout.toMillis() + " ms", -1, e);
    } catch (IOException e) {
      throw new RerankServiceException("could not reach rerank endpoint " + endpoint + ": " + e, -1, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RerankServiceException("interrupted while waiting for rerank endpoint " + endpoint, -1, e);
    }
    int status = response.statusCode();
    String body = response.body() == null ? "" : response.body();
    if (status >= 400) {
      throw new RerankServiceException(
          "rerank endpoint " + endpoint + " answered HTTP " + status
              + (model == null ? "" : " for model " + model) + ": " + JsonHttp.head(body),
          status,
          null);
    }
    return parse(body, batch.size(), status);
  }

  private String requestBody(String query, List<Candidate> batch) {
    ObjectNode root = JsonHttp.JSON.createObjectNode();
    if (format == Format.COHERE && model != null) root.put("model", model);
    root.put("query", query);
    ArrayNode texts = root.putArray(format == Format.COHERE ? "documents" : "texts");
    for (Candidate c : batch) texts.add(Reranking.passage(c));
    if (format == Format.COHERE) {
      root.put("top_n", batch.size());
    } else {
      root.put("truncate", true);
    }
    return JsonHttp.write(root);
  }

  private double[] parse(String body, int expected, int status) throws RerankServiceException {
    JsonNode root;
    try {
      root = JsonHttp.JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw malformed("body is not JSON", body, status, e);
    }
    JsonNode results = root;
    if (root != null && root.isObject()) results = root.has("results") ? root.get("results") : root.get("data");
    if (results == null || !results.isArray()) {
      throw malformed("no results array (expected a top-level array or \"results\")", body, status, null);
    }
    if (results.size() != expected) {
      throw malformed("sent " + expected + " documents but got " + results.size() + " results", body, status, null);
    }
    double[] scores = new double[expected];
    boolean[] seen = new boolean[expected];
    for (JsonNode item : results) {
      JsonNode index = item.get("index");
      JsonNode score = item.has("relevance_score") ? item.get("relevance_score") : item.get("score");
      if (index == null || !index.isIntegralNumber() || !index.canConvertToInt()) {
        throw malformed("a result has no integer \"index\"", body, status, null);
      }
      int i = index.asInt();
      if (i < 0 || i >= expected || seen[i]) {
        throw malformed("index " + i + " is out of range or repeated for " + expected + " documents", body, status, null);
      }
      if (score == null || !score.isNumber() || !Double.isFinite(score.asDouble())) {
        throw malformed("result " + i + " has no finite \"relevance_score\" or \"score\"", body, status, null);
      }
      seen[i] = true;
      scores[i] = score.asDouble();
    }
    return scores;
  }

  private RerankServiceException malformed(String what, String body, int status, Throwable cause) {
    return new RerankServiceException(
        "malformed response from rerank endpoint " + endpoint + " (HTTP " + status + "): " + what
            + "; body starts: " + JsonHttp.head(body),
        -1,
        cause);
  }

  /** Options for {@link HttpReranker}; each setter validates its value and names it when it is wrong. */
  public static final class Builder {
    private final URI endpoint;
    private Format format = Format.COHERE;
    private String model;
    private String apiKey;
    private int maxDocuments = 32;
    private Duration timeout = Duration.ofSeconds(60);
    private HttpClient httpClient;

    private Builder(String url) {
      this.endpoint = JsonHttp.httpUrl(url, "rerank url");
    }

    /** The request shape; default {@link Format#COHERE}. */
    public Builder format(Format format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    /**
     * Model name sent in Cohere-shaped requests (Cohere and Jina need it; local servers with one
     * model may not); null or blank sends none. Not sent to TEI.
     */
    public Builder model(String model) {
      this.model = Specs.nonBlank(model);
      return this;
    }

    /** Sent as {@code Authorization: Bearer <key>}; null or blank sends no header (local servers). */
    public Builder apiKey(String apiKey) {
      this.apiKey = Specs.nonBlank(apiKey);
      return this;
    }

    /** Documents per request, 1..10000; longer lists are split. Default 32. */
    public Builder maxDocuments(int maxDocuments) {
      if (maxDocuments < 1 || maxDocuments > 10_000) {
        throw new IllegalArgumentException("maxDocuments must be in 1..10000, was " + maxDocuments);
      }
      this.maxDocuments = maxDocuments;
      return this;
    }

    /** Connect and per-request timeout; default 60 s. */
    public Builder timeout(Duration timeout) {
      this.timeout = Specs.positive(timeout);
      return this;
    }

    /**
     * The client to send requests with (proxy, TLS, executor settings). By default a client with a
     * two-thread daemon executor and the connect timeout is created.
     */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    public HttpReranker build() {
      return new HttpReranker(this);
    }
  }
}
