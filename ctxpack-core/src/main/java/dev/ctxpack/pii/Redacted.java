package dev.ctxpack.pii;

import java.util.List;

/**
 * A text with its PII replaced, and the offset map between the two. {@code redactions} are in text
 * order and do not overlap. Offsets outside any placeholder map one to one (shifted by the length
 * differences before them); an offset inside a placeholder maps to the start of the original value,
 * and an offset inside an original value maps to the start of its placeholder.
 *
 * <pre>{@code
 * Redacted r = new PiiRedactor(RedactionOptions.all()).session().redact("Mail ana@x.org now");
 * r.text();            // "Mail [EMAIL_1] now"
 * r.toOriginal(15);    // 14: "now" starts at 15 in the redacted text, 14 in the original
 * }</pre>
 */
public record Redacted(String original, String text, List<Redaction> redactions) {
  public Redacted {
    redactions = List.copyOf(redactions);
  }

  /** The original offset of {@code offset} in the redacted text, in {@code [0, text.length()]}. */
  public int toOriginal(int offset) {
    if (offset < 0 || offset > text.length()) {
      throw new IllegalArgumentException("offset " + offset + " is outside the redacted text of length " + text.length());
    }
    int shift = 0;
    for (Redaction r : redactions) {
      if (offset < r.redactedStart()) break;
      if (offset < r.redactedEnd()) return r.start();
      shift = r.end() - r.redactedEnd();
    }
    return offset + shift;
  }

  /** The redacted offset of {@code offset} in the original text, in {@code [0, original.length()]}. */
  public int toRedacted(int offset) {
    if (offset < 0 || offset > original.length()) {
      throw new IllegalArgumentException("offset " + offset + " is outside the original text of length " + original.length());
    }
    int shift = 0;
    for (Redaction r : redactions) {
      if (offset < r.start()) break;
      if (offset < r.end()) return r.redactedStart();
      shift = r.redactedEnd() - r.end();
    }
    return offset + shift;
  }
}
