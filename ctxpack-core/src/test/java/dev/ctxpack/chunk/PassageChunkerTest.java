package dev.ctxpack.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PassageChunkerTest {
  private final Tokenizer tokenizer = Tokenizers.defaultTokenizer();

  private static String words(String stem, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) sb.append(i == 0 ? "" : i % 17 == 0 ? ".\n" : " ").append(stem).append(i);
    return sb.toString();
  }

  private static int wordCount(String s) {
    return s.trim().split("\\s+").length;
  }

  @Test
  void passagesHoldAHundredWordsEachAndTheLastTheRest() {
    Document doc = new Document("d", "", "", Language.EN, Map.of(), words("word", 250));
    List<Chunk> out = new PassageChunker(tokenizer, 1000, 100).chunk(doc);
    assertThat(out).extracting(c -> wordCount(c.text())).containsExactly(100, 100, 50);
    assertThat(out.get(1).text()).startsWith("word100");
  }

  @Test
  void portugueseWordsThatNeedManyTokensEndThePassageEarlierAtAWord() {
    Document doc = new Document("d", "", "", Language.PT, Map.of(), words("informações", 120));
    List<Chunk> out = new PassageChunker(tokenizer, 64, 100).chunk(doc);
    assertThat(out.size()).isGreaterThan(2);
    assertThat(out).allSatisfy(c -> {
      assertThat(c.tokens()).isEqualTo(tokenizer.count(c.text())).isLessThanOrEqualTo(64);
      assertThat(c.text()).startsWith("informações").doesNotEndWith(" ");
    });
  }

  @Test
  void aPassageDoesNotCrossAHeading() {
    String text = "# Um\n" + words("a", 30) + "\n# Dois\n" + words("b", 30);
    Document doc = new Document("d", "", "", Language.PT, Map.of(), text);
    List<Chunk> out = new PassageChunker(tokenizer, 300, 100).chunk(doc);
    assertThat(out).extracting(Chunk::text).containsExactly("# Um\n" + words("a", 30), "# Dois\n" + words("b", 30));
  }
}
