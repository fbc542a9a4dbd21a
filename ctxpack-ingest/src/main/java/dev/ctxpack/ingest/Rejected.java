package dev.ctxpack.ingest;

/**
 * A file refused as hostile or unusable input rather than merely unreadable: the one typed
 * rejection of ingestion. The message names the file and the limit or property that refused it.
 */
public final class Rejected extends IngestException {
  /** Why a file was refused. */
  public enum Reason {
    /** Larger than {@link LoadLimits#maxFileBytes()}, found before or while reading it. */
    TOO_LARGE,
    /** Binary content (NUL bytes, a known binary signature, many control characters) where text was expected. */
    BINARY,
    /**
     * Bytes without binary markers that still decode to no text ({@link TextCheck}): high-byte
     * garbage, mostly invalid UTF-8.
     */
    NOT_TEXT,
    /** The loader did not finish within {@link LoadLimits#timeout()}. */
    TIMEOUT,
    /**
     * A compressed file whose content decompresses to more than {@link LoadLimits#maxDecodedStreamBytes()}
     * in one stream or {@link LoadLimits#maxDecodedBytes()} in all (a PDF decompression bomb).
     */
    DECODED_TOO_LARGE,
    /** A password-protected document that cannot be opened without the password. */
    ENCRYPTED,
    /** Not a well-formed file of its format (a broken PDF). */
    MALFORMED
  }

  private final Reason reason;

  public Rejected(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Rejected(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
