package dev.ctxpack.onnx;

import dev.ctxpack.rerank.Reranker;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Builds a model-backed {@link Reranker} from a one-line spec, as given on the command line or in a
 * config file. Accepted forms:
 *
 * <ul>
 *   <li>{@code http:URL[,model=NAME][,format=cohere|tei][,batch=N]} — {@link HttpReranker} posting to
 *       the full endpoint {@code URL} in the Cohere/Jina shape (default) or the text-embeddings-inference
 *       shape, at most {@code N} documents per request (default 32), with the API key in {@code
 *       $CTXPACK_RERANK_KEY} (none is needed for local servers);
 *   <li>{@code onnx:/path/model.onnx[,tokenizer=/path/tokenizer.json][,max-length=N]} — {@link
 *       OnnxCrossEncoderReranker}; the tokenizer defaults to {@code tokenizer.json} beside the model,
 *       the maximum pair length to 512 word pieces.
 * </ul>
 *
 * <pre>{@code
 * Reranker r = Rerankers.byName("http:http://localhost:8080/rerank,format=tei");
 * Reranker j = Rerankers.byName("http:https://api.jina.ai/v1/rerank,model=jina-reranker-v2-base-multilingual");
 * Reranker x = Rerankers.byName("onnx:/models/ms-marco-MiniLM-L-6-v2/model.onnx,max-length=256");
 * }</pre>
 *
 * <p>Traps: the {@code http:} prefix comes before the URL's own scheme ({@code
 * http:https://...}); a bare URL is refused with that hint. URLs and paths cannot contain commas.
 * The reranker that needs no model ({@code features}) and switching reranking off ({@code none})
 * are the caller's to handle; this class refuses them like any unknown form. An {@code onnx:}
 * reranker holds its model in native memory: it is {@link AutoCloseable}.
 */
public final class Rerankers {
  /** Environment variable holding the API key of an {@code http:} reranker. */
  public static final String KEY_ENV = "CTXPACK_RERANK_KEY";

  static final String FORMS =
      "accepted forms: http:URL[,model=NAME][,format=cohere|tei][,batch=N] (API key from " + KEY_ENV
          + ") | onnx:/path/model.onnx[,tokenizer=/path/tokenizer.json][,max-length=N]";

  private static final String KIND = "reranker";

  private Rerankers() {}

  /** {@link #byName(String, Function)} reading the process environment. */
  public static Reranker byName(String spec) {
    return byName(spec, System::getenv);
  }

  /**
   * Builds the reranker {@code spec} names, reading environment variables through {@code env}
   * (which returns null for unset names).
   *
   * @throws IllegalArgumentException for an unknown or malformed spec, listing the accepted forms,
   *     or for a missing or unusable model file, naming the path
   */
  public static Reranker byName(String spec, Function<String, String> env) {
    Objects.requireNonNull(env, "env");
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("reranker spec must not be blank; " + FORMS);
    }
    String s = spec.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.startsWith("https://")) throw bareUrl(spec);
    if (lower.startsWith("http:")) return http(s.substring("http:".length()), spec, env);
    if (lower.startsWith("onnx:")) return onnx(s.substring("onnx:".length()), spec);
    throw new IllegalArgumentException("unknown reranker spec '" + spec + "'; " + FORMS);
  }

  private static Reranker http(String rest, String spec, Function<String, String> env) {
    if (rest.startsWith("//")) throw bareUrl(spec);
    Specs.Body body = Specs.split(rest, spec, KIND, FORMS, List.of("model", "format", "batch"));
    if (body.head().isEmpty()) {
      throw new IllegalArgumentException("reranker spec '" + spec + "' names no URL; " + FORMS);
    }
    HttpReranker.Builder b;
    try {
      b = HttpReranker.builder(body.head());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("reranker spec '" + spec + "': " + e.getMessage() + "; " + FORMS, e);
    }
    b.apiKey(Specs.nonBlank(env.apply(KEY_ENV)));
    String model = body.options().get("model");
    if (model != null) b.model(model);
    String format = body.options().get("format");
    if (format != null) b.format(HttpReranker.Format.parse(format));
    String batch = body.options().get("batch");
    if (batch != null) b.maxDocuments(Specs.intOption("batch", batch, 1, 10_000, spec, KIND));
    return b.build();
  }

  private static IllegalArgumentException bareUrl(String spec) {
    return new IllegalArgumentException(
        "reranker spec '" + spec + "' is a bare URL; write http:" + spec.trim() + " (the prefix, then the URL); "
            + FORMS);
  }

  private static Reranker onnx(String rest, String spec) {
    Specs.Body body = Specs.split(rest, spec, KIND, FORMS, List.of("tokenizer", "max-length"));
    if (body.head().isEmpty()) {
      throw new IllegalArgumentException("reranker spec '" + spec + "' names no model file; " + FORMS);
    }
    Path model = Specs.path(body.head(), spec, KIND);
    OnnxCrossEncoderReranker.Builder b = OnnxCrossEncoderReranker.builder(model);
    String tokenizer = body.options().get("tokenizer");
    if (tokenizer != null) b.tokenizer(Specs.path(tokenizer, spec, KIND));
    String maxLength = body.options().get("max-length");
    if (maxLength != null) b.maxLength(Specs.intOption("max-length", maxLength, 8, 8192, spec, KIND));
    return b.build();
  }
}
