package dev.ctxpack.bench.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class CompressEvalTest {

  @Test
  void budgetsAreTheFloorOfEachShareAndAtLeastOne() {
    assertThat(CompressEval.budgets(852)).containsExactly(85, 213, 426);
    assertThat(CompressEval.budgets(5)).containsExactly(1, 1, 2);
  }

  @Test
  void averagePrecisionAndReciprocalRank() {
    double[] scores = {0.9, 0.1, 0.5, 0.7};
    List<Boolean> labels = List.of(false, true, false, true);
    // ranking: 0, 3, 2, 1 -> positives at ranks 2 and 4
    assertThat(CompressEval.averagePrecision(scores, labels)).isCloseTo((1 / 2.0 + 2 / 4.0) / 2, within(1e-12));
    assertThat(CompressEval.reciprocalRank(scores, labels)).isCloseTo(0.5, within(1e-12));
    // ties keep file order
    assertThat(CompressEval.reciprocalRank(new double[] {1, 1, 1}, List.of(false, false, true))).isCloseTo(1 / 3.0, within(1e-12));
  }

  @Test
  void theBootstrapIntervalHoldsTheMeanAndIsSeeded() {
    double[] diff = new double[200];
    for (int i = 0; i < diff.length; i++) diff[i] = i % 4 == 0 ? 1 : (i % 10 == 1 ? -1 : 0);
    double mean = java.util.Arrays.stream(diff).average().orElseThrow();
    double[] ci = CompressEval.bootstrapCi(diff, 2000, 42);
    assertThat(ci[0]).isLessThan(mean);
    assertThat(ci[1]).isGreaterThan(mean);
    assertThat(CompressEval.bootstrapCi(diff, 2000, 42)).containsExactly(ci);
    assertThat(CompressEval.bootstrapCi(new double[] {0, 0, 0}, 100, 1)).containsExactly(0, 0);
  }
}
