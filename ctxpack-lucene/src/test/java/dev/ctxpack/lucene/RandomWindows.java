package dev.ctxpack.lucene;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Test entries: document {@code doc-I} of short chunks, each with random unit window vectors. */
final class RandomWindows {
  private RandomWindows() {}

  static IndexEntry entry(int i, int chunks, int windowsPerChunk, int dim, Random r) {
    String id = "doc-" + i;
    StringBuilder text = new StringBuilder();
    List<Chunk> cs = new ArrayList<>();
    List<ChunkVector> windows = new ArrayList<>();
    for (int c = 0; c < chunks; c++) {
      int start = text.length();
      text.append("Passage ").append(c).append(" of record ").append(i).append(" about gardens. ");
      Span span = new Span(start, text.length());
      cs.add(new Chunk(id + "#" + c, id, span, text.substring(start), "", c, 6));
      for (int w = 0; w < windowsPerChunk; w++) {
        float[] v = new float[dim];
        for (int k = 0; k < dim; k++) v[k] = (float) r.nextGaussian();
        windows.add(new ChunkVector(c, span, Embedder.normalize(v)));
      }
    }
    Document d = new Document(id, "", "", Language.EN, Map.of(), text.toString());
    return new IndexEntry(d, "", "h-" + id, cs, windows, "test-" + dim, List.of());
  }
}
