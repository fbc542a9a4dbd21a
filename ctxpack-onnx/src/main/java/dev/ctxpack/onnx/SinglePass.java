package dev.ctxpack.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.ctxpack.embed.TokenStates;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A text's vector from one tokenization and one ONNX run, the same vector langchain4j's {@code
 * OnnxBertBiEncoder} computes for it. That encoder tokenizes each text three times (to count and
 * partition its pieces, to check the partition rebuilds the text, and to encode it), which on a
 * sentence of ~30 word pieces costs about as much as the model's run itself ({@code
 * MiniLmThroughput} in the tests). Here the text is encoded once, with the same tokenizer options
 * ({@code padding=false}, the tokenizer file's own truncation), run through the session with the
 * inputs it declares, and pooled and normalized with the same float arithmetic, so the vector is the
 * same to the last bit ({@code SinglePassTest}).
 *
 * <p>langchain4j splits a text of more than 510 word pieces into parts and averages their vectors;
 * DJL truncates every encoding at 512 pieces with these options (a file without truncation included), so this is a guard that should never fire, and {@link #pool} returns
 * {@code null} for it (and for an encoding with no piece besides the special ones), so that the
 * caller hands the text to langchain4j's encoder, which does exactly what it did before.
 */
final class SinglePass {
  /** langchain4j's partition size (510) plus the two special pieces around it. */
  static final int MAX_IDS = 512;

  private final OrtEnvironment env;
  private final OrtSession session;
  private final HuggingFaceTokenizer tokenizer;
  /** For token states: the model's whole input (512 pieces), not the pooled vector's 128-piece truncation. */
  private final HuggingFaceTokenizer longTokenizer;
  private final PoolingMode pooling;
  private final boolean typeIds;

  SinglePass(OrtEnvironment env, OrtSession session, byte[] tokenizerJson, PoolingMode pooling) throws IOException {
    this.env = env;
    this.session = session;
    this.tokenizer = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson), Map.of("padding", "false"));
    this.longTokenizer = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson),
        Map.of("padding", "false", "truncation", "true", "maxLength", Integer.toString(MAX_IDS)));
    this.pooling = pooling;
    Set<String> inputs = session.getInputNames();
    this.typeIds = inputs.contains("token_type_ids");
  }

  /**
   * The text's pooled, unit-length vector, or {@code null} when the text must go through
   * langchain4j's encoder instead (more than {@value #MAX_IDS} pieces, or none but the special ones).
   */
  float[] pool(String text) throws OrtException {
    Encoding encoding = tokenizer.encode(text, true, false);
    long[] ids = encoding.getIds();
    if (ids.length <= 2 || ids.length > MAX_IDS) return null;
    float[][] states = run(encoding);
    return normalize(pooling == PoolingMode.CLS ? states[0].clone() : mean(states));
  }

  /** The last layer's states of one encoding, from one session run with the inputs the session declares. */
  private float[][] run(Encoding encoding) throws OrtException {
    long[] ids = encoding.getIds();
    long[] shape = {1, ids.length};
    Map<String, OnnxTensor> inputs = new HashMap<>(4);
    try (OnnxTensor idTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
        OnnxTensor maskTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getAttentionMask()), shape);
        OnnxTensor typeTensor = typeIds ? OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getTypeIds()), shape) : null) {
      inputs.put("input_ids", idTensor);
      inputs.put("attention_mask", maskTensor);
      if (typeTensor != null) inputs.put("token_type_ids", typeTensor);
      try (OrtSession.Result result = session.run(inputs)) {
        return ((float[][][]) result.get(0).getValue())[0];
      }
    }
  }

  /**
   * The text's contextual token states from one run over at most {@value #MAX_IDS} pieces (the
   * model's whole input; the pooled vector reads the tokenizer file's own, shorter limit), each
   * unit length, with their character spans; {@code null} for a text with no piece besides the
   * special ones. Tokens past the cut are absent.
   */
  TokenStates states(String text) throws OrtException {
    Encoding encoding = longTokenizer.encode(text, true, false);
    long[] ids = encoding.getIds();
    if (ids.length <= 2 || ids.length > MAX_IDS) return null;
    float[][] states = run(encoding);
    CharSpan[] spans = encoding.getCharTokenSpans();
    long[] special = encoding.getSpecialTokenMask();
    int n = states.length;
    int[] start = new int[n];
    int[] end = new int[n];
    boolean[] content = new boolean[n];
    for (int i = 0; i < n; i++) {
      normalize(states[i]);
      CharSpan span = i < spans.length ? spans[i] : null;
      boolean isSpecial = special[i] != 0 || span == null;
      start[i] = isSpecial ? -1 : span.getStart();
      end[i] = isSpecial ? -1 : span.getEnd();
      content[i] = !isSpecial && hasLetterOrDigit(text, start[i], end[i]);
    }
    return new TokenStates(states, start, end, content);
  }

  private static boolean hasLetterOrDigit(String text, int start, int end) {
    for (int i = Math.max(0, start); i < Math.min(end, text.length()); i++) {
      if (Character.isLetterOrDigit(text.charAt(i))) return true;
    }
    return false;
  }

  /** The tokens' mean, summed and divided in float in token order (as langchain4j does). */
  private static float[] mean(float[][] states) {
    int n = states.length;
    float[] out = new float[states[0].length];
    for (float[] state : states) {
      for (int j = 0; j < out.length; j++) out[j] += state[j];
    }
    for (int j = 0; j < out.length; j++) out[j] /= n;
    return out;
  }

  /** Unit length with a float sum of squares (as langchain4j does), in place. */
  private static float[] normalize(float[] v) {
    float sumSquare = 0;
    for (float x : v) sumSquare += x * x;
    float norm = (float) Math.sqrt(sumSquare);
    for (int i = 0; i < v.length; i++) v[i] = v[i] / norm;
    return v;
  }
}
