package dev.ctxpack.bench.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.bench.segment.Boundaries.Score;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.SentenceSegmenter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BoundariesTest {
  static final String TEXT = "It rained. Dr. Smith came. We left";

  @Test
  void aSpanEndAndABoundaryAfterTheSpacesAreTheSameBoundary() {
    assertThat(Boundaries.normalize(TEXT, 10)).isEqualTo(11);
    assertThat(Boundaries.normalize(TEXT, 11)).isEqualTo(11);
    assertThat(Boundaries.normalize("a.  \u00A0b", 2)).isEqualTo(5);
    assertThat(Boundaries.of(TEXT, List.of(10, 11, 26), false)).containsExactly(11, 27);
  }

  @Test
  void offsetZeroIsNeverABoundaryAndTheFinalEndOnlyWhenIncluded() {
    assertThat(Boundaries.of("Hi. ", List.of(0, 3, 4), false)).isEmpty();
    assertThat(Boundaries.of("Hi. ", List.of(0, 3, 4), true)).containsExactly(4);
  }

  @Test
  void bothSystemsGiveNormalisedBoundariesOnTheSameText() {
    Set<Integer> ctx = Boundaries.ctxpack(new SentenceSegmenter(), TEXT, Language.EN, false);
    assertThat(ctx).containsExactly(11, 27); // Dr. is an abbreviation
    Set<Integer> bi = Boundaries.breakIterator(TEXT, Locale.ENGLISH, false);
    assertThat(bi).contains(11, 27).doesNotContain(0, TEXT.length());
    assertThat(Boundaries.breakIterator(TEXT, Locale.ENGLISH, true)).contains(TEXT.length());
    assertThat(Boundaries.ctxpack(new SentenceSegmenter(), TEXT, Language.EN, true)).contains(TEXT.length());
  }

  @Test
  void precisionRecallAndF1FromCounts() {
    Score s = Score.of(Set.of(5, 10, 20, 30), Set.of(5, 10, 12));
    assertThat(s).isEqualTo(new Score(2, 1, 2));
    assertThat(s.precision()).isCloseTo(2 / 3.0, within(1e-12));
    assertThat(s.recall()).isCloseTo(0.5, within(1e-12));
    assertThat(s.f1()).isCloseTo(2 * (2 / 3.0) * 0.5 / (2 / 3.0 + 0.5), within(1e-12));
    Score sum = s.plus(Score.of(Set.of(7), Set.of(7)));
    assertThat(sum).isEqualTo(new Score(3, 1, 2));
    assertThat(sum.f1()).isCloseTo(6 / 9.0, within(1e-12));
  }

  @Test
  void emptyCasesDoNotDivideByZero() {
    assertThat(Score.of(Set.of(), Set.of())).isEqualTo(Score.ZERO);
    assertThat(Score.ZERO.f1()).isEqualTo(1.0);
    Score onlyFalse = Score.of(Set.of(), Set.of(3));
    assertThat(onlyFalse.precision()).isZero();
    assertThat(onlyFalse.recall()).isEqualTo(1.0);
    assertThat(onlyFalse.f1()).isZero();
    Score onlyMissed = Score.of(Set.of(3), Set.of());
    assertThat(onlyMissed.precision()).isEqualTo(1.0);
    assertThat(onlyMissed.f1()).isZero();
  }
}
