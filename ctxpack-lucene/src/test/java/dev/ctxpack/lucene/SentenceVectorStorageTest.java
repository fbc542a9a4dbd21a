package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sentence vectors stored quantised on their chunk documents and read back by chunk id. */
class SentenceVectorStorageTest {
  private static final int DIM = 384;
  @TempDir Path dir;
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 60, 0.15);
  private final SentenceSegmenter segmenter = new SentenceSegmenter();

  private static final String TEXT = "The committee met on Monday. It approved the budget for the new library. "
      + "Dr. Silva presented the plans in detail! Were there objections? None were raised. "
      + "Construction starts in spring and should take two years. The library will hold 40,000 books. "
      + "A café on the ground floor is planned as well. Parking remains a concern for residents nearby. "
      + "The next meeting is in March.";

  /** Gaussian vectors, unit length: like an embedder's, without its cost. */
  private static float[] randomUnit(Random r) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) v[i] = (float) r.nextGaussian();
    return Embedder.normalize(v);
  }

  /** An entry whose chunks each have one window vector and one vector per sentence of the chunk. */
  private IndexEntry entry(String id, String text, long seed, boolean withSentences) {
    Document d = new Document(id, "file:///" + id, "Minutes", Language.EN, Map.of(), text);
    List<Chunk> chunks = chunker.chunk(d);
    Random r = new Random(seed);
    List<ChunkVector> windows = new ArrayList<>();
    List<ChunkVector> sentences = new ArrayList<>();
    for (int c = 0; c < chunks.size(); c++) {
      Chunk chunk = chunks.get(c);
      windows.add(new ChunkVector(c, chunk.span(), randomUnit(r)));
      if (!withSentences) continue;
      for (Span s : segmenter.split(chunk.text(), Language.EN)) {
        Span inDoc = new Span(chunk.span().start() + s.start(), chunk.span().start() + s.end());
        sentences.add(new ChunkVector(c, inDoc, randomUnit(r)));
      }
    }
    return new IndexEntry(d, "/src/" + id, "h" + seed, chunks, windows, "test-emb", sentences);
  }

  private static List<String> chunkIds(IndexEntry e) {
    return e.chunks().stream().map(Chunk::id).toList();
  }

  @Test
  void storedVectorsComeBackPerChunkInSentenceOrderCloseToTheOriginalsAndUnitLength() throws IOException {
    IndexEntry e = entry("d1", TEXT, 1, true);
    assertThat(e.chunks()).hasSizeGreaterThan(1);
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(e), List.of());
      Map<String, List<Index.SentenceVector>> got = index.sentenceVectors(chunkIds(e));
      assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(chunkIds(e));
      for (int c = 0; c < e.chunks().size(); c++) {
        Chunk chunk = e.chunks().get(c);
        int ordinal = c;
        List<ChunkVector> written = e.sentenceVectors().stream().filter(v -> v.chunk() == ordinal).toList();
        List<Index.SentenceVector> read = got.get(chunk.id());
        // The spans are the segmenter's sentences of the chunk, in document offsets and in order.
        List<Span> expected = segmenter.split(chunk.text(), Language.EN).stream()
            .map(s -> new Span(chunk.span().start() + s.start(), chunk.span().start() + s.end())).toList();
        assertThat(read).extracting(Index.SentenceVector::span).containsExactlyElementsOf(expected);
        assertThat(read).extracting(Index.SentenceVector::docId).containsOnly("d1");
        for (int i = 0; i < read.size(); i++) {
          float[] v = read.get(i).vector();
          assertThat(Embedder.dot(v, v)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
          assertThat(Embedder.dot(v, written.get(i).vector())).isGreaterThan(0.99);
        }
      }
    }
  }

  @Test
  void onlyTheRequestedChunksThatHaveSentenceVectorsAreReturned() throws IOException {
    IndexEntry with = entry("with", TEXT, 2, true);
    IndexEntry without = entry("without", TEXT, 3, false);
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(with, without), List.of());
      String first = with.chunks().get(0).id();
      var got = index.sentenceVectors(List.of(first, first, without.chunks().get(0).id(), "missing#0"));
      assertThat(got.keySet()).containsExactly(first);
      assertThat(index.sentenceVectors(List.of())).isEmpty();
      // The window vectors are untouched by the sentence vectors stored beside them.
      assertThat(index.stats().vectors()).isEqualTo(with.vectors().size() + without.vectors().size());
      assertThat(index.chunkVectors(List.of(first)).get(first))
          .containsExactly(with.vectors().get(0).vector(), org.assertj.core.data.Offset.offset(1e-6f));
    }
  }

  @Test
  void replacingOrDeletingADocumentReplacesOrDeletesItsSentenceVectors() throws IOException {
    IndexEntry v1 = entry("d", TEXT, 4, true);
    IndexEntry v2 = entry("d", TEXT, 5, true);
    List<String> ids = chunkIds(v1);
    assertThat(chunkIds(v2)).isEqualTo(ids);
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(v1), List.of());
      index.write(List.of(v2), List.of());
      var got = index.sentenceVectors(ids);
      assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(ids);
      List<Index.SentenceVector> first = got.get(ids.get(0));
      assertThat(first).hasSize((int) v2.sentenceVectors().stream().filter(v -> v.chunk() == 0).count());
      assertThat(Embedder.dot(first.get(0).vector(), v2.sentenceVectors().get(0).vector())).isGreaterThan(0.99);

      index.write(List.of(entry("d", TEXT, 6, false)), List.of());
      assertThat(index.sentenceVectors(ids)).isEmpty();

      index.write(List.of(entry("d", TEXT, 7, true)), List.of());
      assertThat(index.sentenceVectors(ids)).hasSize(ids.size());
      assertThat(index.remove(List.of("d"))).isEqualTo(1);
      assertThat(index.sentenceVectors(ids)).isEmpty();
    }
  }

  @Test
  void anIndexWrittenWithoutSentenceVectorsReturnsNone() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      assertThat(index.sentenceVectors(List.of("d#0"))).isEmpty();
      IndexEntry e = entry("old", TEXT, 8, false);
      index.write(List.of(e), List.of());
      assertThat(index.sentenceVectors(chunkIds(e))).isEmpty();
    }
    // Reopened, as an index from before sentence vectors would be.
    try (LuceneIndex index = LuceneIndex.openExisting(dir)) {
      assertThat(index.sentenceVectors(List.of("old#0"))).isEmpty();
      assertThat(index.stats().chunks()).isGreaterThan(0);
    }
  }

  @Test
  void sentenceVectorsAloneNameTheirEmbedderAndMustMatchTheIndexs() throws IOException {
    IndexEntry e = entry("d", TEXT, 9, true);
    IndexEntry sentencesOnly = new IndexEntry(e.doc(), e.sourcePath(), e.contentHash(), e.chunks(), List.of(),
        "other-emb", e.sentenceVectors());
    assertThat(sentencesOnly.dimension()).isEqualTo(DIM);
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(entry("a", TEXT, 10, true)), List.of());
      assertThatThrownBy(() -> index.write(List.of(sentencesOnly), List.of())).hasMessageContaining("other-emb");
    }
  }

  @Test
  void anEntryRejectsSentenceVectorsOutsideTheirChunkOrOfAnotherDimension() {
    IndexEntry e = entry("d", TEXT, 11, true);
    Chunk first = e.chunks().get(0);
    float[] small = Embedder.normalize(new float[] {1, 0, 0});
    assertThatThrownBy(() -> new IndexEntry(e.doc(), "", "h", e.chunks(), e.vectors(), "test-emb",
        List.of(new ChunkVector(0, new Span(first.span().start(), first.span().end() + 1), e.vectors().get(0).vector()))))
        .hasMessageContaining("sentence").hasMessageContaining("outside chunk");
    assertThatThrownBy(() -> new IndexEntry(e.doc(), "", "h", e.chunks(), e.vectors(), "test-emb",
        List.of(new ChunkVector(0, first.span(), small)))).hasMessageContaining("dimensions");
    assertThatThrownBy(() -> new IndexEntry(e.doc(), "", "h", e.chunks(), List.of(), null, e.sentenceVectors()))
        .hasMessageContaining("embedderId");
    assertThatThrownBy(() -> new IndexEntry(e.doc(), "", "h", e.chunks(), List.of(), "x",
        List.of(new ChunkVector(e.chunks().size(), first.span(), small)))).hasMessageContaining("refers to chunk");
    assertThat(new IndexEntry(e.doc(), "", "h", e.chunks(), e.vectors(), "test-emb").sentenceVectors()).isEmpty();
    assertThat(new IndexEntry(e.doc(), "", "h", e.chunks(), e.vectors(), "test-emb", null).sentenceVectors()).isEmpty();
  }
}
