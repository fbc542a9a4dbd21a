package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.WritableIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many equal vectors in one small segment (a document whose chunks all embed alike, written by
 * some other path than the ingestor, which keeps one of them) must not hide the other documents
 * from dense search: a small segment is scanned exactly, so the graph cannot trap the search among
 * the equal ones (cf. apache/lucene#13611).
 */
class DuplicateVectorsDenseSearchTest {
  @TempDir Path dir;

  private static float[] random(Random r, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) v[i] = (float) r.nextGaussian();
    return Embedder.normalize(v);
  }

  private static IndexEntry entry(String id, List<float[]> vectors) {
    StringBuilder text = new StringBuilder();
    List<Chunk> chunks = new ArrayList<>();
    List<ChunkVector> cv = new ArrayList<>();
    for (int c = 0; c < vectors.size(); c++) {
      int start = text.length();
      text.append("Passage ").append(c).append(" of ").append(id).append(". ");
      Span span = new Span(start, text.length());
      chunks.add(new Chunk(id + "#" + c, id, span, text.substring(start), "", c, 5));
      cv.add(new ChunkVector(c, span, vectors.get(c)));
    }
    Document d = new Document(id, "", "", Language.EN, Map.of(), text.toString());
    return new IndexEntry(d, "", "h-" + id, chunks, cv, "test-384", List.of());
  }

  @Test
  void twoHundredEqualVectorsDoNotHideTheNearestDocument() throws Exception {
    Random r = new Random(13611);
    List<float[]> docs = new ArrayList<>();
    for (int i = 0; i < 30; i++) docs.add(random(r, 384));
    float[] same = random(r, 384);
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      try (WritableIndex.Batch b = index.begin()) {
        for (int i = 0; i < docs.size(); i++) b.put(entry("doc" + i, List.of(docs.get(i))));
        List<float[]> copies = new ArrayList<>();
        for (int i = 0; i < 200; i++) copies.add(same.clone());
        b.put(entry("junk", copies));
        b.commit();
      }
      int right = 0;
      for (int i = 0; i < docs.size(); i++) {
        // The query is near document i (cosine about 0.9) and far from the junk vector.
        float[] q = docs.get(i).clone();
        float[] noise = random(r, 384);
        for (int j = 0; j < q.length; j++) q[j] += 0.45f * noise[j];
        List<Candidate> top = index.searchDense(Embedder.normalize(q), 5);
        if (!top.isEmpty() && top.get(0).doc().id().equals("doc" + i)) right++;
      }
      assertThat(right).isEqualTo(30);
    }
  }
}
