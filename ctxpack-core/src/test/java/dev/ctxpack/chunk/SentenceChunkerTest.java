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

class SentenceChunkerTest {
  private final Tokenizer tokenizer = Tokenizers.defaultTokenizer();

  private List<String> chunkTexts(int max, String text) {
    Document doc = new Document("d", "", "", Language.PT, Map.of(), text);
    return new SentenceChunker(tokenizer, max).chunk(doc).stream().map(Chunk::text).toList();
  }

  @Test
  void oneChunkPerSentence() {
    assertThat(chunkTexts(64, "A Sra. Costa chegou. Ela trouxe 3.5 kg de café!\r\n\r\n- item um\n- item dois"))
        .containsExactly("A Sra. Costa chegou.", "Ela trouxe 3.5 kg de café!", "- item um", "- item dois");
  }

  @Test
  void aShortHeadingWithoutPunctuationOpensTheSentenceAfterIt() {
    assertThat(chunkTexts(64, "OBJECTIVES To survey archived samples. METHODS We tested 32,441 samples."))
        .containsExactly("OBJECTIVES To survey archived samples.", "METHODS We tested 32,441 samples.");
    assertThat(chunkTexts(64, "# Resultados\n\nA receita cresceu. O custo caiu."))
        .containsExactly("# Resultados\n\nA receita cresceu.", "O custo caiu.");
    // Not a heading: a list item, a sentence with its final punctuation, a line of five words or more.
    assertThat(chunkTexts(64, "Notas:\n- item um\n- item dois\n\nUma linha com cinco palavras\n\nFim do texto."))
        .containsExactly("Notas:", "- item um", "- item dois", "Uma linha com cinco palavras", "Fim do texto.");
  }

  @Test
  void aSentenceOverTheMaximumIsCutBetweenWords() {
    String sentence = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen.";
    List<String> pieces = chunkTexts(8, sentence);
    assertThat(pieces).hasSizeGreaterThan(1);
    assertThat(pieces).allSatisfy(p -> {
      assertThat(p).doesNotStartWith(" ").doesNotEndWith(" ");
      assertThat(tokenizer.count(p)).isLessThanOrEqualTo(8);
    });
    assertThat(String.join(" ", pieces)).isEqualTo(sentence);
  }

  /** A sentence over the maximum used to become one chunk per word. */
  @Test
  void regressionLongSentenceBecameOneChunkPerWord() {
    StringBuilder sb = new StringBuilder("Intro sentence. This very long sentence");
    for (int i = 0; i < 350; i++) sb.append(" item").append(i);
    sb.append(". Final sentence.");
    Document doc = new Document("d", "", "", Language.EN, Map.of(), sb.toString());
    List<Chunk> chunks = new SentenceChunker(tokenizer, 300).chunk(doc);

    assertThat(chunks).hasSize(5);
    assertThat(chunks.get(0).text()).isEqualTo("Intro sentence.");
    assertThat(chunks.get(1).text()).startsWith("This very long sentence item0 item1");
    assertThat(chunks.get(1).tokens()).isGreaterThan(250);
    assertThat(chunks.get(2).tokens()).isGreaterThan(250);
    assertThat(chunks.get(3).text()).endsWith("item349.");
    assertThat(chunks.get(4).text()).isEqualTo("Final sentence.");
  }
}
