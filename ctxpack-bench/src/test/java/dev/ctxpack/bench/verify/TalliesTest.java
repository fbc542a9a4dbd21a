package dev.ctxpack.bench.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.bench.verify.VerifyData.Gold;
import dev.ctxpack.model.Span;
import dev.ctxpack.verify.Evidence;
import dev.ctxpack.verify.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class TalliesTest {

  @Test
  void caughtAndVerdictRatesAreCountedPerKind() {
    VerdictTally t = new VerdictTally();
    assertThat(t.caughtRate()).isNaN();
    t.add(Verdict.SUPPORTED, false);
    t.add(Verdict.CONTRADICTED, true);
    t.add(Verdict.PARTIAL, true);
    t.add(Verdict.UNSUPPORTED, false); // e.g. invented-id not reported invalid: not caught
    assertThat(t.n()).isEqualTo(4);
    assertThat(t.caught()).isEqualTo(2);
    assertThat(t.caughtRate()).isEqualTo(0.5);
    assertThat(t.rate(Verdict.SUPPORTED)).isEqualTo(0.25);
    assertThat(t.count(Verdict.UNCITED)).isZero();
  }

  @Test
  void threeClassAccuracyFoldsPartialUnsupportedAndUncitedIntoNotSupported() {
    Confusion c = new Confusion();
    c.add(Gold.SUPPORT, Verdict.SUPPORTED);     // right
    c.add(Gold.SUPPORT, Verdict.PARTIAL);       // wrong
    c.add(Gold.CONTRADICT, Verdict.CONTRADICTED); // right
    c.add(Gold.CONTRADICT, Verdict.UNSUPPORTED);  // wrong 3-class, right supported-vs-not
    c.add(Gold.NOEVIDENCE, Verdict.PARTIAL);    // right
    c.add(Gold.NOEVIDENCE, Verdict.UNCITED);    // right
    c.add(Gold.NOEVIDENCE, Verdict.CONTRADICTED); // wrong 3-class, right supported-vs-not
    c.add(Gold.NOEVIDENCE, Verdict.SUPPORTED);  // wrong both
    assertThat(c.total()).isEqualTo(8);
    assertThat(c.total(Gold.NOEVIDENCE)).isEqualTo(4);
    assertThat(c.accuracy3()).isEqualTo(4 / 8.0);
    assertThat(c.accuracy2()).isEqualTo(6 / 8.0);
    c.addEvidence(true);
    c.addEvidence(false);
    c.addEvidence(true);
    assertThat(c.evidenceRecall()).isCloseTo(2 / 3.0, within(1e-12));
  }

  @Test
  void theFittedThresholdMaximisesAccuracyAndTakesTheLowestOfEquals() {
    double[] s = {0.1, 0.4, 0.5, 0.8, 0.9, Double.NaN};
    boolean[] p = {false, false, true, true, true, false};
    ThresholdFit.Result r = ThresholdFit.best(s, p);
    assertThat(r.threshold()).isCloseTo(0.45, within(1e-12));
    assertThat(r.accuracy()).isEqualTo(1.0);
    assertThat(ThresholdFit.accuracy(s, p, 0.45)).isEqualTo(1.0);
    assertThat(ThresholdFit.accuracy(s, p, 0.85)).isEqualTo(4 / 6.0);
    // one positive below a negative: the best cut keeps 4 of 5 right, and the lowest such cut is taken
    double[] s2 = {0.2, 0.3, 0.6, 0.7, 0.9};
    boolean[] p2 = {false, true, false, true, true};
    ThresholdFit.Result r2 = ThresholdFit.best(s2, p2);
    assertThat(r2.accuracy()).isEqualTo(0.8);
    assertThat(r2.threshold()).isCloseTo(0.25, within(1e-12));
    // ties: equal scores are never split
    ThresholdFit.Result r3 = ThresholdFit.best(new double[] {0.5, 0.5, 0.5}, new boolean[] {true, false, true});
    assertThat(r3.accuracy()).isCloseTo(2 / 3.0, within(1e-12));
    assertThat(r3.threshold()).isLessThan(0.5);
  }

  @Test
  void evidenceHitsWhenItOverlapsARationaleSentenceOfTheRightSource() {
    List<Span> gold = List.of(new Span(0, 10), new Span(11, 20), new Span(21, 30));
    assertThat(VerifyEval.overlapsRationale(new Evidence("S1", 12, 15, "x", 1), "S1", gold, List.of(1))).isTrue();
    assertThat(VerifyEval.overlapsRationale(new Evidence("S1", 5, 12, "x", 1), "S1", gold, List.of(1))).isTrue();
    assertThat(VerifyEval.overlapsRationale(new Evidence("S1", 0, 10, "x", 1), "S1", gold, List.of(1))).isFalse(); // touching is not overlapping
    assertThat(VerifyEval.overlapsRationale(new Evidence("S2", 12, 15, "x", 1), "S1", gold, List.of(1))).isFalse();
    assertThat(VerifyEval.overlapsRationale(null, "S1", gold, List.of(1))).isFalse();
    assertThat(VerifyEval.overlapsRationale(new Evidence("S1", 25, 28, "x", 1), "S1", gold, List.of(1, 7))).isFalse();
  }
}
