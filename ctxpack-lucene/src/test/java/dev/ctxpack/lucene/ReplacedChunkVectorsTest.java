package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replaced document's old Lucene documents stay in their segment, marked deleted, until a merge:
 * reads by chunk id must skip them. Written here without merges, so they are surely still there.
 */
class ReplacedChunkVectorsTest {
  @TempDir Path dir;
  private static final String TEXT = "Alpha text. Beta text.";

  private static IndexEntry entry(String id, float[] window, float[] sentence) {
    Document d = new Document(id, "", "", Language.EN, Map.of(), TEXT);
    Chunk whole = new Chunk(id + "#0", id, new Span(0, TEXT.length()), TEXT, "", 0, 6);
    return new IndexEntry(d, "", "h", List.of(whole), List.of(new ChunkVector(0, whole.span(), window)), "e",
        List.of(new ChunkVector(0, new Span(0, 11), sentence)));
  }

  private static float[] unit(float... v) {
    return Embedder.normalize(v);
  }

  @Test
  void vectorsOfAReplacedVersionStillInItsSegmentAreNotRead() throws IOException {
    try (var directory = FSDirectory.open(dir);
        var w = new IndexWriter(directory, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (IndexEntry e : List.of(entry("keep", unit(0, 0, 1), unit(0, 0, 1)), entry("d", unit(1, 0, 0), unit(1, 0, 0)))) {
        w.updateDocuments(new Term(Fields.DOC_KEY, e.doc().id()), LuceneDocs.block(e));
      }
      w.commit();
      IndexEntry v2 = entry("d", unit(0, 1, 0), unit(0, 1, 0));
      w.updateDocuments(new Term(Fields.DOC_KEY, "d"), LuceneDocs.block(v2));
      w.commit();
    }
    try (LuceneIndex index = LuceneIndex.openExisting(dir)) {
      assertThat(index.chunkVectors(List.of("d#0")).get("d#0"))
          .containsExactly(new float[] {0, 1, 0}, org.assertj.core.data.Offset.offset(1e-6f));
      var sv = index.sentenceVectors(List.of("d#0")).get("d#0");
      assertThat(sv).hasSize(1);
      assertThat(sv.get(0).vector()).containsExactly(new float[] {0, 1, 0}, org.assertj.core.data.Offset.offset(1e-6f));
    }
  }
}
