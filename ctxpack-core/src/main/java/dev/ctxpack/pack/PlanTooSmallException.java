package dev.ctxpack.pack;

/** The limit cannot hold a plan's step with the least it reads: no plan of that strategy fits. */
public final class PlanTooSmallException extends IllegalArgumentException {
  public PlanTooSmallException(String message) {
    super(message);
  }
}
