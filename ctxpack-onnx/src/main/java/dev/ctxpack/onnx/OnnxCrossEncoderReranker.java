package dev.ctxpack.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.util.PairList;
import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import ai.onnxruntime.ValueInfo;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.rerank.Reranker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;

/**
 * A {@link Reranker} that runs a cross-encoder (a BERT-style sequence-classification model such as
 * ms-marco-MiniLM or bge-reranker, exported to ONNX) in-process on every (query, passage) pair.
 * The model comes from a file the user gives, with its Hugging Face {@code tokenizer.json} (by
 * default the one beside it).
 *
 * <p>Contract: each pair is encoded by the tokenizer's own pair template — {@code [CLS] query [SEP]
 * passage [SEP]} with token types 0 for the query part and 1 for the passage part for BERT models
 * ({@code <s> q </s></s> p </s>} for RoBERTa-style ones) — and cut to {@link Builder#maxLength(int)}
 * word pieces (default {@value #DEFAULT_MAX_LENGTH}) by shortening the passage only. The passage is
 * the chunk text after the document title and a blank line when there is a title. Each ONNX run
 * takes {@link Builder#batchSize(int)} pairs (default {@value #DEFAULT_BATCH_SIZE}), padded to the
 * longest of them, and runs are spread over a bounded executor, one ONNX thread each, as {@link
 * MiniLmEmbedder} does; {@code token_type_ids} and {@code attention_mask} are fed when the model
 * declares them. The score is the last column of the {@code logits} output ({@code [n, 1]}: the
 * relevance logit; {@code [n, 2]}: the positive class), raw unless {@link Builder#sigmoid(boolean)}
 * is set. Every candidate gets {@link dev.ctxpack.model.Signal#RERANK}, all are returned best
 * first, ties broken by chunk id. {@link #id()} is {@code onnx-cross-encoder:<model file name>}.
 * Thread-safe.
 *
 * <pre>{@code
 * Path dir = Path.of("models/ms-marco-MiniLM-L-6-v2");
 * try (OnnxCrossEncoderReranker reranker = OnnxCrossEncoderReranker.builder(dir.resolve("model.onnx")).build()) {
 *   List<Candidate> best = reranker.rerank("what is bm25", candidates);
 * }
 * }</pre>
 *
 * <p>Traps: the model is loaded in the constructor, which fails with an {@link
 * IllegalArgumentException} naming the path for a missing file, a file that is not ONNX, a model
 * whose inputs are not {@code input_ids} (+ {@code attention_mask}, {@code token_type_ids}) or that
 * has no {@code logits} output of shape {@code [n, 1]} or {@code [n, 2]} (a sentence-transformer
 * embedding export is refused here). The query keeps at most {@code maxLength / 2 - 2} word pieces
 * (cut at a word boundary) so that every passage keeps some room; a {@code maxLength} above the
 * model's position limit (512 for BERT) makes long pairs fail at run time. Raise the batch size
 * only for float models: a dynamically quantized (int8) export picks its activation scales over
 * the whole batch, so a pair's score then depends on its batch-mates (by up to a logit on a
 * quantized MiniLM), while float models give the same scores, within rounding, at any batch size.
 * The id holds the file name, not the directory. Native memory is held until {@link #close()}.
 *
 * <p>How it is tested: no trained cross-encoder can be fetched by the build, so the tests run real
 * ONNX graphs that they write themselves — a lexical cross-encoder whose logit counts the query
 * word pieces found in the passage (ranking, pair encoding, token types, both logit shapes) and
 * MiniLM with an untrained linear head on {@code [CLS]} (batching, padding, truncation on a real
 * transformer). The ranking quality of a trained model is not measured here.
 */
public final class OnnxCrossEncoderReranker implements Reranker, AutoCloseable {
  /** Word pieces per pair unless set. */
  public static final int DEFAULT_MAX_LENGTH = 512;

  /** Pairs per ONNX run unless set: one, so that quantized models score a pair the same in any list. */
  public static final int DEFAULT_BATCH_SIZE = 1;

  private static final String INPUT_IDS = "input_ids";
  private static final String ATTENTION_MASK = "attention_mask";
  private static final String TOKEN_TYPE_IDS = "token_type_ids";
  private static final String LOGITS = "logits";

  private final String id;
  private final Path model;
  private final Path tokenizerPath;
  private final int maxLength;
  private final int batchSize;
  private final boolean sigmoid;
  private final Executor executor;
  private final OrtEnvironment env;
  private final OrtSession session;
  private final Map<String, OnnxJavaType> inputs;
  private final String output;
  private final HuggingFaceTokenizer pairs;
  private final HuggingFaceTokenizer plain;

  private OnnxCrossEncoderReranker(Builder b) {
    this.model = OnnxFileEmbedder.requireReadableFile(b.model, "model");
    this.tokenizerPath =
        OnnxFileEmbedder.requireReadableFile(
            b.tokenizer != null ? b.tokenizer : OnnxFileEmbedder.defaultTokenizer(b.model), "tokenizer");
    this.maxLength = b.maxLength;
    this.batchSize = b.batchSize;
    this.sigmoid = b.sigmoid;
    this.executor = b.executor;
    this.id = "onnx-cross-encoder:" + model.getFileName();
    NativeLibraries.prepare();
    this.env = OrtEnvironment.getEnvironment();
    try (OrtSession.SessionOptions options = InProcessModel.sessionOptions()) {
      this.session = env.createSession(model.toString(), options);
    } catch (OrtException | RuntimeException e) {
      throw new IllegalArgumentException(
          "could not load ONNX model " + model + " (is it an ONNX export of a cross-encoder?): " + e.getMessage(), e);
    }
    try {
      this.inputs = checkInputs();
      this.output = checkOutput();
    } catch (OrtException | RuntimeException e) {
      InProcessModel.closeQuietly(session);
      if (e instanceof IllegalArgumentException) throw (IllegalArgumentException) e;
      throw new IllegalArgumentException("could not read the inputs and outputs of ONNX model " + model + ": " + e, e);
    }
    HuggingFaceTokenizer withPairs = null;
    try {
      withPairs =
          HuggingFaceTokenizer.builder()
              .optTokenizerPath(tokenizerPath)
              .optTruncateSecondOnly()
              .optMaxLength(maxLength)
              .optPadding(true)
              .build();
      this.pairs = withPairs;
      this.plain =
          HuggingFaceTokenizer.builder()
              .optTokenizerPath(tokenizerPath)
              .optTruncation(false)
              .optPadding(false)
              .optAddSpecialTokens(false)
              .build();
    } catch (IOException | RuntimeException e) {
      if (withPairs != null) withPairs.close();
      InProcessModel.closeQuietly(session);
      throw new IllegalArgumentException(
          "could not load tokenizer " + tokenizerPath + " (expected a Hugging Face tokenizer.json): "
              + InProcessModel.rootMessage(e),
          e);
    }
  }

  /** Starts a configuration for the cross-encoder in {@code model} (an {@code .onnx} file). */
  public static Builder builder(Path model) {
    return new Builder(model);
  }

  @Override
  public String id() {
    return id;
  }

  /**
   * Scores every candidate against {@code query} and returns them all, best first.
   *
   * @throws IllegalArgumentException for a blank query or a null candidate
   * @throws IllegalStateException if the model fails on a batch, naming the candidates' range
   */
  @Override
  public List<Candidate> rerank(String query, List<Candidate> candidates) {
    Reranking.check(query, candidates);
    if (candidates.isEmpty()) return List.of();
    String q = fitQuery(query);
    List<String> passages = candidates.stream().map(Reranking::passage).collect(Collectors.toList());
    int batches = (passages.size() + batchSize - 1) / batchSize;
    List<float[]> scored =
        BoundedExecutor.mapInOrder(
            batches,
            b -> score(q, passages, b * batchSize, Math.min(passages.size(), (b + 1) * batchSize)),
            executor,
            "reranking " + passages.size() + " candidates with " + id);
    double[] scores = new double[passages.size()];
    int i = 0;
    for (float[] batch : scored) for (float s : batch) scores[i++] = sigmoid ? 1 / (1 + Math.exp(-s)) : s;
    return Reranking.ranked(candidates, scores);
  }

  /** The model file. */
  public Path model() {
    return model;
  }

  /** The tokenizer.json file. */
  public Path tokenizer() {
    return tokenizerPath;
  }

  /** Word pieces per pair. */
  public int maxLength() {
    return maxLength;
  }

  /** Pairs per ONNX run. */
  public int batchSize() {
    return batchSize;
  }

  /** Whether the model takes {@code token_type_ids}. */
  public boolean usesTokenTypes() {
    return inputs.containsKey(TOKEN_TYPE_IDS);
  }

  /** Frees the ONNX session and the tokenizers; the reranker must not be used afterwards. */
  @Override
  public void close() {
    InProcessModel.closeQuietly(session);
    pairs.close();
    plain.close();
  }

  @Override
  public String toString() {
    return "OnnxCrossEncoderReranker[" + id + ", maxLength=" + maxLength + ", batchSize=" + batchSize
        + ", output=" + output + ", model=" + model + "]";
  }

  /** The model inputs of one batch, as the tokenizer encoded the pairs: one row per pair, padded. */
  record Encoded(long[][] ids, long[][] typeIds, long[][] mask) {}

  /** Encodes ({@code query}, {@code passages[i]}) pairs as the model receives them (query already fitted). */
  Encoded encode(String query, List<String> passages) {
    PairList<String, String> list = new PairList<>(passages.size());
    for (String p : passages) list.add(query, p);
    Encoding[] encodings = pairs.batchEncode(list);
    int n = encodings.length;
    long[][] ids = new long[n][];
    long[][] types = new long[n][];
    long[][] mask = new long[n][];
    for (int i = 0; i < n; i++) {
      ids[i] = encodings[i].getIds();
      types[i] = encodings[i].getTypeIds();
      mask[i] = encodings[i].getAttentionMask();
    }
    return new Encoded(ids, types, mask);
  }

  /**
   * {@code query} cut at the last word boundary (or, for one giant word, character) that keeps it
   * within {@code maxLength / 2 - 2} word pieces, so the pair template and part of every passage
   * still fit.
   */
  String fitQuery(String query) {
    int budget = maxLength / 2 - 2;
    if (pieces(query) <= budget) return query;
    List<Integer> cuts = new ArrayList<>();
    for (int i = 1; i < query.length(); i++) {
      if (Character.isWhitespace(query.charAt(i)) && !Character.isWhitespace(query.charAt(i - 1))) cuts.add(i);
    }
    int cut = lastFitting(query, cuts, budget);
    if (cut < 0) {
      // not even the first word fits: cut inside it, at a code point boundary
      cuts.clear();
      for (int i = 1; i < query.length(); i++) if (!Character.isLowSurrogate(query.charAt(i))) cuts.add(i);
      cut = lastFitting(query, cuts, budget);
    }
    return cut < 0 ? query.substring(0, Character.charCount(query.codePointAt(0))) : query.substring(0, cut);
  }

  /** The largest cut in {@code cuts} (ascending) whose prefix fits {@code budget}, by bisection; -1 if none. */
  private int lastFitting(String query, List<Integer> cuts, int budget) {
    int lo = 0;
    int hi = cuts.size() - 1;
    int best = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (pieces(query.substring(0, cuts.get(mid))) <= budget) {
        best = cuts.get(mid);
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return best;
  }

  private int pieces(String text) {
    return plain.encode(text, false, false).getIds().length;
  }

  private float[] score(String query, List<String> passages, int from, int to) {
    Encoded e = encode(query, passages.subList(from, to));
    Map<String, OnnxTensor> feed = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, OnnxJavaType> in : inputs.entrySet()) {
        long[][] values = in.getKey().equals(INPUT_IDS) ? e.ids() : in.getKey().equals(ATTENTION_MASK) ? e.mask() : e.typeIds();
        feed.put(in.getKey(), tensor(values, in.getValue()));
      }
      try (OrtSession.Result result = session.run(feed, Set.of(output))) {
        return lastColumn(result.get(0), to - from);
      }
    } catch (OrtException | RuntimeException ex) {
      throw new IllegalStateException(
          "model " + model + " failed on candidates[" + from + ".." + (to - 1) + "]: " + InProcessModel.rootMessage(ex), ex);
    } finally {
      feed.values().forEach(OnnxTensor::close);
    }
  }

  private OnnxTensor tensor(long[][] values, OnnxJavaType type) throws OrtException {
    if (type == OnnxJavaType.INT64) return OnnxTensor.createTensor(env, values);
    int[][] narrow = new int[values.length][];
    for (int i = 0; i < values.length; i++) narrow[i] = Arrays.stream(values[i]).mapToInt(Math::toIntExact).toArray();
    return OnnxTensor.createTensor(env, narrow);
  }

  private float[] lastColumn(OnnxValue value, int n) throws OrtException {
    Object v = value.getValue();
    float[] out = new float[n];
    if (v instanceof float[][]) {
      float[][] rows = (float[][]) v;
      if (rows.length != n) throw new IllegalStateException(LOGITS + " has " + rows.length + " rows for " + n + " pairs");
      for (int i = 0; i < n; i++) out[i] = rows[i][rows[i].length - 1];
    } else if (v instanceof float[]) {
      float[] flat = (float[]) v;
      if (flat.length != n) throw new IllegalStateException(LOGITS + " has " + flat.length + " values for " + n + " pairs");
      System.arraycopy(flat, 0, out, 0, n);
    } else {
      throw new IllegalStateException(output + " is not a float tensor of rank 1 or 2: " + value.getInfo());
    }
    return out;
  }

  /** The model's inputs in a fixed order, each int64 or int32; input_ids required. */
  private Map<String, OnnxJavaType> checkInputs() throws OrtException {
    Map<String, NodeInfo> declared = session.getInputInfo();
    Map<String, OnnxJavaType> out = new LinkedHashMap<>();
    for (NodeInfo node : declared.values()) {
      String name = node.getName();
      ValueInfo info = node.getInfo();
      boolean known = name.equals(INPUT_IDS) || name.equals(ATTENTION_MASK) || name.equals(TOKEN_TYPE_IDS);
      boolean integer =
          info instanceof TensorInfo
              && (((TensorInfo) info).type == OnnxJavaType.INT64 || ((TensorInfo) info).type == OnnxJavaType.INT32)
              && ((TensorInfo) info).getShape().length == 2;
      if (!known || !integer) {
        throw new IllegalArgumentException(
            "model " + model + " takes " + describe(declared) + "; a cross-encoder must take " + INPUT_IDS
                + " [batch, tokens] (int64 or int32) and optionally " + ATTENTION_MASK + " and " + TOKEN_TYPE_IDS);
      }
      out.put(name, ((TensorInfo) info).type);
    }
    if (!out.containsKey(INPUT_IDS)) {
      throw new IllegalArgumentException(
          "model " + model + " has no " + INPUT_IDS + " input (it takes " + describe(declared) + ")");
    }
    return out;
  }

  /** {@code logits}, or the only output, if it is a float [batch, 1|2] or [batch] tensor. */
  private String checkOutput() throws OrtException {
    Map<String, NodeInfo> declared = session.getOutputInfo();
    NodeInfo node = declared.get(LOGITS);
    if (node == null && declared.size() == 1) node = declared.values().iterator().next();
    boolean ok = false;
    if (node != null && node.getInfo() instanceof TensorInfo) {
      TensorInfo info = (TensorInfo) node.getInfo();
      long[] shape = info.getShape();
      ok = info.type == OnnxJavaType.FLOAT
          && (shape.length == 1 || shape.length == 2 && (shape[1] == 1 || shape[1] == 2 || shape[1] < 0));
    }
    if (!ok) {
      throw new IllegalArgumentException(
          "model " + model + " has no " + LOGITS + " output of shape [batch, 1] or [batch, 2] (it returns "
              + describe(declared) + "); is it a cross-encoder (sequence-classification) export rather than an"
              + " embedding model?");
    }
    return node.getName();
  }

  private static String describe(Map<String, NodeInfo> nodes) {
    return nodes.values().stream()
        .map(n -> n.getInfo() instanceof TensorInfo
            ? n.getName() + " " + ((TensorInfo) n.getInfo()).type + Arrays.toString(((TensorInfo) n.getInfo()).getShape())
            : n.getName() + " " + n.getInfo())
        .collect(Collectors.joining(", "));
  }

  /** Options for {@link OnnxCrossEncoderReranker}; each setter validates its value and names it when it is wrong. */
  public static final class Builder {
    private final Path model;
    private Path tokenizer;
    private int maxLength = DEFAULT_MAX_LENGTH;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private boolean sigmoid;
    private Executor executor = BoundedExecutor.shared();

    private Builder(Path model) {
      if (model == null) throw new IllegalArgumentException("model path must not be null");
      this.model = model;
    }

    /** The Hugging Face tokenizer.json; default {@code tokenizer.json} beside the model. */
    public Builder tokenizer(Path tokenizer) {
      this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
      return this;
    }

    /** Word pieces per (query, passage) pair, 8..8192; default {@value #DEFAULT_MAX_LENGTH}. */
    public Builder maxLength(int maxLength) {
      if (maxLength < 8 || maxLength > 8192) {
        throw new IllegalArgumentException("maxLength must be in 8..8192, was " + maxLength);
      }
      this.maxLength = maxLength;
      return this;
    }

    /**
     * Pairs per ONNX run, 1..1024; default {@value #DEFAULT_BATCH_SIZE}. Larger batches can be
     * faster for float models; they change the scores of dynamically quantized ones (see the class
     * comment).
     */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1 || batchSize > 1024) {
        throw new IllegalArgumentException("batchSize must be in 1..1024, was " + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    /**
     * Map scores through the logistic function (to 0..1, as sentence-transformers' {@code
     * CrossEncoder.predict} does for one-logit models). Off by default: the order is the same.
     */
    public Builder sigmoid(boolean sigmoid) {
      this.sigmoid = sigmoid;
      return this;
    }

    /**
     * Where batches run, one task per batch; default the shared pool of one daemon thread per core
     * ({@code Runnable::run} runs all on the calling thread).
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Loads the model and tokenizer.
     *
     * @throws IllegalArgumentException naming the path, for a missing or unreadable file, a file that
     *     is not ONNX or not a tokenizer.json, or a model without the expected inputs and outputs
     */
    public OnnxCrossEncoderReranker build() {
      return new OnnxCrossEncoderReranker(this);
    }
  }
}
