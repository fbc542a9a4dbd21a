package dev.ctxpack.retrieve;

/**
 * How many candidates to fetch per signal and how many to keep after fusion. Defaults: hybrid,
 * 20 sparse + 20 dense, keep 40.
 */
public record RetrievalOptions(RetrievalMode mode, int k, int sparseK, int denseK) {
  public static final int MAX_K = 1000;

  public RetrievalOptions {
    if (mode == null) throw new IllegalArgumentException("mode must not be null");
    if (k < 1 || k > MAX_K) throw new IllegalArgumentException("k must be in [1, " + MAX_K + "], was " + k);
    if (sparseK < 0 || sparseK > MAX_K) throw new IllegalArgumentException("sparseK must be in [0, " + MAX_K + "], was " + sparseK);
    if (denseK < 0 || denseK > MAX_K) throw new IllegalArgumentException("denseK must be in [0, " + MAX_K + "], was " + denseK);
  }

  public static RetrievalOptions defaults() {
    return new RetrievalOptions(RetrievalMode.HYBRID, 40, 20, 20);
  }

  /** {@code k} results: each signal fetches {@code max(k, 20)} so fusion has depth to work with. */
  public static RetrievalOptions of(RetrievalMode mode, int k) {
    int perSignal = Math.min(MAX_K, Math.max(k, 20));
    return new RetrievalOptions(mode, k, perSignal, perSignal);
  }
}
