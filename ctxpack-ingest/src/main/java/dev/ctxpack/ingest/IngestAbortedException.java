package dev.ctxpack.ingest;

import java.io.IOException;

/**
 * An ingestion stopped by a failure to read or write the index (the disk full, the index's files
 * gone): the index holds its last commit, which {@link #summary()} describes (its counts are those
 * of the last commit; {@code failed}, {@code badLines} and {@code duplicatesOf} as found until the
 * failure). The message is the failure's.
 */
public final class IngestAbortedException extends IOException {
  private final transient IngestSummary summary;

  public IngestAbortedException(String message, IngestSummary summary, Throwable cause) {
    super(message, cause);
    this.summary = summary;
  }

  /** What the ingestion had made durable when it stopped. */
  public IngestSummary summary() {
    return summary;
  }
}
