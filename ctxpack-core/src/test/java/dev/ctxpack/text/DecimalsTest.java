package dev.ctxpack.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Decimals#fixed} writes what {@code String.format(Locale.ROOT, "%.Nf", v)} writes. */
class DecimalsTest {
  private static String format(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  @Test
  void edgeValuesAreWrittenAsTheFormatterWritesThem() {
    double[] values = {0, -0.0, 1, -1, 0.5, -0.5, 0.125, 0.00005, -0.00005, 0.00004999, 0.99995, 9.99995, 1e-300, -1e-300,
        1e20, 123456789.987654321, Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.NaN,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.7, 0.15, 0.25, 0.35, 2.675, 1.005};
    for (double v : values) {
      for (int d = 0; d <= 9; d++) assertThat(Decimals.fixed(v, d)).as(v + " %." + d + "f").isEqualTo(format(v, d));
    }
  }

  @Test
  void randomScoresAndExactTiesAreWrittenAsTheFormatterWritesThem() {
    Random random = new Random(3);
    for (int i = 0; i < 200_000; i++) {
      double v = switch (i % 4) {
        case 0 -> random.nextDouble();                                // a score in [0, 1)
        case 1 -> (random.nextDouble() - 0.5) * 40;                   // a logit
        case 2 -> random.nextInt(200_000) / 100_000.0 - 1;            // ties at the fifth decimal
        default -> Math.scalb(random.nextDouble(), random.nextInt(80) - 40) * (random.nextBoolean() ? 1 : -1);
      };
      int d = i % 3 == 0 ? 2 : i % 3 == 1 ? 4 : random.nextInt(10);
      assertThat(Decimals.fixed(v, d)).as(v + " %." + d + "f").isEqualTo(format(v, d));
    }
  }

  @Test
  void digitsOutOfRangeAreRefused() {
    assertThatThrownBy(() -> Decimals.fixed(1, 10)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("digits");
    assertThatThrownBy(() -> Decimals.fixed(1, -1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("digits");
  }
}
