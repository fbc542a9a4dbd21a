package dev.ctxpack.compress;

/**
 * Options of one compression. {@code budget}: the most tokens the kept text of all passages may
 * take together (each passage counted as its rendered text, kept spans joined by {@code " … "}); 0
 * for no budget. {@code threshold}: keep only sentences scoring at least this (NaN for none); with
 * both, the best sentences above the threshold until the budget. {@code keepPredecessor}: a kept
 * sentence that leans on the one before (a leading pronoun or connective) brings it along. {@code
 * clauses}: when the best sentence left is longer than what remains of the budget, keep its best
 * clause-aligned part that fits rather than nothing.
 */
public record CompressOptions(int budget, double threshold, boolean keepPredecessor, boolean clauses) {
  public CompressOptions {
    if (budget < 0) throw new IllegalArgumentException("budget must be >= 0 (0 for none), was " + budget);
    if (budget == 0 && Double.isNaN(threshold)) {
      throw new IllegalArgumentException("give a budget, a threshold or both");
    }
  }

  /** The best sentences until {@code tokens}, predecessors and clause cuts on. */
  public static CompressOptions budget(int tokens) {
    if (tokens <= 0) throw new IllegalArgumentException("budget must be > 0, was " + tokens);
    return new CompressOptions(tokens, Double.NaN, true, true);
  }

  /** Every sentence scoring at least {@code min}, however many tokens. */
  public static CompressOptions threshold(double min) {
    if (Double.isNaN(min)) throw new IllegalArgumentException("threshold must be a number");
    return new CompressOptions(0, min, true, false);
  }

  public CompressOptions withThreshold(double min) {
    return new CompressOptions(budget, min, keepPredecessor, clauses);
  }

  public CompressOptions withKeepPredecessor(boolean on) {
    return new CompressOptions(budget, threshold, on, clauses);
  }

  public CompressOptions withClauses(boolean on) {
    return new CompressOptions(budget, threshold, keepPredecessor, on);
  }
}
