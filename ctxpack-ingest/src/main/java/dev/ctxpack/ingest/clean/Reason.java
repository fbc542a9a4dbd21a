package dev.ctxpack.ingest.clean;

import java.util.Locale;

/** Why cleaning changed a span. The first four are recorded one by one; the last two only counted. */
public enum Reason {
  /** A line at the top of many pages of the document (a running head). */
  PAGE_HEADER,
  /** A line at the bottom of many pages of the document (a page number, a running foot). */
  PAGE_FOOTER,
  /** A short line repeated across many documents of the corpus, or many times in one document. */
  REPEATED_LINE,
  /** A match of a {@code --remove} pattern. */
  REGEX,
  /** Runs of spaces and tabs, trailing spaces, extra blank lines, CR line endings (counted only). */
  WHITESPACE,
  /** Unicode NFC composition and a leading byte-order mark (counted only). */
  UNICODE;

  /** The name in JSON and in the summary's {@code cleaned} map, e.g. {@code page-header}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Whether each span removed for this reason is recorded with its text (else only counted). */
  public boolean recorded() {
    return this != WHITESPACE && this != UNICODE;
  }
}
