package dev.ctxpack.onnx;

import dev.ctxpack.embed.Embedder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * An {@link Embedder} for any BERT-style sentence-transformer exported to ONNX, loaded from a model
 * file and its Hugging Face {@code tokenizer.json}, run in-process like {@link MiniLmEmbedder}
 * (langchain4j's ONNX encoder, one ONNX thread per text, texts spread over a bounded executor).
 *
 * <p>Contract: the model is loaded and its {@link #dimension()} discovered (by embedding one probe
 * text) in the constructor, so a bad path or a file that is not a sentence-transformer fails there
 * with an {@link IllegalArgumentException} naming the path. {@link #id()} is {@code
 * onnx:<model file name>:<pooling>}, e.g. {@code onnx:model.onnx:mean}. Vectors are unit length,
 * deterministic and independent of batching; instances are thread-safe.
 *
 * <pre>{@code
 * Path dir = Path.of("models/multilingual-e5-small");
 * Embedder e5 = new OnnxFileEmbedder(dir.resolve("model.onnx"), dir.resolve("tokenizer.json"),
 *     OnnxFileEmbedder.Pooling.MEAN);
 * }</pre>
 *
 * <p>Traps: the id holds the file name, not the directory, so two different models both named
 * {@code model.onnx} share an id — rename the file if indexes must tell them apart. The model must
 * take {@code input_ids} and {@code attention_mask} (and optionally {@code token_type_ids}) and
 * return token embeddings {@code [batch, tokens, dim]} as its first output. The tokenizer's own
 * truncation setting limits how much of a text the model sees. Models that expect a prefix (E5's
 * {@code "query: "}) need it in the text. Each instance holds its model in native memory for the
 * life of the process: create one per model and share it.
 */
public final class OnnxFileEmbedder implements Embedder {

  /** How token vectors become one text vector; use what the model was trained with. */
  public enum Pooling {
    /** Average of the token vectors, weighted by the attention mask (sentence-transformers' default). */
    MEAN(PoolingMode.MEAN),
    /** The vector of the first ({@code [CLS]}) token (e.g. BGE models). */
    CLS(PoolingMode.CLS);

    private final PoolingMode mode;

    Pooling(PoolingMode mode) {
      this.mode = mode;
    }

    /** Parses {@code mean} or {@code cls}, ignoring case. */
    public static Pooling parse(String name) {
      if (name != null) {
        for (Pooling p : values()) if (p.name().equalsIgnoreCase(name.trim())) return p;
      }
      throw new IllegalArgumentException("pooling must be mean or cls, was " + name);
    }
  }

  private static final String PROBE = "dimension probe";

  private final String id;
  private final Path model;
  private final Path tokenizer;
  private final Pooling pooling;
  private final Executor executor;
  private final InProcessModel loaded;
  private final int dimension;

  /** Loads {@code model} with {@code tokenizer.json} from the same directory and mean pooling. */
  public OnnxFileEmbedder(Path model) {
    this(model, defaultTokenizer(model), Pooling.MEAN);
  }

  /** Loads {@code model} and {@code tokenizer}; batches run on the shared bounded pool. */
  public OnnxFileEmbedder(Path model, Path tokenizer, Pooling pooling) {
    this(model, tokenizer, pooling, BoundedExecutor.shared());
  }

  /**
   * Loads {@code model} and {@code tokenizer}; batches are spread over {@code executor}, one text
   * per task.
   *
   * @throws IllegalArgumentException naming the path, if a file is missing, unreadable or not a
   *     model / tokenizer this class can run
   */
  public OnnxFileEmbedder(Path model, Path tokenizer, Pooling pooling, Executor executor) {
    this.model = requireReadableFile(model, "model");
    this.tokenizer = requireReadableFile(tokenizer, "tokenizer");
    this.pooling = Objects.requireNonNull(pooling, "pooling");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.id = "onnx:" + model.getFileName() + ":" + pooling.name().toLowerCase(Locale.ROOT);
    this.loaded = InProcessModel.fromFiles(id, this.model, this.tokenizer, pooling.mode);
    this.dimension = probeDimension();
  }

  /** {@code tokenizer.json} beside {@code model}. */
  static Path defaultTokenizer(Path model) {
    Objects.requireNonNull(model, "model");
    return model.toAbsolutePath().resolveSibling("tokenizer.json");
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /** The share of {@code text}'s word pieces that are not {@code [UNK]} (the tokenizer's unknown piece). */
  @Override
  public double readableShare(String text) {
    return loaded.readableShare(text);
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    Texts.requireNonBlank(texts);
    if (texts.isEmpty()) return List.of();
    return loaded.embed(texts, executor);
  }

  /** The model file this embedder was loaded from. */
  public Path model() {
    return model;
  }

  /** The tokenizer.json file this embedder was loaded from. */
  public Path tokenizer() {
    return tokenizer;
  }

  /** The pooling in use. */
  public Pooling pooling() {
    return pooling;
  }

  @Override
  public String toString() {
    return "OnnxFileEmbedder[" + id + ", dimension=" + dimension + ", model=" + model + "]";
  }

  private int probeDimension() {
    float[] v;
    try {
      v = loaded.embed(List.of(PROBE), Runnable::run).get(0);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "model "
              + model
              + " loaded but could not embed a probe text; it must take input_ids and"
              + " attention_mask and return token embeddings [batch, tokens, dim]: "
              + e.getMessage(),
          e);
    }
    if (v.length == 0) throw new IllegalArgumentException("model " + model + " returned an empty vector");
    return v.length;
  }

  /** {@code path} made absolute, or an {@link IllegalArgumentException} saying it is missing, not a file or unreadable. */
  static Path requireReadableFile(Path path, String what) {
    if (path == null) throw new IllegalArgumentException(what + " path must not be null");
    Path abs = path.toAbsolutePath();
    if (!Files.exists(abs)) {
      throw new IllegalArgumentException(what + " file not found: " + abs);
    }
    if (!Files.isRegularFile(abs)) {
      throw new IllegalArgumentException(what + " path is not a regular file: " + abs);
    }
    if (!Files.isReadable(abs)) {
      throw new IllegalArgumentException(what + " file is not readable: " + abs);
    }
    return abs;
  }
}
