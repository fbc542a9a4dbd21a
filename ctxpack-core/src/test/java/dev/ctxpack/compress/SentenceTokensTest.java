package dev.ctxpack.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SentenceTokensTest {
  private static final float[] A = {1, 0, 0};
  private static final float[] B = {0, 1, 0};
  private static final float[] C = {0, 0, 1};

  @Test
  void maxSimIsTheMeanOfEachQueryTokensBestMatch() {
    // Query tokens A and B; sentence 0 holds A only, sentence 1 both, sentence 2 none read.
    SentenceTokens t = new SentenceTokens(new float[][] {A, B},
        new float[][][] {{A, C}, {B, A}, {}}, new float[][][] {{A, C, B}}, null);
    double[][] m = t.match();
    assertThat(m[0][0]).isCloseTo(0.5, within(1e-9));
    assertThat(m[1][0]).isCloseTo(1.0, within(1e-9));
    assertThat(m[2]).containsExactly(0, 0);
  }

  @Test
  void aQueryTokenEveryWindowMatchesWeighsLittle() {
    // A is in both windows (the topic word), B in one: a sentence matching B outranks one matching A.
    SentenceTokens t = new SentenceTokens(new float[][] {A, B},
        new float[][][] {{A}, {B}}, new float[][][] {{A, C}, {A, B}}, null);
    double[][] m = t.match();
    assertThat(m[0][0]).isEqualTo(m[1][0]); // plain MaxSim cannot tell them apart
    // weights: A = max(0.05, 1 - 1) = 0.05, B = 1 - (0 + 1) / 2 = 0.5
    assertThat(m[0][1]).isCloseTo(0.05 / 0.55, within(1e-9));
    assertThat(m[1][1]).isCloseTo(0.5 / 0.55, within(1e-9));
  }
}
