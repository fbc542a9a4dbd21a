package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.SearchableIndex.SentenceVector;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decoded chunk documents a request's reads share ({@link DecodedChunks}): a chunk read again is
 * not decoded again, a replaced document is never answered from its old version, and the memory is
 * bounded, least recently used out first.
 */
class DecodedChunksTest {
  @TempDir Path dir;

  private static IndexEntry entry(String text, float[] sentence) {
    Document d = new Document("d", "file:///d", "Minutes", Language.EN, Map.of(), text);
    List<Chunk> chunks = new TokenChunker(Tokenizers.defaultTokenizer(), 200, 0).chunk(d);
    List<ChunkVector> windows = new ArrayList<>();
    List<ChunkVector> sentences = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      windows.add(new ChunkVector(i, chunks.get(i).span(), Embedder.normalize(new float[] {1, 0, 0})));
      sentences.add(new ChunkVector(i, chunks.get(i).span(), sentence));
    }
    return new IndexEntry(d, "/src/d.txt", "h-" + text.hashCode(), chunks, windows, "test-emb", sentences);
  }

  @Test
  void aChunkReadAgainIsNotDecodedAgainAndAReplacedOneIsReadAsItIsNow() throws IOException {
    float[] oldVector = Embedder.normalize(new float[] {1, 0, 0});
    float[] newVector = Embedder.normalize(new float[] {0, 1, 0});
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(entry("The lighthouse keeper lit the lamp at dusk.", oldVector)), List.of());
      // As one request reads: BM25 hits, the vector hits' chunks, their marks, their sentence vectors.
      List<Candidate> sparse = index.searchSparse("lighthouse keeper", 5);
      List<Candidate> dense = index.searchDense(oldVector, 5);
      List<String> ids = sparse.stream().map(c -> c.chunk().id()).toList();
      assertThat(ids).containsExactly("d#0");
      assertThat(dense).extracting(c -> c.chunk().text()).containsExactly("The lighthouse keeper lit the lamp at dusk.");
      assertThat(index.chunkMarks(ids)).containsOnlyKeys("d#0");
      Map<String, List<SentenceVector>> sv = index.sentenceVectors(ids);
      assertThat(Embedder.dot(sv.get("d#0").get(0).vector(), oldVector)).isGreaterThan(0.99f);
      long[] counts = index.chunkReads();
      assertThat(counts[0]).isEqualTo(4); // four reads of the one chunk
      assertThat(counts[1]).isEqualTo(3); // decoded once

      // The same document id and chunk id, new text and vectors: a new segment, never the old entry.
      index.write(List.of(entry("The windmill miller ground the grain at dawn.", newVector)), List.of());
      assertThat(index.searchSparse("lighthouse keeper", 5)).isEmpty();
      assertThat(index.searchSparse("windmill miller", 5)).extracting(c -> c.chunk().text())
          .containsExactly("The windmill miller ground the grain at dawn.");
      assertThat(index.searchDense(oldVector, 5)).extracting(c -> c.chunk().text())
          .containsExactly("The windmill miller ground the grain at dawn.");
      assertThat(Embedder.dot(index.sentenceVectors(ids).get("d#0").get(0).vector(), newVector)).isGreaterThan(0.99f);
    }
  }

  @Test
  void theMemoryKeepsTheMostRecentlyUsedDocumentsUpToItsBound() throws IOException {
    int n = DecodedChunks.MAX_DOCS + 10;
    try (ByteBuffersDirectory d = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig())) {
        for (int i = 0; i < n; i++) {
          org.apache.lucene.document.Document doc = new org.apache.lucene.document.Document();
          doc.add(new StoredField("n", "doc " + i));
          doc.add(new Field("t", "x", org.apache.lucene.document.StringField.TYPE_NOT_STORED));
          w.addDocument(doc);
        }
      }
      try (DirectoryReader r = DirectoryReader.open(d)) {
        IndexSearcher s = new IndexSearcher(r);
        DecodedChunks chunks = new DecodedChunks();
        DecodedChunks.Reader docs = chunks.reader(s);
        for (int i = 0; i < n; i++) assertThat(docs.document(i).get("n")).isEqualTo("doc " + i);
        assertThat(chunks.counts()).containsExactly(n, 0);
        assertThat(docs.document(n - 1).get("n")).isEqualTo("doc " + (n - 1)); // kept
        assertThat(chunks.counts()).containsExactly(n + 1, 1);
        assertThat(docs.document(0).get("n")).isEqualTo("doc 0"); // pushed out by the last ones: decoded again
        assertThat(chunks.counts()).containsExactly(n + 2, 1);
        assertThat(docs.document(11).get("n")).isEqualTo("doc 11"); // kept
        assertThat(chunks.counts()).containsExactly(n + 3, 2);
        assertThat(docs.document(10).get("n")).isEqualTo("doc 10"); // the oldest, it made room for doc 0
        assertThat(chunks.counts()).containsExactly(n + 4, 2);
      }
    }
  }
}
