package dev.ctxpack.verify;

import java.util.Locale;

/**
 * Whether a quoted extract is in the source it cites, verbatim up to white space, quote marks,
 * dashes and case (an ellipsis, {@code …}, {@code ...} or {@code [...]}, stands for text left out:
 * the parts must occur in order in one source).
 *
 * @param quote the quote as found in the answer
 * @param status verbatim, or the kind of misquote
 * @param source where the extract is verbatim (a cited source, or for {@link Status#OTHER_SOURCE}
 *     the given source that holds it), else the source of the closest span; null when no source
 *     shares a word with it
 * @param closest the real span of {@code source}: the extract itself, or the text closest to it
 *     (null when none)
 * @param similarity the share of the extract's words the closest span matches in order (1 when
 *     verbatim)
 */
public record QuoteCheck(Quote quote, Status status, String source, Evidence closest, double similarity) {
  /** What a quote is. */
  public enum Status {
    /** In a cited source (or, for a quote citing nothing, in a given source), verbatim. */
    VERBATIM,
    /** Not verbatim anywhere, but close to a span of a given source: a word changed, added or left out. */
    ALTERED,
    /** Verbatim in a given source it does not cite. */
    OTHER_SOURCE,
    /** In no given source, verbatim or nearly: at most half of its words match any span in order. */
    NO_SOURCE;

    /** The name used in JSON: {@code verbatim}, {@code altered}, {@code other-source}, {@code no-source}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** True unless the extract is verbatim in a source it cites. */
  public boolean misquote() {
    return status != Status.VERBATIM;
  }
}
