package dev.ctxpack.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The runner's small helpers; the runner itself runs on demand, never in mvn test. */
class RunSupportTest {

  @Test
  void parsesFusionSpecs() {
    assertThat(RunSupport.parseFusion("rrf").describe()).isEqualTo("rrf(k=60)");
    assertThat(RunSupport.parseFusion("rrf:20").describe()).isEqualTo("rrf(k=20)");
    assertThat(RunSupport.parseFusion("rrf:60:1,1.5").describe()).isEqualTo("rrf(k=60, weights=[1.0, 1.5])");
    assertThat(RunSupport.parseFusion("weighted:0.3,0.7").describe()).startsWith("weighted([0.3, 0.7]");
    assertThatThrownBy(() -> RunSupport.parseFusion("max")).hasMessageContaining("bad --fusion 'max'");
    assertThatThrownBy(() -> RunSupport.parseFusion("rrf:x")).hasMessageContaining("bad --fusion");
  }

  @Test
  void percentilesUseTheNearestRank() {
    long[] v = {50, 10, 40, 20, 30, 60, 70, 80, 90, 100};
    // Sorted 10..100; p50: rank ceil(0.5 * 10) = 5 -> 50; p99: rank ceil(9.9) = 10 -> 100; p10: rank 1 -> 10.
    assertThat(Measurement.percentile(v, 50)).isEqualTo(50);
    assertThat(Measurement.percentile(v, 99)).isEqualTo(100);
    assertThat(Measurement.percentile(v, 10)).isEqualTo(10);
    assertThat(Measurement.percentile(new long[0], 50)).isNaN();
  }

  @Test
  void commandsAreRecordedAsShellWords() {
    assertThat(RunSupport.shellQuote("--work-dir")).isEqualTo("--work-dir");
    assertThat(RunSupport.shellQuote("rrf:60;weighted:0.5,0.5")).isEqualTo("'rrf:60;weighted:0.5,0.5'");
    assertThat(RunSupport.shellQuote("it's")).isEqualTo("'it'\\''s'");
  }

  @Test
  void slugsAreFileNameSafe() {
    assertThat(RunSupport.slug("ctxpack hybrid (rrf(k=60))")).isEqualTo("ctxpack-hybrid-rrf-k-60");
  }
}
