package dev.ctxpack.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PairedTestTest {

  @Test
  void identicalMethodsAreIndistinguishable() {
    Map<String, Double> a = Map.of("q1", 0.5, "q2", 0.7, "q3", 0.1);
    PairedTest.Comparison c = PairedTest.compare("a", a, "b", a);
    assertThat(c.meanDiff()).isZero();
    assertThat(c.p()).isEqualTo(1.0);
    assertThat(c.wins()).isZero();
    assertThat(c.losses()).isZero();
  }

  @Test
  void aConsistentGainIsSignificantAndTheDifferenceIsTheMean() {
    // 12 queries, each +0.1: only 2 of the 2^12 sign patterns reach |mean| >= 0.1, p ~ 2/4096.
    java.util.Map<String, Double> a = new java.util.HashMap<>();
    java.util.Map<String, Double> b = new java.util.HashMap<>();
    for (int i = 0; i < 12; i++) {
      a.put("q" + i, 0.6);
      b.put("q" + i, 0.5);
    }
    PairedTest.Comparison c = PairedTest.compare("a", a, "b", b);
    assertThat(c.meanDiff()).isCloseTo(0.1, within(1e-12));
    assertThat(c.p()).isLessThan(0.01);
    assertThat(c.wins()).isEqualTo(12);
    assertThat(c.queries()).isEqualTo(12);
  }

  @Test
  void aQueryMissingFromTheMethodScoresZero() {
    PairedTest.Comparison c = PairedTest.compare("a", Map.of("q1", 1.0), "b", Map.of("q1", 1.0, "q2", 0.5));
    assertThat(c.meanDiff()).isCloseTo(-0.25, within(1e-12));
    assertThat(c.losses()).isEqualTo(1);
  }
}
