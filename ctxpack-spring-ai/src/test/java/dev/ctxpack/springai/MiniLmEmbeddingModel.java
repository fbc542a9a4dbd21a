package dev.ctxpack.springai;

import dev.ctxpack.embed.Embedder;
import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/** ctxpack's bundled MiniLM embedder as a Spring AI {@link EmbeddingModel}: runs locally, downloads nothing. */
final class MiniLmEmbeddingModel implements EmbeddingModel {
  private final Embedder embedder;

  MiniLmEmbeddingModel(Embedder embedder) {
    this.embedder = embedder;
  }

  @Override
  public EmbeddingResponse call(EmbeddingRequest request) {
    List<float[]> vs = embedder.embed(request.getInstructions());
    List<Embedding> out = new ArrayList<>(vs.size());
    for (int i = 0; i < vs.size(); i++) out.add(new Embedding(vs.get(i), i));
    return new EmbeddingResponse(out);
  }

  @Override
  public float[] embed(Document document) {
    return embedder.embed(List.of(document.getText())).get(0);
  }

  @Override
  public int dimensions() {
    return embedder.dimension();
  }
}
