package dev.ctxpack.model;

/**
 * The work was stopped before it finished ({@link Deadline#check()}): its thread was interrupted,
 * or it passed its deadline. Nothing it was computing is returned; a caller that set the deadline
 * answers its own time-out (the HTTP service: 503 {@code timeout}).
 */
public final class WorkCancelledException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final boolean interrupted;

  public WorkCancelledException(boolean interrupted) {
    super(interrupted ? "the work was interrupted before it finished" : "the work passed its deadline before it finished");
    this.interrupted = interrupted;
  }

  /** True when a thread interrupt stopped it, false when its deadline did. */
  public boolean interrupted() {
    return interrupted;
  }
}
