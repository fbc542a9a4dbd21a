package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Signal;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuceneIndexTest {
  @TempDir Path dir;
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 60, 0.15);

  private IndexEntry entry(String id, Language lang, String title, String text, float[]... vectors) {
    Document d = new Document(id, "file:///" + id, title, lang, Map.of("date", "2025-01-0" + (id.length() % 9 + 1)), text);
    List<Chunk> chunks = chunker.chunk(d);
    List<float[]> vs = vectors.length == 0 ? List.of() : chunks.stream().map(c -> vectors[0].clone()).toList();
    return IndexEntry.withChunkVectors(d, "/src/" + id + ".txt", "hash-" + text.hashCode(), chunks, vs, vs.isEmpty() ? null : "test-emb");
  }

  private static float[] unit(float... v) {
    return Embedder.normalize(v);
  }

  @Test
  void bm25FindsEnglishAndPortugueseThroughTheirStemmers() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(
          entry("en1", Language.EN, "Cats", "Cats are running across the gardens of the city every morning."),
          entry("en2", Language.EN, "Markets", "Stock markets fell sharply after the announcement."),
          entry("pt1", Language.PT, "Universidades", "As universidades públicas oferecem cursos gratuitos de graduação."),
          entry("pt2", Language.PT, "Clima", "O clima do cerrado é quente e seco durante o inverno.")), List.of());
      List<Candidate> en = index.searchSparse("run in a garden", 5);
      assertThat(en).isNotEmpty();
      assertThat(en.get(0).doc().id()).isEqualTo("en1");
      assertThat(en.get(0).scores().get(Signal.BM25)).isPresent();
      List<Candidate> pt = index.searchSparse("universidade pública", 5);
      assertThat(pt.get(0).doc().id()).isEqualTo("pt1");
      assertThat(pt.get(0).doc().language()).isEqualTo(Language.PT);
      assertThat(pt.get(0).doc().date()).isNotEmpty();
    }
  }

  @Test
  void chunksComeBackVerbatimWithTheirOffsets() throws IOException {
    String text = "First sentence here. Second one follows. " + "Filler words make this longer. ".repeat(20);
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(entry("d1", Language.EN, "T", text)), List.of());
      Document stored = index.document("d1").orElseThrow();
      assertThat(stored.text()).isEqualTo(text);
      for (Candidate c : index.searchSparse("filler sentence", 50)) {
        assertThat(stored.text().substring(c.chunk().span().start(), c.chunk().span().end())).isEqualTo(c.chunk().text());
      }
      assertThat(index.find("d1").orElseThrow().chunks()).isGreaterThan(1);
    }
  }

  @Test
  void denseSearchRanksByCosineAndReportsIt() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(
          entry("a", Language.EN, "", "alpha text", unit(1, 0, 0)),
          entry("b", Language.EN, "", "beta text", unit(0.8f, 0.6f, 0)),
          entry("c", Language.EN, "", "gamma text", unit(0, 0, 1))), List.of());
      List<Candidate> r = index.searchDense(unit(1, 0, 0), 3);
      assertThat(r).extracting(c -> c.doc().id()).containsExactly("a", "b", "c");
      assertThat(r.get(0).scores().getOr(Signal.DENSE, -9)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
      assertThat(r.get(1).scores().getOr(Signal.DENSE, -9)).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-5));
      assertThat(index.stats().embedderId()).contains("test-emb");
      assertThat(index.stats().dimension()).isEqualTo(3);
    }
  }

  @Test
  void rewritingADocumentReplacesAllItsChunks() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(entry("d", Language.EN, "", "Old words. ".repeat(100))), List.of());
      int before = index.stats().chunks();
      index.write(List.of(entry("d", Language.EN, "", "New text only.")), List.of());
      assertThat(before).isGreaterThan(1);
      assertThat(index.stats().chunks()).isEqualTo(1);
      assertThat(index.stats().documents()).isEqualTo(1);
      assertThat(index.searchSparse("old words", 10)).isEmpty();
    }
  }

  @Test
  void removeDeletesRecordAndChunks() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(entry("x", Language.EN, "", "keep me"), entry("y", Language.EN, "", "remove me")), List.of());
      assertThat(index.remove(List.of("y", "nope"))).isEqualTo(1);
      assertThat(index.find("y")).isEmpty();
      assertThat(index.stats().chunks()).isEqualTo(1);
      assertThat(index.searchSparse("remove", 10)).isEmpty();
    }
  }

  @Test
  void vectorsOfAnotherEmbedderAreRejectedAndNothingOfTheBatchIsWritten() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(entry("a", Language.EN, "", "alpha", unit(1, 0, 0))), List.of());
      IndexEntry ok = entry("b", Language.EN, "", "beta");
      Document d = new Document("c", "", "", Language.EN, Map.of(), "gamma");
      IndexEntry other = IndexEntry.withChunkVectors(d, "", "h", chunker.chunk(d), List.of(unit(1, 0, 0, 0)), "other-emb");
      assertThatThrownBy(() -> index.write(List.of(ok, other), List.of()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("test-emb")
          .hasMessageContaining("other-emb");
      assertThat(index.find("b")).isEmpty();
      assertThat(index.stats().documents()).isEqualTo(1);
      // The index still takes writes afterwards.
      index.write(List.of(ok), List.of());
      assertThat(index.find("b")).isPresent();
    }
  }

  @Test
  void anUncommittedBatchIsDiscardedOnClose() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      try (Index.Batch b = index.begin()) {
        b.put(entry("lost", Language.EN, "", "never committed"));
      }
      assertThat(index.find("lost")).isEmpty();
    }
    try (LuceneIndex reopened = LuceneIndex.openExisting(dir)) {
      assertThat(reopened.find("lost")).isEmpty();
    } catch (IOException noIndexYet) {
      assertThat(noIndexYet).hasMessageContaining("no index at");
    }
  }

  @Test
  void committedDataSurvivesReopening() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(entry("p", Language.PT, "Título", "Um texto em português sobre bibliotecas.")), List.of());
    }
    try (LuceneIndex index = LuceneIndex.openExisting(dir)) {
      assertThat(index.find("p").orElseThrow().title()).isEqualTo("Título");
      assertThat(index.findBySourcePath("/src/")).extracting(Index.StoredDoc::id).containsExactly("p");
      assertThat(index.searchSparse("biblioteca", 3)).hasSize(1);
    }
  }

  @Test
  void openingAMissingIndexNamesThePath() {
    assertThatThrownBy(() -> LuceneIndex.openExisting(dir.resolve("nothing-here")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("nothing-here")
        .hasMessageContaining("ctxpack ingest");
  }

  @Test
  void queriesWithOnlyStopWordsOrSyntaxCharactersDoNotFail() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(entry("a", Language.EN, "", "some content")), List.of());
      assertThat(index.searchSparse("the of and", 5)).isEmpty();
      assertThat(index.searchSparse("content AND (\"unbalanced [ * ? ~ ^ : \\", 5)).hasSize(1);
      String huge = "content " + "word ".repeat(5000);
      assertThat(index.searchSparse(huge, 5)).hasSize(1);
    }
  }

  @Test
  void sameQuerySameResults() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      for (int i = 0; i < 30; i++) {
        index.write(List.of(entry("d" + i, Language.EN, "", "same words repeated in every document " + (i % 3))), List.of());
      }
      List<String> first = index.searchSparse("same words", 10).stream().map(c -> c.chunk().id()).toList();
      for (int i = 0; i < 5; i++) {
        assertThat(index.searchSparse("same words", 10).stream().map(c -> c.chunk().id()).toList()).isEqualTo(first);
      }
    }
  }

  @Test
  void putAllWritesLargeBatchesConcurrentlyAndStillRollsBackAsAWhole() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      List<IndexEntry> many = new java.util.ArrayList<>();
      for (int i = 0; i < 150; i++) many.add(entry("m" + i, Language.EN, "", "Entry number " + i + " text.", unit(1, i, 0)));
      try (Index.Batch b = index.begin()) {
        b.putAll(many);
        b.commit();
      }
      assertThat(index.stats().documents()).isEqualTo(150);
      assertThat(index.stats().vectors()).isEqualTo(150);
      List<IndexEntry> mixed = new java.util.ArrayList<>();
      for (int i = 0; i < 100; i++) mixed.add(entry("n" + i, Language.EN, "", "Other " + i, unit(1, 0, i)));
      Document d = new Document("bad", "", "", Language.EN, Map.of(), "bad vectors");
      mixed.add(IndexEntry.withChunkVectors(d, "", "h", chunker.chunk(d), List.of(unit(1, 0)), "test-emb"));
      try (Index.Batch b = index.begin()) {
        assertThatThrownBy(() -> b.putAll(mixed)).hasMessageContaining("dims");
      }
      assertThat(index.stats().documents()).isEqualTo(150);
      assertThat(index.find("n0")).isEmpty();
    }
  }

  @Test
  void aChunkWithSeveralWindowVectorsIsFoundByAnyOfThemOnceWithItsBestScore() throws IOException {
    String text = "Alpha part of the chunk. Beta part of the chunk.";
    Document d = new Document("w", "", "", Language.EN, Map.of(), text);
    Chunk whole = new Chunk("w#0", "w", new dev.ctxpack.model.Span(0, text.length()), text, "", 0, 12);
    List<dev.ctxpack.index.ChunkVector> windows = List.of(
        new dev.ctxpack.index.ChunkVector(0, new dev.ctxpack.model.Span(0, 24), unit(1, 0, 0)),
        new dev.ctxpack.index.ChunkVector(0, new dev.ctxpack.model.Span(25, text.length()), unit(0, 1, 0)));
    IndexEntry e = new IndexEntry(d, "", "h", List.of(whole), windows, "test-emb");
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(e, entry("other", Language.EN, "", "unrelated", unit(0.6f, 0.8f, 0))), List.of());
      assertThat(index.stats().vectors()).isEqualTo(3);
      List<Candidate> byBeta = index.searchDense(unit(0, 1, 0), 5);
      assertThat(byBeta).extracting(c -> c.chunk().id()).containsExactly("w#0", "other#0");
      assertThat(byBeta.get(0).scores().getOr(Signal.DENSE, 0)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
      assertThat(byBeta.get(0).chunk().text()).isEqualTo(text);
      List<Candidate> byAlpha = index.searchDense(unit(1, 0, 0), 1);
      assertThat(byAlpha).extracting(c -> c.chunk().id()).containsExactly("w#0");
    }
    assertThatThrownBy(() -> new IndexEntry(d, "", "h", List.of(whole),
        List.of(new dev.ctxpack.index.ChunkVector(0, new dev.ctxpack.model.Span(0, text.length() + 1), unit(1, 0, 0))),
        "test-emb")).hasMessageContaining("outside chunk");
  }

  @Test
  void chunkVectorsAreTheNormalisedMeanOfTheirWindowsAndAbsentWithoutAny() throws IOException {
    String text = "Alpha part of the chunk. Beta part of the chunk.";
    Document d = new Document("w", "", "", Language.EN, Map.of(), text);
    Chunk whole = new Chunk("w#0", "w", new dev.ctxpack.model.Span(0, text.length()), text, "", 0, 12);
    List<dev.ctxpack.index.ChunkVector> windows = List.of(
        new dev.ctxpack.index.ChunkVector(0, new dev.ctxpack.model.Span(0, 24), unit(1, 0, 0)),
        new dev.ctxpack.index.ChunkVector(0, new dev.ctxpack.model.Span(25, text.length()), unit(0, 1, 0)));
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      index.write(List.of(new IndexEntry(d, "", "h", List.of(whole), windows, "test-emb"),
          entry("other", Language.EN, "", "unrelated", unit(0, 0, 1))), List.of());
      index.write(List.of(entry("plain", Language.EN, "", "no vectors here")), List.of());
      var v = index.chunkVectors(List.of("w#0", "other#0", "plain#0", "missing#3"));
      assertThat(v.keySet()).containsExactlyInAnyOrder("w#0", "other#0");
      float h = (float) Math.sqrt(0.5);
      assertThat(v.get("w#0")).containsExactly(new float[] {h, h, 0}, org.assertj.core.data.Offset.offset(1e-6f));
      assertThat(v.get("other#0")).containsExactly(new float[] {0, 0, 1}, org.assertj.core.data.Offset.offset(1e-6f));
      assertThat(index.chunkVectors(List.of())).isEmpty();
    }
  }

  @Test
  void denseSearchOnAnIndexWithoutVectorsFindsNothing() throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      assertThat(index.searchDense(unit(1, 0, 0), 5)).isEmpty();
      index.write(List.of(entry("plain", Language.EN, "", "no vectors here")), List.of());
      assertThat(index.searchDense(unit(1, 0, 0), 5)).isEmpty();
    }
  }
}
