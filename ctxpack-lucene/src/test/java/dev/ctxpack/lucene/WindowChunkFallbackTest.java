package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.WritableIndex;
import dev.ctxpack.model.Candidate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dense search maps window hits to chunks through the windows' doc values; an index written before
 * windows carried them (the same documents without the field) answers the same, read from the
 * windows' stored chunk ids.
 */
class WindowChunkFallbackTest {
  @TempDir Path dir;

  @Test
  void windowsWithoutTheirDocValuesAreMappedFromStoredFieldsToTheSameChunks() throws Exception {
    Random r = new Random(5);
    List<IndexEntry> entries = new ArrayList<>();
    for (int i = 0; i < 60; i++) entries.add(RandomWindows.entry(i, 2, 2, 16, r));
    Path current = dir.resolve("current");
    try (LuceneIndex index = LuceneIndex.open(current)) {
      try (WritableIndex.Batch b = index.begin()) {
        for (IndexEntry e : entries) b.put(e);
        b.commit();
      }
    }
    // The same blocks written without the windows' doc values, with the same commit data.
    Path older = dir.resolve("older");
    try (var from = FSDirectory.open(current); var to = FSDirectory.open(older);
        var w = new IndexWriter(to, new IndexWriterConfig())) {
      for (IndexEntry e : entries) {
        var block = LuceneDocs.block(e);
        for (var d : block) d.removeFields(Fields.WINDOW_CHUNK);
        w.addDocuments(block);
      }
      w.setLiveCommitData(SegmentInfos.readLatestCommit(from).getUserData().entrySet());
      w.commit();
    }
    try (var d = FSDirectory.open(older); var reader = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : reader.leaves()) assertThat(leaf.reader().getSortedDocValues(Fields.WINDOW_CHUNK)).isNull();
    }
    try (LuceneIndex a = LuceneIndex.openExisting(current); LuceneIndex b = LuceneIndex.openExisting(older)) {
      Random q = new Random(11);
      for (int t = 0; t < 20; t++) {
        float[] v = new float[16];
        for (int k = 0; k < v.length; k++) v[k] = (float) q.nextGaussian();
        float[] query = Embedder.normalize(v);
        List<String> fromValues = a.searchDense(query, 10).stream().map(c -> c.chunk().id() + "=" + c.scores()).toList();
        List<String> fromStored = b.searchDense(query, 10).stream().map(c -> c.chunk().id() + "=" + c.scores()).toList();
        assertThat(fromValues).hasSize(10).containsExactlyElementsOf(fromStored);
      }
    }
  }
}
