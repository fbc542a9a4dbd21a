package dev.ctxpack.compress;

/** Why a span of the input was not kept. */
public enum DropReason {
  /** Scored below the on-topic line, or by a scorer without one, not kept. */
  OFF_TOPIC("off-topic"),
  /**
   * Below the request's relevance line (a threshold given with the budget, {@code pack}'s {@code
   * --min-relevance}): less likely to hold the answer than the line asks, however much room is left.
   */
  BELOW_RELEVANCE("below-relevance"),
  /** On topic, but the budget was spent on better sentences. */
  BUDGET("budget"),
  /** Navigation, menus, buttons, breadcrumbs: text of the page's interface. */
  NAVIGATION("navigation"),
  /** Advertising and promotions. */
  ADS("ads"),
  /** Bylines, dates, share counts, reading times, tags: lines about the document. */
  METADATA("metadata"),
  /** Cookie notices, copyright and legal notices, subscription prompts. */
  BOILERPLATE("boilerplate"),
  /** The same sentence was kept (or dropped) earlier in the request, or recurs across the corpus. */
  DUPLICATE("duplicate");

  private final String key;

  DropReason(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }
}
