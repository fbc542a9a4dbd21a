package dev.ctxpack.assemble;

/**
 * What must be sent (pinned components, pinned tools and turns, and the floors) does not fit the
 * window less the reserve. The message names each part and its tokens.
 */
public final class PinnedOverLimitException extends IllegalArgumentException {
  private final int limit;
  private final int required;

  public PinnedOverLimitException(int limit, int required, String parts) {
    super("the pinned parts and floors alone take " + required + " tokens, over the limit of " + limit + " (" + parts
        + "): unpin or shorten one, lower a floor, or raise the window or lower the reserve");
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
