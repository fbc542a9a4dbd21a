package dev.ctxpack.pack;

/** The budget cannot hold even the instructions and the query. */
public final class BudgetTooSmallException extends IllegalArgumentException {
  private final int limit;
  private final int required;

  public BudgetTooSmallException(int limit, int required) {
    super("budget of " + limit + " tokens is too small: the instructions and the query alone take "
        + required + " tokens");
    this.limit = limit;
    this.required = required;
  }

  public int limit() {
    return limit;
  }

  public int required() {
    return required;
  }
}
