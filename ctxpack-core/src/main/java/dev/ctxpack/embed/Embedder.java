package dev.ctxpack.embed;

import java.util.List;

/**
 * Turns texts into dense vectors. Vectors are unit length, so a dot product is their cosine.
 * Implementations are thread-safe and deterministic for the same input. {@link #id()} names the
 * model so an index can refuse vectors from another one.
 */
public interface Embedder {

  /** Identifies the model and its pooling, e.g. {@code all-minilm-l6-v2-q}. */
  String id();

  /** Length of every vector returned. */
  int dimension();

  /**
   * The languages the model was trained for; empty when unknown or multilingual. Hybrid retrieval
   * does not use the dense signal for a query in a language outside this set.
   */
  default java.util.Set<dev.ctxpack.model.Language> languages() {
    return java.util.Set.of();
  }

  /** One unit-length vector per text, in order. */
  List<float[]> embed(List<String> texts);

  /**
   * {@code text}'s vector. Within a request ({@link RequestVectors#open()}) the model runs once
   * per text: a second call for the same text returns a copy of the first vector.
   */
  default float[] embed(String text) {
    return RequestVectors.vector(this, text, () -> embed(List.of(text)).get(0));
  }

  /**
   * How much of {@code text} the model can read, in [0, 1]: the share of the word pieces its
   * tokenizer cuts the text into that are not the unknown piece ({@code [UNK]}). A word longer than
   * the tokenizer's word limit (a minified asset, a hash dump) or a run of characters missing from
   * its vocabulary is one unknown piece; texts made mostly of them all get about the same vector,
   * one that says nothing of the text. 1 when the embedder cannot tell (the default: no tokenizer
   * to ask, e.g. a remote service) or the text has no word pieces.
   */
  default double readableShare(String text) {
    return 1.0;
  }

  /**
   * {@code text}'s contextual token vectors from one pass of the model, or {@code null} when this
   * embedder has none (the default: a remote service, a model whose token states nothing was fitted
   * on). A text longer than the model reads is cut at the model's limit: tokens past it are absent.
   * The sentence scorer's token-match features read these ({@code SentenceFeatures}).
   */
  default TokenStates tokenStates(String text) {
    return null;
  }

  /**
   * {@code embedder}'s vectors of {@code texts} in one batch; if the model rejects a text (one it
   * reduces to nothing, such as zero-width characters only), one text at a time, the rejected ones
   * left without a vector ({@code null}) rather than failing the others.
   */
  static List<float[]> embedLeniently(Embedder embedder, List<String> texts) {
    try {
      return embedder.embed(texts);
    } catch (IllegalArgumentException rejected) {
      List<float[]> out = new java.util.ArrayList<>(texts.size());
      for (String t : texts) {
        try {
          out.add(embedder.embed(List.of(t)).get(0));
        } catch (IllegalArgumentException e) {
          out.add(null);
        }
      }
      return out;
    }
  }

  /** Scales {@code v} to unit length in place (a zero vector stays zero) and returns it. */
  static float[] normalize(float[] v) {
    double sum = 0;
    for (float x : v) sum += (double) x * x;
    if (sum == 0) return v;
    float inv = (float) (1.0 / Math.sqrt(sum));
    for (int i = 0; i < v.length; i++) v[i] *= inv;
    return v;
  }

  static double dot(float[] a, float[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException("vector dimensions differ: " + a.length + " vs " + b.length);
    }
    double s = 0;
    for (int i = 0; i < a.length; i++) s += (double) a[i] * b[i];
    return s;
  }
}
