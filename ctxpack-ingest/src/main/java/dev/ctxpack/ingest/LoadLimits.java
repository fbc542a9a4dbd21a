package dev.ctxpack.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits every file is loaded under ({@link LoadGuard}): at most {@code maxFileBytes} bytes
 * (checked before reading and again while reading, so a file that grows or a device that never
 * ends is still stopped), and at most {@code timeout} for the loader to parse it.
 */
public record LoadLimits(long maxFileBytes, Duration timeout) {
  public static final long DEFAULT_MAX_FILE_BYTES = 50L * 1024 * 1024;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
  public static final LoadLimits DEFAULTS = new LoadLimits(DEFAULT_MAX_FILE_BYTES, DEFAULT_TIMEOUT);
  /** The largest file a byte array holds. */
  public static final long MAX_FILE_BYTES = Integer.MAX_VALUE - 16L;

  public LoadLimits {
    Objects.requireNonNull(timeout, "timeout");
    if (maxFileBytes < 1 || maxFileBytes > MAX_FILE_BYTES) {
      throw new IllegalArgumentException("maxFileBytes must be in [1, " + MAX_FILE_BYTES + "], was " + maxFileBytes);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
  }

  /** Limits from the CLI's units: megabytes (2^20 bytes) and milliseconds. */
  public static LoadLimits of(long maxFileMb, long timeoutMs) {
    if (maxFileMb < 1 || maxFileMb > MAX_FILE_BYTES >> 20) {
      throw new IllegalArgumentException("max file size must be in [1, " + (MAX_FILE_BYTES >> 20) + "] MB, was " + maxFileMb);
    }
    if (timeoutMs < 1) throw new IllegalArgumentException("load timeout must be >= 1 ms, was " + timeoutMs);
    return new LoadLimits(maxFileMb << 20, Duration.ofMillis(timeoutMs));
  }
}
