package dev.ctxpack.app;

/** Bad input from the user: exit code 2. */
final class UsageException extends RuntimeException {
  UsageException(String message) {
    super(message);
  }
}
