package dev.ctxpack.token;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.testing.RandomText;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * {@link Tokenizer#truncate} on random Unicode text. BPE counts are not monotone in the prefix
 * length, so maximality is asserted only where it is certain: a text that fits is returned whole.
 */
class TruncatePropertiesTest {

  @Provide
  Arbitrary<String> texts() {
    return RandomText.text(60);
  }

  @Provide
  Arbitrary<Tokenizer> tokenizers() {
    return Arbitraries.of(Tokenizers.byName("o200k_base"), Tokenizers.byName("cl100k_base"));
  }

  @Property(tries = 500)
  @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
  void truncationIsAPrefixThatFits(
      @ForAll("texts") String text, @ForAll @IntRange(min = 0, max = 80) int max, @ForAll("tokenizers") Tokenizer t) {
    Tokenizer.Truncation cut = t.truncate(text, max);
    String prefix = cut.text();

    assertThat(text).startsWith(prefix);
    assertThat(cut.end()).isEqualTo(prefix.length());
    assertThat(cut.tokens()).isEqualTo(t.count(prefix)).isLessThanOrEqualTo(max);
    assertThat(RandomText.splitsSurrogatePair(text, prefix.length()))
        .as("cut at %d splits a surrogate pair", prefix.length()).isFalse();
    assertThat(cut.truncated()).isEqualTo(prefix.length() < text.length());

    Statistics.label("truncated").collect(cut.truncated());
    Statistics.label("truncated").coverage(c -> c.check(true).percentage(p -> p > 20));
    Statistics.label("truncated").coverage(c -> c.check(false).percentage(p -> p > 10));
  }

  @Property(tries = 300)
  void textThatFitsIsReturnedWhole(
      @ForAll("texts") String text, @ForAll @IntRange(min = 0, max = 80) int slack, @ForAll("tokenizers") Tokenizer t) {
    int n = t.count(text);
    Tokenizer.Truncation cut = t.truncate(text, n + slack);
    assertThat(cut.text()).isEqualTo(text);
    assertThat(cut.tokens()).isEqualTo(n);
    assertThat(cut.truncated()).isFalse();
  }

  @Property(tries = 300)
  void truncatedOnlyWhenTheTextDoesNotFit(
      @ForAll("texts") String text, @ForAll @IntRange(min = 0, max = 80) int max, @ForAll("tokenizers") Tokenizer t) {
    Tokenizer.Truncation cut = t.truncate(text, max);
    assertThat(cut.truncated()).isEqualTo(t.count(text) > max);
  }

  /** Any code point is at most 4 UTF-8 bytes, so 4 tokens always hold at least the first one. */
  @Property(tries = 300)
  void aBudgetOfFourTokensAlwaysMakesProgress(
      @ForAll("texts") String text, @ForAll @IntRange(min = 4, max = 40) int max, @ForAll("tokenizers") Tokenizer t) {
    if (text.isEmpty()) return;
    Tokenizer.Truncation cut = t.truncate(text, max);
    assertThat(cut.text().length()).isGreaterThanOrEqualTo(Character.charCount(text.codePointAt(0)));
  }
}
