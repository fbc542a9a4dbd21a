package dev.ctxpack.compress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DependenceTest {
  @ParameterizedTest
  @ValueSource(strings = {"She won the prize.", "This was the first time.", "However, the river froze.",
      "In addition, prices fell.", "Ele nasceu em Lisboa.", "Além disso, o prazo terminou.", "Essa regra vale até 2025.",
      "No entanto, a lei mudou.", "and then it rained.", "\"It rained,\" he said."})
  void leaningSentences(String s) {
    assertThat(Dependence.leansOnPrevious(s)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"The Rhine rises in the Alps.", "Marie Curie was born in 1867.", "O Cerrado é uma savana.",
      "In 1903 she won.", "Thesis defences are public.", "Essays are due on Monday.", "12 students passed."})
  void standAloneSentences(String s) {
    assertThat(Dependence.leansOnPrevious(s)).isFalse();
  }
}
