package dev.ctxpack.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.token.Tokenizers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SentenceWindowTest {
  private static final String PT = "Primeira frase. O Dr. Silva chegou. Ele trouxe café. A reunião começou. Todos ouviram. Fim.";

  @Test
  void eachChunkIsOneSentenceAndAHitIsWidenedToItsNeighbours() {
    Document doc = new Document("d", "", "", Language.PT, Map.of(), PT);
    List<Chunk> chunks = new SentenceWindowChunker(Tokenizers.defaultTokenizer(), 300, 1).chunk(doc);
    assertThat(chunks).extracting(Chunk::text).containsExactly(
        "Primeira frase.", "O Dr. Silva chegou.", "Ele trouxe café.", "A reunião começou.", "Todos ouviram.", "Fim.");
    Span widened = SentenceWindow.expand(PT, Language.PT, chunks.get(2).span(), 1);
    assertThat(widened.of(PT)).isEqualTo("O Dr. Silva chegou. Ele trouxe café. A reunião começou.");
    assertThat(SentenceWindow.expand(PT, Language.PT, chunks.get(2).span(), 2).of(PT))
        .isEqualTo("Primeira frase. O Dr. Silva chegou. Ele trouxe café. A reunião começou. Todos ouviram.");
  }

  @Test
  void theWindowStopsAtTheEdgesOfTheDocument() {
    String en = "First one. Second one. Third one.";
    assertThat(SentenceWindow.expand(en, Language.EN, new Span(0, 10), 5).of(en)).isEqualTo(en);
    assertThat(SentenceWindow.expand(en, Language.EN, new Span(23, 33), 1).of(en)).isEqualTo("Second one. Third one.");
  }

  @Test
  void aWindowOfZeroOrAPieceOfALongSentenceKeepTheHitWithinTheResult() {
    String en = "Intro. " + "word ".repeat(50).trim() + ". Outro.";
    Span piece = new Span(12, 30);
    assertThat(SentenceWindow.expand(en, Language.EN, piece, 0)).isEqualTo(piece);
    Span widened = SentenceWindow.expand(en, Language.EN, piece, 1);
    assertThat(widened.of(en)).isEqualTo(en);
  }

  @Test
  void aSpanOutsideTheTextOrANegativeWindowIsRefused() {
    assertThatThrownBy(() -> SentenceWindow.expand("short", Language.EN, new Span(0, 10), 1))
        .hasMessageContaining("outside the text");
    assertThatThrownBy(() -> SentenceWindow.expand("short", Language.EN, new Span(0, 1), -1))
        .hasMessageContaining("window must be >= 0");
  }
}
