package dev.ctxpack.compress;

/**
 * Options of one compression. {@code budget}: the most tokens the kept text of all passages may
 * take together (each passage counted as its rendered text, kept spans joined by {@code " … "}); 0
 * for no budget. {@code threshold}: keep only sentences scoring at least this (NaN for none); with
 * both, the best sentences above the threshold until the budget. {@code keepPredecessor}: a kept
 * sentence that leans on the one before (a leading pronoun or connective) brings it along. {@code
 * clauses}: when the best sentence left is longer than what remains of the budget, keep its best
 * clause-aligned part that fits rather than nothing. {@code relative}: with a threshold, the
 * threshold becomes a gate on the request's best sentence, and what is kept is every sentence
 * scoring at least this share of the best (0 for none): a request whose best sentence is likely to
 * hold the answer also sends the sentences nearly as likely, and one whose best is not sends
 * nothing ({@link #line(double)}). {@code cover}: with a relative line, a second way through the
 * gate for a request whose best sentence falls under it ({@link Cover}); {@link Cover#NONE} for none.
 */
public record CompressOptions(int budget, double threshold, boolean keepPredecessor, boolean clauses, double relative,
    Cover cover) {
  /**
   * A request whose best sentence scores under the gate but at least {@code floor}, and whose
   * passage holding it covers at least {@code coverage} of the query's IDF-weighted terms, passes
   * the gate as if its best sentence had cleared it: the evidence speaks about what the question
   * asks, even though no one sentence of it looks likely to answer.
   */
  public record Cover(double floor, double coverage) {
    /** No second way through the gate. */
    public static final Cover NONE = new Cover(1, Double.NaN);

    public Cover {
      if (!(floor >= 0 && floor <= 1)) throw new IllegalArgumentException("cover floor must be in [0, 1], was " + floor);
      if (!Double.isNaN(coverage) && !(coverage >= 0 && coverage <= 1)) {
        throw new IllegalArgumentException("coverage must be in [0, 1], was " + coverage);
      }
    }

    /** Whether a best sentence scoring {@code best} under the gate is to have its passage's coverage read. */
    public boolean consulted(double best) {
      return !Double.isNaN(coverage) && best >= floor;
    }
  }

  public CompressOptions {
    if (cover == null) cover = Cover.NONE;
    if (budget < 0) throw new IllegalArgumentException("budget must be >= 0 (0 for none), was " + budget);
    if (!(relative >= 0 && relative <= 1)) throw new IllegalArgumentException("relative line must be in [0, 1], was " + relative);
    if (budget == 0 && Double.isNaN(threshold)) {
      throw new IllegalArgumentException("give a budget, a threshold or both");
    }
  }

  /** Options without a relative line. */
  public CompressOptions(int budget, double threshold, boolean keepPredecessor, boolean clauses) {
    this(budget, threshold, keepPredecessor, clauses, 0, Cover.NONE);
  }

  /** Options without a second way through the gate. */
  public CompressOptions(int budget, double threshold, boolean keepPredecessor, boolean clauses, double relative) {
    this(budget, threshold, keepPredecessor, clauses, relative, Cover.NONE);
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
    return new CompressOptions(budget, min, keepPredecessor, clauses, relative, cover);
  }

  /** With a threshold as the gate, keep the sentences scoring at least {@code share} of the request's best. */
  public CompressOptions withRelative(double share) {
    return new CompressOptions(budget, threshold, keepPredecessor, clauses, share, cover);
  }

  /** With a relative line, let a request through the gate by its best passage's coverage of the query ({@link Cover}). */
  public CompressOptions withCover(Cover c) {
    return new CompressOptions(budget, threshold, keepPredecessor, clauses, relative, c);
  }

  public CompressOptions withKeepPredecessor(boolean on) {
    return new CompressOptions(budget, threshold, on, clauses, relative, cover);
  }

  public CompressOptions withClauses(boolean on) {
    return new CompressOptions(budget, threshold, keepPredecessor, on, relative, cover);
  }

  /**
   * The line a request's sentences must clear, given its best sentence's score: with a relative
   * line, the threshold is a gate (a best sentence below it keeps nothing) and, once the best clears
   * it, every sentence scoring at least {@code relative} of the best is eligible; without one, the
   * threshold itself (NaN when there is none).
   */
  public double line(double best) {
    return line(best, false);
  }

  /**
   * The line given the best sentence's score and whether its passage covered the query enough to
   * pass the gate ({@link Cover}): a covered request is let through as if its best had cleared it.
   */
  public double line(double best, boolean covered) {
    if (Double.isNaN(threshold) || relative == 0 || !(best >= threshold || covered)) return threshold;
    return relative * best;
  }
}
