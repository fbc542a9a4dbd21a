package dev.ctxpack.bench.compress;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceScorer;
import dev.ctxpack.embed.Embedder;
import java.util.ArrayList;
import java.util.List;

/**
 * The cosine of each sentence's vector with the query's (LlamaIndex's {@code
 * SentenceEmbeddingOptimizer}): one embedder for every language, no language check, so the
 * baseline is what that optimizer does with an English model on any text. Vectors are unit length,
 * so the dot product is the cosine.
 */
public final class EmbeddingSentenceScorer implements SentenceScorer {
  private final Embedder embedder;

  public EmbeddingSentenceScorer(Embedder embedder) {
    this.embedder = embedder;
  }

  @Override
  public String id() {
    return "embedding(" + embedder.id() + ")";
  }

  @Override
  public double[] score(String query, List<CompressInput> inputs, List<Sentence> sentences) {
    if (sentences.isEmpty()) return new double[0];
    float[] q = embedder.embed(query);
    List<String> texts = new ArrayList<>(sentences.size());
    for (Sentence s : sentences) texts.add(s.text());
    List<float[]> vs = embedder.embed(texts);
    double[] out = new double[sentences.size()];
    for (int i = 0; i < out.length; i++) out[i] = Embedder.dot(q, vs.get(i));
    return out;
  }
}
