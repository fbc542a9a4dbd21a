package dev.ctxpack.token;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.testing.RandomText;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class EncodedTextTest {

  /** Spans never cut a surrogate pair: the encoder refuses lone surrogates. */
  @Property(tries = 300)
  void everySpanCountsExactlyAsIfEncodedAlone(
      @ForAll("texts") String text, @ForAll @IntRange(min = 0, max = 1_000_000) int seed) {
    for (Tokenizer tokenizer : new Tokenizer[] {Tokenizers.defaultTokenizer(), Tokenizers.byName("cl100k_base")}) {
      EncodedText encoded = EncodedText.of(tokenizer, text);
      Random random = new Random(seed);
      for (int i = 0; i < 20; i++) {
        int a = text.isEmpty() ? 0 : random.nextInt(text.length() + 1);
        if (RandomText.splitsSurrogatePair(text, a)) a--;
        int b = a + (text.length() == a ? 0 : random.nextInt(text.length() - a + 1));
        if (RandomText.splitsSurrogatePair(text, b)) b++;
        assertThat(encoded.count(a, b)).as("%s [%d, %d)", tokenizer.name(), a, b)
            .isEqualTo(tokenizer.count(text.substring(a, b)));
        assertThat(encoded.upperBound(a, b)).as("upper bound of %s [%d, %d)", tokenizer.name(), a, b)
            .isGreaterThanOrEqualTo(encoded.count(a, b));
      }
    }
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<String> texts() {
    return RandomText.text(300);
  }

  @Example
  void spansOfProseBetweenWordsCountExactly() {
    String text = ("The context window holds tokens; a contração não é aceita. Retrieval-augmented generation "
        + "(RAG) packs evidence — verbatim — into a budget of 4,000 tokens!\r\n\r\nNova linha: café, ação.\n").repeat(30);
    Tokenizer tokenizer = Tokenizers.defaultTokenizer();
    EncodedText encoded = EncodedText.of(tokenizer, text);
    for (int a = 0; a < 400; a += 7) {
      for (int b = a; b < text.length(); b += 131) {
        assertThat(encoded.count(a, b)).as("[%d, %d)", a, b).isEqualTo(tokenizer.count(text.substring(a, b)));
      }
    }
  }

  @Example
  void guessEndIsInsideTheSpanAndNeverSplitsASurrogatePair() {
    String text = "😀".repeat(500) + " word".repeat(200);
    EncodedText encoded = EncodedText.of(Tokenizers.defaultTokenizer(), text);
    for (int max = 1; max < 50; max++) {
      int e = encoded.guessEnd(0, text.length(), max);
      assertThat(e).isBetween(1, text.length());
      assertThat(RandomText.splitsSurrogatePair(text, e)).isFalse();
    }
  }
}
