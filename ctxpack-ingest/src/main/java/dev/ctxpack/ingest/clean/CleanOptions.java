package dev.ctxpack.ingest.clean;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How documents are cleaned before they are stored.
 *
 * <ul>
 *   <li>{@code enabled}: false stores the text as loaded (only NFC and LF line endings);
 *   <li>{@code remove}: Java regular expressions whose matches are removed, matched over the whole
 *       text in multi-line mode ({@code ^} and {@code $} match at line breaks; {@code (?i)} folds
 *       case in Unicode, so "PÁGINA" matches "página"); a match that leaves
 *       its line blank removes the line;
 *   <li>{@code repeatedMinDocs}, {@code repeatedMinShare}: a short line is corpus boilerplate when
 *       it occurs in at least this many documents and this share of the documents ingested
 *       together; {@code repeatedMinCorpus}: fewer documents than this in one ingestion and no line
 *       is judged across the corpus (a small batch proves nothing);
 *   <li>{@code repeatsInDocument}: a short line that occurs this many times in one document is
 *       removed from it (0 turns this off);
 *   <li>{@code pageShare}: a line at the top (bottom) of at least this share of a document's pages,
 *       and of two pages at least, is a running head (foot);
 *   <li>{@code maxLineChars}: longer lines are never removed for repeating: prose is not boilerplate.
 * </ul>
 */
public record CleanOptions(
    boolean enabled, List<String> remove, int repeatedMinDocs, double repeatedMinShare, int repeatedMinCorpus,
    int repeatsInDocument, double pageShare, int maxLineChars) {
  public static final int DEFAULT_REPEATED_MIN_DOCS = 5;
  public static final double DEFAULT_REPEATED_MIN_SHARE = 0.05;
  public static final int DEFAULT_REPEATED_MIN_CORPUS = 20;
  public static final int DEFAULT_REPEATS_IN_DOCUMENT = 4;
  public static final double DEFAULT_PAGE_SHARE = 0.4;
  public static final int DEFAULT_MAX_LINE_CHARS = 200;

  public CleanOptions {
    remove = remove == null ? List.of() : List.copyOf(remove);
    for (String r : remove) compile(r);
    if (repeatedMinDocs < 2) throw new IllegalArgumentException("repeatedMinDocs must be >= 2, was " + repeatedMinDocs);
    if (!(repeatedMinShare >= 0 && repeatedMinShare <= 1)) {
      throw new IllegalArgumentException("repeatedMinShare must be in [0, 1], was " + repeatedMinShare);
    }
    if (repeatedMinCorpus < 2) throw new IllegalArgumentException("repeatedMinCorpus must be >= 2, was " + repeatedMinCorpus);
    if (repeatsInDocument != 0 && repeatsInDocument < 2) {
      throw new IllegalArgumentException("repeatsInDocument must be 0 or >= 2, was " + repeatsInDocument);
    }
    if (!(pageShare > 0 && pageShare <= 1)) throw new IllegalArgumentException("pageShare must be in (0, 1], was " + pageShare);
    if (maxLineChars < 1) throw new IllegalArgumentException("maxLineChars must be >= 1, was " + maxLineChars);
  }

  /** Cleaning on, with the defaults and no patterns. */
  public static CleanOptions defaults() {
    return new CleanOptions(true, List.of(), DEFAULT_REPEATED_MIN_DOCS, DEFAULT_REPEATED_MIN_SHARE,
        DEFAULT_REPEATED_MIN_CORPUS, DEFAULT_REPEATS_IN_DOCUMENT, DEFAULT_PAGE_SHARE, DEFAULT_MAX_LINE_CHARS);
  }

  /** Cleaning off ({@code --no-clean}). */
  public static CleanOptions off() {
    return defaults().withEnabled(false);
  }

  public CleanOptions withEnabled(boolean on) {
    return new CleanOptions(on, remove, repeatedMinDocs, repeatedMinShare, repeatedMinCorpus, repeatsInDocument,
        pageShare, maxLineChars);
  }

  public CleanOptions withRemove(List<String> patterns) {
    return new CleanOptions(enabled, patterns, repeatedMinDocs, repeatedMinShare, repeatedMinCorpus,
        repeatsInDocument, pageShare, maxLineChars);
  }

  public CleanOptions withRepeated(int minDocs, double minShare, int minCorpus) {
    return new CleanOptions(enabled, remove, minDocs, minShare, minCorpus, repeatsInDocument, pageShare, maxLineChars);
  }

  public CleanOptions withRepeatsInDocument(int n) {
    return new CleanOptions(enabled, remove, repeatedMinDocs, repeatedMinShare, repeatedMinCorpus, n, pageShare,
        maxLineChars);
  }

  /** Whether lines are compared across the corpus, so ingestion needs its pre-pass over the files. */
  public boolean needsCorpus() {
    return enabled;
  }

  /** A {@code remove} pattern compiled as cleaning uses it (multi-line), or an error naming it. */
  static Pattern compile(String regex) {
    try {
      return Pattern.compile(regex, Pattern.MULTILINE | Pattern.UNICODE_CASE);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("remove pattern '" + regex + "' is not a valid regular expression: "
          + e.getDescription() + (e.getIndex() >= 0 ? " near index " + e.getIndex() : ""));
    }
  }
}
