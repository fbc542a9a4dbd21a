package dev.ctxpack.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Token counts against tiktoken's reference output (the values printed by tiktoken's README and
 * OpenAI's "How to count tokens with tiktoken" cookbook), for both shipped encodings.
 */
class TokenizerGoldenTest {
  private final Tokenizer o200k = Tokenizers.byName("o200k_base");
  private final Tokenizer cl100k = Tokenizers.byName("cl100k_base");

  @ParameterizedTest(name = "cl100k_base: \"{0}\" = {1}")
  @CsvSource(delimiter = '|', value = {
      "hello world|2",
      "Hello, world!|4",
      "tiktoken is great!|6",
      "antidisestablishmentarianism|6",
      "2 + 2 = 4|7",
      "お誕生日おめでとう|9",
  })
  void cl100kMatchesTiktoken(String text, int expected) {
    assertThat(cl100k.count(text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "o200k_base: \"{0}\" = {1}")
  @CsvSource(delimiter = '|', value = {
      "hello world|2",
      "Hello, world!|4",
  })
  void o200kMatchesTiktoken(String text, int expected) {
    assertThat(o200k.count(text)).isEqualTo(expected);
  }

  @Test
  void theTwoEncodingsDiffer() {
    // The same Japanese greeting is 9 tokens in cl100k_base; o200k_base's larger vocabulary needs fewer.
    assertThat(o200k.count("お誕生日おめでとう")).isLessThan(cl100k.count("お誕生日おめでとう"));
  }

  @Test
  void emptyTextIsZeroTokens() {
    assertThat(o200k.count("")).isZero();
    assertThat(cl100k.count("")).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"<|endoftext|>", "<|fim_prefix|>", "<|im_start|>", "<|endofprompt|>", "before <|endoftext|> after"})
  void specialTokenTextIsCountedAsPlainText(String text) {
    for (Tokenizer t : new Tokenizer[] {o200k, cl100k}) {
      assertThatCode(() -> t.count(text)).doesNotThrowAnyException();
      assertThat(t.count(text)).as("%s counts %s as text", t.name(), text).isGreaterThan(1);
      Tokenizer.Truncation cut = t.truncate(text, 1000);
      assertThat(cut.text()).isEqualTo(text);
      assertThat(cut.truncated()).isFalse();
      assertThat(cut.tokens()).isEqualTo(t.count(text));
    }
  }

  @Test
  void namesAndLookup() {
    assertThat(o200k.name()).isEqualTo("o200k_base");
    assertThat(cl100k.name()).isEqualTo("cl100k_base");
    assertThat(Tokenizers.defaultTokenizer().name()).isEqualTo(Tokenizers.DEFAULT).isEqualTo("o200k_base");
    assertThat(Tokenizers.byName(" CL100K_BASE ")).isSameAs(cl100k);
    assertThat(Tokenizers.byName("o200k")).isSameAs(o200k);
    assertThatThrownBy(() -> Tokenizers.byName("p50k_base"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("p50k_base")
        .hasMessageContaining("o200k_base")
        .hasMessageContaining("cl100k_base");
  }

  @Test
  void truncateKeepsWholeWordsOfPlainProse() {
    // " four" is one token, so three tokens are exactly the first three words.
    Tokenizer.Truncation cut = o200k.truncate("one two three four five six", 3);
    assertThat(cut.text()).isEqualTo("one two three");
    assertThat(cut.tokens()).isEqualTo(3);
    assertThat(cut.truncated()).isTrue();
    assertThat(cut.end()).isEqualTo(13);
  }

  @Test
  void truncateEdgeCases() {
    assertThat(o200k.truncate("", 0)).isEqualTo(new Tokenizer.Truncation("", 0, false));
    assertThat(o200k.truncate("", 5)).isEqualTo(new Tokenizer.Truncation("", 0, false));
    assertThat(o200k.truncate("hello", 0)).isEqualTo(new Tokenizer.Truncation("", 0, true));
    assertThat(o200k.truncate("hello world", 2)).isEqualTo(new Tokenizer.Truncation("hello world", 2, false));
    assertThatThrownBy(() -> o200k.truncate("hello", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxTokens");
  }

  @Test
  void truncateNeverSplitsAnEmoji() {
    String text = "😀😀😀 abc";
    for (int max = 0; max <= 6; max++) {
      Tokenizer.Truncation cut = o200k.truncate(text, max);
      int end = cut.end();
      assertThat(end > 0 && end < text.length()
              && Character.isHighSurrogate(text.charAt(end - 1)) && Character.isLowSurrogate(text.charAt(end)))
          .as("max %d cut at %d", max, end).isFalse();
      assertThat(cut.tokens()).isLessThanOrEqualTo(max).isEqualTo(o200k.count(cut.text()));
    }
  }
}
