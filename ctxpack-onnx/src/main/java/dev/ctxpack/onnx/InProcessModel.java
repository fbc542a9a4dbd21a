package dev.ctxpack.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.ctxpack.embed.Embedder;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * One loaded sentence-transformer (ONNX session, Hugging Face tokenizer, pooling). A text is
 * tokenized once and run once ({@link SinglePass}); a text that would need langchain4j's {@link
 * OnnxBertBiEncoder} (over 510 word pieces; DJL truncates at 512, so a guard) goes
 * through it, so every vector is the one that encoder gives. Thread-safe: the session and tokenizer are immutable and
 * ONNX Runtime allows concurrent {@code run} calls.
 *
 * <p>Why the session is single-threaded: ONNX Runtime's default session runs every text on the
 * session's intra-op pool (one thread per core), whose threads spin between operators. On a 2-core
 * machine (1,000 texts of 300 tokens) that reached ~175–180 texts/s at best at 11–15 CPU ms per
 * text, with or without langchain4j's {@code embedAll}, and fell furthest when other processes
 * wanted the cores. One intra-op thread per text, texts spread over one executor thread per core,
 * reached ~225 texts/s at ~9 CPU ms per text ({@code MiniLmThroughput} in the tests reproduces
 * this). A single text then costs one core for about 9 ms.
 */
final class InProcessModel {
  private final String name;
  private final Runner runner;
  private final SinglePass pass;
  private final UnknownPieces unknownPieces;

  private InProcessModel(String name, OrtEnvironment env, OrtSession session, byte[] tokenizer, PoolingMode pooling)
      throws IOException {
    this.name = name;
    this.runner = new Runner(new OnnxBertBiEncoder(env, session, new java.io.ByteArrayInputStream(tokenizer), pooling));
    this.pass = new SinglePass(env, session, tokenizer, pooling);
    this.unknownPieces = UnknownPieces.of(tokenizer);
  }

  /** Loads a model held in memory (e.g. a class-path resource) with its tokenizer.json stream. */
  static InProcessModel fromBytes(String name, byte[] model, InputStream tokenizer, PoolingMode pooling) {
    NativeLibraries.prepare();
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    try (OrtSession.SessionOptions options = sessionOptions()) {
      byte[] json = tokenizer.readAllBytes();
      OrtSession session = env.createSession(model, options);
      return new InProcessModel(name, env, session, json, pooling);
    } catch (OrtException | IOException e) {
      throw new IllegalStateException("could not load ONNX model " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * Loads a model file and a tokenizer.json file. The caller has checked that both are readable;
   * failures here mean the content is not what was expected and are reported naming the path.
   */
  static InProcessModel fromFiles(String name, Path model, Path tokenizer, PoolingMode pooling) {
    NativeLibraries.prepare();
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    OrtSession session;
    try (OrtSession.SessionOptions options = sessionOptions()) {
      session = env.createSession(model.toString(), options);
    } catch (OrtException | RuntimeException e) {
      throw new IllegalArgumentException(
          "could not load ONNX model " + model + " (is it an ONNX export of a sentence-transformer?): "
              + e.getMessage(),
          e);
    }
    try {
      byte[] json = Files.readAllBytes(tokenizer);
      return new InProcessModel(name, env, session, json, pooling);
    } catch (IOException | RuntimeException e) {
      closeQuietly(session);
      throw new IllegalArgumentException(
          "could not load tokenizer " + tokenizer + " (expected a Hugging Face tokenizer.json): "
              + rootMessage(e),
          e);
    }
  }

  /**
   * Embeds {@code texts} in order and returns unit-length vectors. A single text runs on the
   * calling thread; a batch is one task per text on {@code executor}, and the first failure (in
   * input order) cancels the tasks not yet started and is thrown naming the text's index.
   */
  List<float[]> embed(List<String> texts, Executor executor) {
    Texts.requireNonBlank(texts);
    int n = texts.size();
    return BoundedExecutor.mapInOrder(
        n, i -> embedOne(texts.get(i), i), executor, "embedding " + n + " texts with " + name);
  }

  /** {@code text}'s vector through langchain4j's encoder alone, as before {@link SinglePass} (for tests). */
  float[] langchain4jVector(String text) {
    return Embedder.normalize(runner.embed(TextSegment.from(text)).content().vector());
  }

  /** Whether {@code text} takes the single pass (and not langchain4j's encoder). */
  boolean takesSinglePass(String text) throws OrtException {
    return pass.pool(text) != null;
  }

  /** {@code text}'s token states from one run ({@link SinglePass#states}); {@code null} when it has no piece. */
  dev.ctxpack.embed.TokenStates tokenStates(String text) {
    try {
      return pass.states(text);
    } catch (OrtException | RuntimeException e) {
      throw new IllegalStateException("model " + name + " failed reading token states: " + rootMessage(e), e);
    }
  }

  /** The share of {@code text}'s word pieces that are not the tokenizer's unknown piece ({@link UnknownPieces}). */
  double readableShare(String text) {
    return unknownPieces.readableShare(text);
  }

  private float[] embedOne(String text, int index) {
    float[] v;
    try {
      v = pass.pool(text);
      if (v == null) v = runner.embed(TextSegment.from(text)).content().vector();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "texts[" + index + "] cannot be embedded by " + name + ": " + e.getMessage()
              + " (does it hold only zero-width, unassigned or unknown characters?)",
          e);
    } catch (OrtException | RuntimeException e) {
      throw new IllegalStateException(
          "model " + name + " failed on texts[" + index + "]: " + rootMessage(e), e);
    }
    return Embedder.normalize(v);
  }

  /**
   * One intra-op and one inter-op thread: parallelism comes from running several inputs at once on
   * a bounded executor (see the class comment for why).
   */
  static OrtSession.SessionOptions sessionOptions() throws OrtException {
    OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    try {
      options.setIntraOpNumThreads(1);
      options.setInterOpNumThreads(1);
      return options;
    } catch (OrtException | RuntimeException e) {
      options.close();
      throw e;
    }
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) t = t.getCause();
    return t.getMessage();
  }

  static void closeQuietly(OrtSession session) {
    try {
      session.close();
    } catch (OrtException ignored) {
      // the load already failed; that failure is the one to report
    }
  }

  /**
   * langchain4j's in-process model over our encoder, called one text at a time (langchain4j runs a
   * single text on the calling thread, so the executor given to it is never used).
   */
  private static final class Runner extends AbstractInProcessEmbeddingModel {
    private final OnnxBertBiEncoder encoder;

    Runner(OnnxBertBiEncoder encoder) {
      super(Runnable::run);
      this.encoder = encoder;
    }

    @Override
    protected OnnxBertBiEncoder model() {
      return encoder;
    }
  }
}
