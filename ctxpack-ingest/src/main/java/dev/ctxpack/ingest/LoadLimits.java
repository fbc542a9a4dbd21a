package dev.ctxpack.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits every file is loaded under ({@link LoadGuard}): at most {@code maxFileBytes} bytes
 * (checked before reading and again while reading, so a file that grows or a device that never
 * ends is still stopped), and at most {@code timeout} for the loader to parse it. A compressed
 * format (PDF) is also held to {@code maxDecodedStreamBytes} of decompressed content in any one
 * stream and {@code maxDecodedBytes} in all its streams together, counted before anything is
 * parsed, so a small file that inflates to gigabytes (a decompression bomb) is refused at once.
 */
public record LoadLimits(long maxFileBytes, Duration timeout, long maxDecodedStreamBytes, long maxDecodedBytes) {
  public static final long DEFAULT_MAX_FILE_BYTES = 50L * 1024 * 1024;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
  /** Decoded bytes of one PDF stream (a page's content, a font): 64 MiB. */
  public static final long DEFAULT_MAX_DECODED_STREAM_BYTES = 64L << 20;
  /** Decoded bytes of all the streams of one PDF (images, which text extraction never decodes, aside): 512 MiB. */
  public static final long DEFAULT_MAX_DECODED_BYTES = 512L << 20;
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
    if (maxDecodedStreamBytes < 1) {
      throw new IllegalArgumentException("maxDecodedStreamBytes must be >= 1, was " + maxDecodedStreamBytes);
    }
    if (maxDecodedBytes < maxDecodedStreamBytes) {
      throw new IllegalArgumentException("maxDecodedBytes must be >= maxDecodedStreamBytes (" + maxDecodedStreamBytes
          + "), was " + maxDecodedBytes);
    }
  }

  /** The given size and time limits with the default decoded-content caps. */
  public LoadLimits(long maxFileBytes, Duration timeout) {
    this(maxFileBytes, timeout, DEFAULT_MAX_DECODED_STREAM_BYTES, DEFAULT_MAX_DECODED_BYTES);
  }

  /** These limits with other caps on decompressed content: per stream and per document. */
  public LoadLimits withDecodedCaps(long perStream, long perDocument) {
    return new LoadLimits(maxFileBytes, timeout, perStream, perDocument);
  }

  /** Limits from the CLI's units: megabytes (2^20 bytes) and milliseconds. */
  public static LoadLimits of(long maxFileMb, long timeoutMs) {
    if (maxFileMb < 1 || maxFileMb > MAX_FILE_BYTES >> 20) {
      throw new IllegalArgumentException("max file size must be in [1, " + (MAX_FILE_BYTES >> 20) + "] MB, was " + maxFileMb);
    }
    if (timeoutMs < 1) throw new IllegalArgumentException("load timeout must be >= 1 ms, was " + timeoutMs);
    return new LoadLimits(maxFileMb << 20, Duration.ofMillis(timeoutMs));
  }

  /**
   * Limits from the CLI's units, with the caps on a PDF's decoded content: {@code streamMb} per
   * stream and {@code documentMb} per document, in megabytes (2^20 bytes).
   */
  public static LoadLimits of(long maxFileMb, long timeoutMs, long streamMb, long documentMb) {
    if (streamMb < 1 || streamMb > 1L << 20) throw new IllegalArgumentException("decoded stream cap must be in [1, 1048576] MB, was " + streamMb);
    if (documentMb < streamMb || documentMb > 1L << 20) {
      throw new IllegalArgumentException("decoded document cap must be in [" + streamMb + ", 1048576] MB, was " + documentMb);
    }
    return of(maxFileMb, timeoutMs).withDecodedCaps(streamMb << 20, documentMb << 20);
  }
}
