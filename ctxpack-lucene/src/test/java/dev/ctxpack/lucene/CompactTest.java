package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.WritableIndex;
import dev.ctxpack.model.Candidate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WritableIndex.Batch#compact()} on the Lucene index: a load committed in slices becomes one
 * segment, a small write into a large index merges nothing, and two builds of the same load give
 * the same dense results, score for score (one graph, built the same way).
 */
class CompactTest {
  @TempDir Path dir;

  private static final int DIM = 32;

  /** Writes {@code n} documents (seed 7) committing every {@code every}, then compacts; returns what compact said. */
  private static boolean load(LuceneIndex index, int from, int n, int every) throws IOException {
    Random r = new Random(7L * 1_000_003 + from);
    try (WritableIndex.Batch b = index.begin()) {
      for (int i = from; i < from + n; i++) {
        b.put(RandomWindows.entry(i, 3, 1, DIM, r));
        if ((i - from) % every == every - 1) b.commit();
      }
      b.commit();
      return b.compact();
    }
  }

  private static int segments(Path path) throws IOException {
    try (var d = FSDirectory.open(path)) {
      return SegmentInfos.readLatestCommit(d).size();
    }
  }

  @Test
  void aLoadCommittedInSlicesBecomesOneSegmentAndASmallWriteLaterMergesNothing() throws IOException {
    Path path = dir.resolve("index");
    try (LuceneIndex index = LuceneIndex.open(path)) {
      assertThat(load(index, 0, 400, 50)).isTrue();
      assertThat(segments(path)).isEqualTo(1);
      assertThat(index.stats().documents()).isEqualTo(400);

      // 10 documents into 400: a twentieth of the bytes, not worth rewriting the rest.
      assertThat(load(index, 400, 10, 5)).isFalse();
      assertThat(segments(path)).isGreaterThan(1);
      assertThat(index.find("doc-405")).isPresent();
    }
  }

  @Test
  void twoBuildsOfTheSameLoadGiveTheSameDenseResults() throws IOException {
    List<List<String>> runs = new ArrayList<>();
    for (String name : List.of("a", "b")) {
      try (LuceneIndex index = LuceneIndex.open(dir.resolve(name))) {
        load(index, 0, 1_500, 200); // 4,500 windows: one graph searched, not scanned
        Random q = new Random(99);
        List<String> out = new ArrayList<>();
        for (int t = 0; t < 40; t++) {
          float[] v = new float[DIM];
          for (int k = 0; k < DIM; k++) v[k] = (float) q.nextGaussian();
          for (Candidate c : index.searchDense(Embedder.normalize(v), 10)) {
            out.add(c.chunk().id() + "=" + c.scores());
          }
        }
        runs.add(out);
      }
    }
    assertThat(runs.get(1)).containsExactlyElementsOf(runs.get(0));
  }
}
