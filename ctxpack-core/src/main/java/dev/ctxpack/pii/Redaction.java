package dev.ctxpack.pii;

/**
 * One value replaced: {@code [start, end)} in the original text, {@code [redactedStart,
 * redactedEnd)} where its placeholder stands in the redacted text.
 */
public record Redaction(PiiType type, String placeholder, int start, int end, int redactedStart, int redactedEnd) {
  public Redaction {
    if (start < 0 || end <= start) throw new IllegalArgumentException("bad original span [" + start + ", " + end + ")");
    if (redactedEnd - redactedStart != placeholder.length()) {
      throw new IllegalArgumentException("placeholder " + placeholder + " does not fill [" + redactedStart + ", " + redactedEnd + ")");
    }
  }
}
