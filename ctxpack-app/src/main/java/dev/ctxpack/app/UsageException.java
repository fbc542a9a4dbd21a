package dev.ctxpack.app;

/** Bad input from the user (a flag, a request field): exit code 2 on the command line, 400 from the service. */
public final class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message);
  }
}
