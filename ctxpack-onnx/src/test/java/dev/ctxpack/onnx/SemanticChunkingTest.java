package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.RecursiveChunker;
import dev.ctxpack.chunk.SemanticChunker;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The semantic chunker with the real MiniLM model: breakpoints where the topic changes. */
class SemanticChunkingTest {
  private static final Tokenizer TOKENIZER = Tokenizers.defaultTokenizer();

  /** Three topics, no paragraph breaks between them, words hardly shared across them. */
  private static final String[] TOPICS = {
    "Volcanoes form where magma rises through the crust. Eruptions can throw ash high into the atmosphere. "
        + "Lava flows destroy roads and villages in their path. Geologists monitor earthquakes beneath the mountain.",
    "The orchestra tuned their violins before the concert. The conductor raised his baton and the symphony began. "
        + "A cellist played the slow movement beautifully. The audience applauded after the final chord.",
    "Bread dough needs flour, water, salt and yeast. Knead the dough until it becomes smooth and elastic. "
        + "Let it rise for two hours in a warm kitchen. Bake the loaf until the crust is golden brown.",
  };

  @Test
  void chunksEndWhereTheTopicChangesAndNeverExceedTheMaximum() {
    String text = String.join(" ", TOPICS);
    Document doc = new Document("d", "", "", Language.EN, Map.of(), text);
    SemanticChunker chunker = new SemanticChunker(TOKENIZER, MiniLmEmbedderTest.EMBEDDER, 10, 300, 1, 80);
    List<Chunk> chunks = chunker.chunk(doc);
    assertThat(chunks).extracting(Chunk::text).containsExactly(TOPICS);
    for (Chunk c : chunks) {
      assertThat(text.substring(c.span().start(), c.span().end())).isEqualTo(c.text());
      assertThat(c.tokens()).isEqualTo(TOKENIZER.count(c.text())).isLessThanOrEqualTo(300);
    }
  }

  @Test
  void aMaximumSmallerThanATopicCutsTheTopicToo() {
    String text = String.join(" ", TOPICS);
    Document doc = new Document("d", "", "", Language.EN, Map.of(), text);
    List<Chunk> chunks = new SemanticChunker(TOKENIZER, MiniLmEmbedderTest.EMBEDDER, 5, 30, 1, 80).chunk(doc);
    assertThat(chunks.size()).isGreaterThan(TOPICS.length);
    assertThat(chunks).allSatisfy(c -> assertThat(c.tokens()).isLessThanOrEqualTo(30));
    // No chunk mixes two topics: each lies inside one of them.
    for (Chunk c : chunks) {
      int start = 0;
      boolean inside = false;
      for (String t : TOPICS) {
        int end = start + t.length();
        inside |= c.span().start() >= start && c.span().end() <= end;
        start = end + 1;
      }
      assertThat(inside).as(c.text()).isTrue();
    }
  }

  /** MiniLM is English-only: a Portuguese document is cut by structure, as the recursive chunker would. */
  @Test
  void portugueseFallsBackToRecursiveBoundaries() {
    String text = "O vulcão entrou em erupção ontem. A lava destruiu estradas. "
        + "A orquestra tocou a sinfonia. O público aplaudiu de pé. O pão assou no forno. A casca ficou dourada.";
    Document doc = new Document("d", "", "", Language.PT, Map.of(), text);
    assertThat(new SemanticChunker(TOKENIZER, MiniLmEmbedderTest.EMBEDDER, 4, 16, 1, 80).chunk(doc))
        .isEqualTo(new RecursiveChunker(TOKENIZER, 16, 0).chunk(doc));
  }
}
