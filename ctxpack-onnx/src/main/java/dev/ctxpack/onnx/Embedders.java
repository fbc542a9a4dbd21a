package dev.ctxpack.onnx;

import dev.ctxpack.embed.Embedder;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Builds an {@link Embedder} from a one-line spec, as given on the command line or in a config
 * file. Accepted forms:
 *
 * <ul>
 *   <li>{@code minilm} (the default, also {@code all-minilm-l6-v2-q}) — {@link MiniLmEmbedder};
 *   <li>{@code onnx:/path/model.onnx[,tokenizer=/path/tokenizer.json][,pooling=mean|cls]} — {@link
 *       OnnxFileEmbedder}; the tokenizer defaults to {@code tokenizer.json} beside the model, pooling
 *       to mean;
 *   <li>{@code openai:MODEL} — {@link OpenAiEmbedder} against {@code $CTXPACK_EMBEDDINGS_URL}
 *       (default {@value OpenAiEmbedder#DEFAULT_BASE_URL}) with the key in {@code
 *       $CTXPACK_EMBEDDINGS_KEY}, else {@code $OPENAI_API_KEY} (none is needed for local servers).
 * </ul>
 *
 * <pre>{@code
 * Embedder e = Embedders.byName("onnx:/models/bge-small/model.onnx,pooling=cls");
 * }</pre>
 *
 * <p>Traps: paths in the {@code onnx:} form cannot contain commas. An {@code openai:} spec against
 * api.openai.com without a key is rejected here rather than on the first request.
 */
public final class Embedders {
  /** The spec of the default embedder. */
  public static final String DEFAULT = "minilm";

  /** Environment variable holding the OpenAI-compatible base URL. */
  public static final String URL_ENV = "CTXPACK_EMBEDDINGS_URL";

  /** Environment variable holding the API key; {@value #OPENAI_KEY_ENV} is read when it is unset. */
  public static final String KEY_ENV = "CTXPACK_EMBEDDINGS_KEY";

  /** Fallback environment variable for the API key. */
  public static final String OPENAI_KEY_ENV = "OPENAI_API_KEY";

  static final String FORMS =
      "accepted forms: minilm (default) | onnx:/path/model.onnx[,tokenizer=/path/tokenizer.json]"
          + "[,pooling=mean|cls] | openai:MODEL (base URL from " + URL_ENV + ", key from " + KEY_ENV
          + " or " + OPENAI_KEY_ENV + ")";

  private static final String KIND = "embedder";

  private Embedders() {}

  /** The default embedder, {@link MiniLmEmbedder}. */
  public static Embedder defaultEmbedder() {
    return new MiniLmEmbedder();
  }

  /** {@link #byName(String, Function)} reading the process environment. */
  public static Embedder byName(String spec) {
    return byName(spec, System::getenv);
  }

  /**
   * Builds the embedder {@code spec} names, reading environment variables through {@code env}
   * (which returns null for unset names).
   *
   * @throws IllegalArgumentException for an unknown or malformed spec, listing the accepted forms,
   *     or for a missing model file, naming the path
   */
  public static Embedder byName(String spec, Function<String, String> env) {
    Objects.requireNonNull(env, "env");
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("embedder spec must not be blank; " + FORMS);
    }
    String s = spec.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.equals(DEFAULT) || lower.equals(MiniLmEmbedder.ID)) return new MiniLmEmbedder();
    if (lower.startsWith("onnx:")) return onnx(s.substring("onnx:".length()), spec);
    if (lower.startsWith("openai:")) return openAi(s.substring("openai:".length()).trim(), spec, env);
    throw new IllegalArgumentException("unknown embedder spec '" + spec + "'; " + FORMS);
  }

  private static Embedder onnx(String rest, String spec) {
    Specs.Body body = Specs.split(rest, spec, KIND, FORMS, List.of("tokenizer", "pooling"));
    if (body.head().isEmpty()) {
      throw new IllegalArgumentException("embedder spec '" + spec + "' names no model file; " + FORMS);
    }
    Path model = Specs.path(body.head(), spec, KIND);
    String tokenizer = body.options().get("tokenizer");
    String pooling = body.options().get("pooling");
    return new OnnxFileEmbedder(
        model,
        tokenizer == null ? OnnxFileEmbedder.defaultTokenizer(model) : Specs.path(tokenizer, spec, KIND),
        pooling == null ? OnnxFileEmbedder.Pooling.MEAN : OnnxFileEmbedder.Pooling.parse(pooling));
  }

  private static Embedder openAi(String model, String spec, Function<String, String> env) {
    if (model.isEmpty()) {
      throw new IllegalArgumentException("embedder spec '" + spec + "' names no model; " + FORMS);
    }
    String url = Specs.nonBlank(env.apply(URL_ENV));
    String key = Specs.nonBlank(env.apply(KEY_ENV));
    if (key == null) key = Specs.nonBlank(env.apply(OPENAI_KEY_ENV));
    OpenAiEmbedder.Builder b = OpenAiEmbedder.builder().model(model).apiKey(key);
    if (url != null) b.baseUrl(url);
    OpenAiEmbedder embedder = b.build();
    String host = URI.create(embedder.baseUrl()).getHost();
    if (key == null && "api.openai.com".equalsIgnoreCase(host)) {
      throw new IllegalArgumentException(
          "embedder spec '" + spec + "' targets api.openai.com, which needs an API key: set "
              + KEY_ENV + " or " + OPENAI_KEY_ENV + ", or point " + URL_ENV + " at a local server");
    }
    return embedder;
  }
}
