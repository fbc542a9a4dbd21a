package dev.ctxpack.model;

/**
 * A request asks for more work than a cap on work allows (e.g. the sentence comparisons of dedup,
 * the sentences of compress or verify): bad input like any other over a cap, whose message names
 * what was counted, the value reached and the cap. The HTTP service answers it 422 {@code
 * too_much_work}; a {@code --batch} line gets it as its error.
 */
public final class WorkLimitException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String what;
  private final long value;
  private final long limit;

  /**
   * @param what what is counted, plural ("sentence comparisons")
   * @param value the count reached (when counting stopped at the cap, the first count over it)
   * @param limit the cap
   * @param atLeast true when {@code value} is where counting stopped, not the whole count
   * @param hint how to raise the cap, appended in parentheses when not empty
   */
  public WorkLimitException(String what, long value, long limit, boolean atLeast, String hint) {
    super(String.format(java.util.Locale.ROOT, "the request needs %s%,d %s; at most %,d are accepted per request%s",
        atLeast ? "more than " : "", atLeast ? limit : value, what, limit, hint == null || hint.isEmpty() ? "" : " (" + hint + ")"));
    this.what = what;
    this.value = value;
    this.limit = limit;
  }

  public String what() {
    return what;
  }

  public long value() {
    return value;
  }

  public long limit() {
    return limit;
  }
}
