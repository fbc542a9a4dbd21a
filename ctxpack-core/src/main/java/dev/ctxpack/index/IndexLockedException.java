package dev.ctxpack.index;

import java.io.IOException;
import java.util.Objects;

/**
 * Another process holds the write lock of the index at {@link #location()} (a running {@code
 * ctxpack ingest}, or a {@code ctxpack serve} that has written to it): this one cannot write until
 * that one stops. Thrown by {@link WritableIndex#begin()}; the message is one line that says what to
 * do.
 */
public class IndexLockedException extends IOException {
  private static final long serialVersionUID = 1L;
  private final String location;

  public IndexLockedException(String location, Throwable cause) {
    super("index " + Objects.requireNonNull(location, "location") + " is being written by another process"
        + " (a running ctxpack ingest or serve?): wait for it or stop it", cause);
    this.location = location;
  }

  /** The index, as {@link Index#location()} names it. */
  public String location() {
    return location;
  }
}
