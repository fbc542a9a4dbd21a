package dev.ctxpack.app;

/** Exit codes of docs/API.md. */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int FAILURE = 1;
  public static final int USAGE = 2;
  /** {@code pack --on-insufficient fail} (and {@code assemble}'s): no evidence cleared the relevance line. */
  public static final int INSUFFICIENT = 3;

  private ExitCodes() {}
}
