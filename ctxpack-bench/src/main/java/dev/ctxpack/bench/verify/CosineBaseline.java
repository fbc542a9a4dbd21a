package dev.ctxpack.bench.verify;

import dev.ctxpack.embed.Embedder;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedding-sentence baseline: the cosine of the claim's vector with each sentence's (one
 * embedder for every language, as LlamaIndex's {@code SentenceEmbeddingOptimizer} would use it);
 * vectors are unit length, so the dot product is the cosine. Wrap the embedder in a {@code
 * CachingEmbedder}: the same source sentences come back request after request.
 */
public final class CosineBaseline extends SentenceBaseline {
  private final Embedder embedder;

  public CosineBaseline(Embedder embedder, double threshold) {
    super("cosine", threshold);
    this.embedder = embedder;
  }

  @Override
  protected double[] scores(String claim, List<SourceSentence> sentences) {
    List<String> texts = new ArrayList<>(sentences.size() + 1);
    texts.add(claim);
    for (SourceSentence s : sentences) texts.add(s.text());
    List<float[]> v = embedder.embed(texts);
    double[] out = new double[sentences.size()];
    for (int i = 0; i < out.length; i++) out[i] = Embedder.dot(v.get(0), v.get(i + 1));
    return out;
  }
}
