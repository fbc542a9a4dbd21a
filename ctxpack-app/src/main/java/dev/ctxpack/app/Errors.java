package dev.ctxpack.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;

/** Maps exceptions to one-line messages and exit codes. */
public final class Errors {
  private Errors() {}

  public static int exitCode(Throwable t) {
    if (t instanceof dev.ctxpack.pack.InsufficientEvidenceException) return ExitCodes.INSUFFICIENT;
    if (t instanceof UsageException || t instanceof IllegalArgumentException) return ExitCodes.USAGE;
    return ExitCodes.FAILURE;
  }

  public static String message(Throwable t) {
    if (t instanceof NoSuchFileException e) return e.getFile() + ": no such file";
    if (t instanceof UncheckedIOException e && e.getCause() != null) return message(e.getCause());
    String m = t.getMessage();
    if (m == null || m.isBlank()) m = t.getClass().getSimpleName();
    if (t instanceof IOException && !(t instanceof java.nio.file.FileSystemException) && t.getCause() != null
        && t.getMessage() == null) {
      m = message(t.getCause());
    }
    return m.replace('\n', ' ');
  }
}
