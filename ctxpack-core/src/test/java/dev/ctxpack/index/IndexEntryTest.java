package dev.ctxpack.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An entry refuses vectors that do not fit its chunks before any index sees it. */
class IndexEntryTest {
  private static final String TEXT = "Alpha part of the chunk. Beta part of the chunk.";
  private static final Document DOC = new Document("w", "", "", Language.EN, Map.of(), TEXT);
  private static final Chunk WHOLE = new Chunk("w#0", "w", new Span(0, TEXT.length()), TEXT, "", 0, 12);
  private static final float[] V3 = Embedder.normalize(new float[] {1, 0, 0});
  private static final float[] V4 = Embedder.normalize(new float[] {1, 0, 0, 0});

  @Test
  void windowAndSentenceVectorsMustLieInsideTheirChunk() {
    assertThatThrownBy(() -> new IndexEntry(DOC, "", "h", List.of(WHOLE),
        List.of(new ChunkVector(0, new Span(0, TEXT.length() + 1), V3)), "e")).hasMessageContaining("outside chunk");
    assertThatThrownBy(() -> new IndexEntry(DOC, "", "h", List.of(WHOLE), List.of(new ChunkVector(0, WHOLE.span(), V3)), "e",
        List.of(new ChunkVector(0, new Span(0, TEXT.length() + 1), V3))))
        .hasMessageContaining("sentence").hasMessageContaining("outside chunk");
    assertThatThrownBy(() -> new IndexEntry(DOC, "", "h", List.of(WHOLE), List.of(), "e",
        List.of(new ChunkVector(1, WHOLE.span(), V3)))).hasMessageContaining("refers to chunk");
  }

  @Test
  void everyVectorHasOneDimensionAndAnEmbedder() {
    assertThatThrownBy(() -> new IndexEntry(DOC, "", "h", List.of(WHOLE), List.of(new ChunkVector(0, WHOLE.span(), V3)), "e",
        List.of(new ChunkVector(0, WHOLE.span(), V4)))).hasMessageContaining("dimensions");
    assertThatThrownBy(() -> new IndexEntry(DOC, "", "h", List.of(WHOLE), List.of(), null,
        List.of(new ChunkVector(0, WHOLE.span(), V3)))).hasMessageContaining("embedderId");
    IndexEntry sentencesOnly = new IndexEntry(DOC, "", "h", List.of(WHOLE), List.of(), "e",
        List.of(new ChunkVector(0, WHOLE.span(), V4)));
    assertThat(sentencesOnly.dimension()).isEqualTo(4);
    assertThat(sentencesOnly.hasVectors()).isTrue();
    assertThat(new IndexEntry(DOC, "", "h", List.of(WHOLE), List.of(), null).hasVectors()).isFalse();
    assertThat(new IndexEntry(DOC, "", "h", List.of(WHOLE), List.of(), "e", null).sentenceVectors()).isEmpty();
  }

  @Test
  void aChunkMustReproduceItsSpanOfTheDocument() {
    Chunk wrong = new Chunk("w#0", "w", new Span(1, TEXT.length()), TEXT.substring(0, TEXT.length() - 1), "", 0, 12);
    assertThatThrownBy(() -> new IndexEntry(DOC, "", "h", List.of(wrong), List.of(), null)).hasMessageContaining("reproduce");
    Chunk other = new Chunk("x#0", "x", WHOLE.span(), TEXT, "", 0, 12);
    assertThatThrownBy(() -> new IndexEntry(DOC, "", "h", List.of(other), List.of(), null)).hasMessageContaining("belongs to");
  }
}
