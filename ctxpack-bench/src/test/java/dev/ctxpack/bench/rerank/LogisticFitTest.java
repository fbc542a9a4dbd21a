package dev.ctxpack.bench.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LogisticFitTest {

  /** Queries whose relevant candidates score higher on feature 0 and no differently on feature 1. */
  private static List<LogisticFit.Group> groups(long seed) {
    Random r = new Random(seed);
    List<LogisticFit.Group> out = new ArrayList<>();
    for (int q = 0; q < 60; q++) {
      double[][] x = new double[10][2];
      boolean[] rel = new boolean[10];
      for (int i = 0; i < 10; i++) {
        rel[i] = i < 2;
        x[i][0] = r.nextGaussian() + (rel[i] ? 1.5 : 0);
        x[i][1] = r.nextGaussian();
      }
      out.add(new LogisticFit.Group(x, rel));
    }
    return out;
  }

  @Test
  void bothLossesFindTheInformativeFeatureAndIgnoreTheNoise() {
    for (LogisticFit.Loss loss : LogisticFit.Loss.values()) {
      double[] w = LogisticFit.fit(groups(7), 2, loss, 1e-3);
      assertThat(w[0]).as(loss.name()).isGreaterThan(0.8);
      assertThat(Math.abs(w[1])).as(loss.name()).isLessThan(0.3 * w[0]);
    }
  }

  @Test
  void strongerRegularisationShrinksTheWeights() {
    double[] weak = LogisticFit.fit(groups(7), 2, LogisticFit.Loss.PAIRWISE, 1e-4);
    double[] strong = LogisticFit.fit(groups(7), 2, LogisticFit.Loss.PAIRWISE, 10);
    assertThat(Math.abs(strong[0])).isLessThan(Math.abs(weak[0]) / 5);
  }

  @Test
  void isDeterministic() {
    assertThat(LogisticFit.fit(groups(3), 2, LogisticFit.Loss.POINTWISE, 1e-2))
        .containsExactly(LogisticFit.fit(groups(3), 2, LogisticFit.Loss.POINTWISE, 1e-2));
  }

  @Test
  void solvesASymmetricPositiveDefiniteSystem() {
    double[] x = LogisticFit.solve(new double[][] {{4, 1}, {1, 3}}, new double[] {1, 2});
    assertThat(x[0]).isCloseTo(1.0 / 11, within(1e-12));
    assertThat(x[1]).isCloseTo(7.0 / 11, within(1e-12));
  }
}
