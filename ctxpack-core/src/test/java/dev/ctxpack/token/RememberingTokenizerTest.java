package dev.ctxpack.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.ctxpack.testing.RandomText;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** A remembering tokenizer gives its delegate's counts exactly, remembers only for itself, and stays bounded. */
class RememberingTokenizerTest {
  private static final Encoding O200K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

  /** Counts how often it is asked, each text one token per character. */
  static final class Asked implements Tokenizer {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String name() {
      return "chars";
    }

    @Override
    public int count(String text) {
      calls.incrementAndGet();
      return text.length();
    }

    @Override
    public Truncation truncate(String text, int maxTokens) {
      throw new UnsupportedOperationException();
    }
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.oneOf(RandomText.text(80), RandomText.textWithLongWords(20));
  }

  @Property(tries = 300)
  void countsAreJTokkitsFirstAndAgain(@ForAll("texts") String text) {
    RememberingTokenizer t = new RememberingTokenizer(Tokenizers.defaultTokenizer(), RememberingTokenizer.MAX_TEXT_CHARS);
    int expected = O200K.countTokensOrdinary(text);
    assertThat(t.count(text)).isEqualTo(expected);
    assertThat(t.count(new String(text.toCharArray()))).as("an equal text, from memory").isEqualTo(expected);
    String longer = text + " x";
    assertThat(t.count(longer)).as("a different text").isEqualTo(O200K.countTokensOrdinary(longer));
  }

  @Test
  void aTextIsCountedOnceAndOnlyByItsOwnMemory() {
    Asked inner = new Asked();
    RememberingTokenizer a = new RememberingTokenizer(inner, 100_000);
    RememberingTokenizer b = new RememberingTokenizer(inner, 100_000);
    String text = "A renovação da matrícula é feita no início de cada semestre.";
    assertThat(a.count(text)).isEqualTo(text.length());
    assertThat(a.count(text)).isEqualTo(text.length());
    assertThat(inner.calls).hasValue(1);
    assertThat(a.rememberedTexts()).isEqualTo(1);
    // another instance over the same delegate knows nothing of what the first counted
    assertThat(b.rememberedTexts()).isZero();
    b.count(text);
    assertThat(inner.calls).hasValue(2);
  }

  @Test
  void shortAndVeryLongTextsAreCountedDirectly() {
    Asked inner = new Asked();
    RememberingTokenizer t = new RememberingTokenizer(inner, 1_000_000);
    String shortText = "x".repeat(RememberingTokenizer.MIN_CHARS - 1);
    String longText = "y".repeat(RememberingTokenizer.MAX_TEXT_CHARS + 1);
    t.count(shortText);
    t.count(shortText);
    t.count(longText);
    t.count(longText);
    assertThat(inner.calls).hasValue(4);
    assertThat(t.rememberedTexts()).isZero();
  }

  @Test
  void theMemoryIsEmptiedBeforeItPassesItsLimit() {
    Asked inner = new Asked();
    RememberingTokenizer t = new RememberingTokenizer(inner, RememberingTokenizer.MAX_TEXT_CHARS);
    int each = 1_000;
    int fit = RememberingTokenizer.MAX_TEXT_CHARS / each;
    for (int i = 0; i < fit; i++) t.count(String.format("%0" + each + "d", i));
    assertThat(t.rememberedTexts()).isEqualTo(fit);
    t.count(String.format("%0" + each + "d", fit));
    assertThat(t.rememberedTexts()).as("emptied, then the new text remembered").isEqualTo(1);
    assertThat(t.count(String.format("%0" + each + "d", fit))).isEqualTo(each);
  }

  @Test
  void aLimitSmallerThanOneRememberedTextIsRefused() {
    assertThatThrownBy(() -> new RememberingTokenizer(new Asked(), 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxChars");
  }
}
