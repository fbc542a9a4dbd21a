package dev.ctxpack.token;

import java.util.Objects;

/**
 * What ctxpack needs to know of a model: its context window, the tokenizer that counts its tokens,
 * whether that count is exact, the safety margin applied when it is only approximate, and the
 * default generation reserve.
 *
 * <p>A model whose tokenizer is not available here (Claude, Llama, Gemini...) is counted with a
 * close BPE and given a margin: the usable window is {@code contextWindow * (1 - safetyMargin)}.
 */
public record ModelProfile(
    String name, int contextWindow, String tokenizer, boolean exact, double safetyMargin, int defaultReserve) {
  public ModelProfile {
    Objects.requireNonNull(name, "name");
    if (contextWindow <= 0) throw new IllegalArgumentException("contextWindow must be > 0, was " + contextWindow);
    Tokenizers.byName(tokenizer);
    if (!(safetyMargin >= 0 && safetyMargin < 0.5)) {
      throw new IllegalArgumentException("safetyMargin must be in [0, 0.5), was " + safetyMargin);
    }
    if (defaultReserve < 0 || defaultReserve >= contextWindow) {
      throw new IllegalArgumentException("defaultReserve must be in [0, contextWindow), was " + defaultReserve);
    }
  }

  /** Tokens that can be counted on: the window less the safety margin. */
  public int usableWindow() {
    // The epsilon absorbs binary rounding: 1000 * (1 - 0.07) is 929.9999999999999, and means 930.
    return (int) Math.floor(contextWindow * (1.0 - safetyMargin) + 1e-6);
  }

  public Tokenizer tokenizerInstance() {
    return Tokenizers.byName(tokenizer);
  }
}
