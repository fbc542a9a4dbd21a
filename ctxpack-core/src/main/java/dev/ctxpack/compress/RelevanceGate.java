package dev.ctxpack.compress;

/**
 * The relevance line as a compression gate: one definition of "the sources answer this" for {@code
 * pack}, which compresses its evidence with these options ({@code PackOptions.Relevance} gives its
 * defaults and options here), and {@code verify}, which reads the same gate over the sources to
 * judge an abstention ({@link ExtractiveCompressor#gate}). A request's evidence passes when its best
 * sentence (not noise, a repeat or off the query's topic) is at least the line likely to hold the
 * answer, or at least {@link #COVERED_SHARE} of the line with its passage covering the coverage
 * needed of the query's IDF-weighted terms; then every sentence at least the relative line's share
 * as likely as that best one is eligible.
 */
public final class RelevanceGate {
  /** The default line, chosen on the FIT half of the relevance evaluation (docs/BENCHMARKS.md). */
  public static final double DEFAULT_LINE = 0.14;
  /** The default relative line, chosen with {@link #DEFAULT_LINE}. */
  public static final double DEFAULT_RELATIVE = 0.1;
  /** The default coverage that lets a best sentence under the default line through it (FIT half). */
  public static final double DEFAULT_COVERAGE = 0.4;
  /** The share of the line a best sentence needs for its passage's coverage to be read at all. */
  public static final double COVERED_SHARE = 0.6;
  /** The default, for a line or a coverage. */
  public static final double AUTO = Double.NaN;
  /** A coverage no passage reaches: the line alone decides. */
  public static final double NO_COVER = Double.POSITIVE_INFINITY;

  private RelevanceGate() {}

  /** {@code p}, checked as a line: {@link #AUTO} or in [0, 1]; the error names it {@code name}. */
  public static double checkLine(double p, String name) {
    if (!Double.isNaN(p) && !(p >= 0 && p <= 1)) throw new IllegalArgumentException(name + " must be in [0, 1], was " + p);
    return p;
  }

  /** {@code c}, checked as a coverage: {@link #AUTO}, {@link #NO_COVER} or in [0, 1]; the error names it {@code name}. */
  public static double checkCoverage(double c, String name) {
    if (!Double.isNaN(c) && c != NO_COVER && !(c >= 0 && c <= 1)) {
      throw new IllegalArgumentException(name + " must be in [0, 1], was " + c);
    }
    return c;
  }

  /** The line a request uses: {@code minRelevance}, or the default for {@link #AUTO}. */
  public static double line(double minRelevance) {
    return Double.isNaN(minRelevance) ? DEFAULT_LINE : minRelevance;
  }

  /**
   * The coverage that lets a request under the line through it: {@code coverage}, or for {@link
   * #AUTO} the default with the default line and {@link #NO_COVER} with a line set by hand (so a
   * hand-set line means what it says).
   */
  public static double coverageNeeded(double minRelevance, double coverage) {
    if (!Double.isNaN(coverage)) return coverage;
    return Double.isNaN(minRelevance) ? DEFAULT_COVERAGE : NO_COVER;
  }

  /**
   * {@code base} with the gate at {@code line} (a line of 0 or less adds none): the line as the
   * threshold, the {@code relative} line, and the second way through it by {@code coverageNeeded}
   * (none above 1), read from {@link #COVERED_SHARE} of the line up.
   */
  public static CompressOptions apply(CompressOptions base, double line, double relative, double coverageNeeded) {
    if (!(line > 0)) return base;
    CompressOptions o = base.withThreshold(line).withRelative(relative);
    return coverageNeeded <= 1 ? o.withCover(new CompressOptions.Cover(COVERED_SHARE * line, coverageNeeded)) : o;
  }
}
