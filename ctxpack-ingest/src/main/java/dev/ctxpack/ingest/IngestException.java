package dev.ctxpack.ingest;

/** A file could not be read or parsed; the message names the file and, where known, the line. */
public class IngestException extends Exception {
  public IngestException(String message) {
    super(message);
  }

  public IngestException(String message, Throwable cause) {
    super(message, cause);
  }
}
