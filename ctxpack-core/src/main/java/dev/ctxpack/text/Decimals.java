package dev.ctxpack.text;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Numbers written with a fixed count of decimals, as {@code String.format(Locale.ROOT, "%.Nf", v)}
 * writes them (the shortest decimal that reads back as {@code v}, rounded half up, a minus sign kept
 * on a negative value that rounds to zero), without parsing a format string on each call: the trace
 * writes a score for each passage, sentence and merge of every request.
 */
public final class Decimals {
  private Decimals() {}

  /** {@code v} with {@code digits} decimals (0 to 9), as {@code String.format(Locale.ROOT, "%.<digits>f", v)}. */
  public static String fixed(double v, int digits) {
    if (digits < 0 || digits > 9) throw new IllegalArgumentException("digits must be in [0, 9], was " + digits);
    if (!Double.isFinite(v)) return String.format(Locale.ROOT, "%." + digits + "f", v);
    String s = BigDecimal.valueOf(v).setScale(digits, RoundingMode.HALF_UP).toPlainString();
    // The formatter keeps the sign of a negative value (and of -0.0) that rounds to zero.
    return (Double.doubleToRawLongBits(v) < 0 && s.charAt(0) != '-') ? "-" + s : s;
  }
}
