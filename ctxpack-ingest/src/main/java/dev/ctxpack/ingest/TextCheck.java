package dev.ctxpack.ingest;

import java.util.Locale;

/**
 * Whether decoded bytes are text at all: {@link Binary} catches NUL bytes, signatures and control
 * bytes, but high-byte garbage has none of them and decodes (as Windows-1252, where every byte is
 * some character) into hundreds of chunks of junk. Judged over the decoded text's non-whitespace
 * characters, once there are at least {@link #MIN_CHARS} of them (a few characters prove nothing):
 *
 * <ul>
 *   <li>more than 10 % U+FFFD (invalid bytes replaced), or more than 10 % control characters;
 *   <li>for bytes that are not UTF-8 and were read as Windows-1252 without a declaration ({@link
 *       TextDecoding.Decoded#guessedLegacy()}): more than half the characters outside ASCII, or
 *       more than 10 % outside ASCII of which fewer than 60 % stand next to an ASCII letter. Text
 *       in a language written in that charset is mostly ASCII (Portuguese, rich in accents, has
 *       about 5 % accented letters) and its accented letters sit inside words ({@code ação}, {@code
 *       à}), its typographic quotes at word edges; in garbage, high bytes stand next to each other.
 *       A declared charset (a Cyrillic page that says windows-1251) is not held to this, but
 *       undeclared Cyrillic or Greek in its legacy 8-bit charset is refused here rather than
 *       stored as Windows-1252 mojibake.
 * </ul>
 */
final class TextCheck {
  static final int MIN_CHARS = 64;
  private static final double MAX_REPLACED = 0.10;
  private static final double MAX_CONTROL = 0.10;
  private static final double MAX_NON_ASCII_GUESSED = 0.50;
  private static final double JUDGED_NON_ASCII_GUESSED = 0.10;
  private static final double MIN_BESIDE_LETTER_GUESSED = 0.60;

  private TextCheck() {}

  /** Why {@code d} is not text, or null when it is. */
  static String whyNot(TextDecoding.Decoded d) {
    String t = d.text();
    long chars = 0;
    long replaced = 0;
    long control = 0;
    long nonAscii = 0;
    long besideLetter = 0;
    int previous = ' ';
    for (int i = 0; i < t.length(); ) {
      int cp = t.codePointAt(i);
      i += Character.charCount(cp);
      int next = i < t.length() ? t.codePointAt(i) : ' ';
      if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
        previous = cp;
        continue;
      }
      chars++;
      if (cp == 0xFFFD) replaced++;
      else if (Character.getType(cp) == Character.CONTROL && cp != 0x1B) control++;
      if (cp > 0x7F) {
        nonAscii++;
        if (asciiLetter(previous) || asciiLetter(next)) besideLetter++;
      }
      previous = cp;
    }
    if (chars < MIN_CHARS) return null;
    if (replaced > chars * MAX_REPLACED) {
      return pct(replaced, chars) + " of its characters replace invalid bytes (U+FFFD)";
    }
    if (control > chars * MAX_CONTROL) return pct(control, chars) + " of its characters are control characters";
    if (d.guessedLegacy()) {
      if (nonAscii > chars * MAX_NON_ASCII_GUESSED) {
        return pct(nonAscii, chars) + " of its characters are outside ASCII, yet its bytes are not UTF-8: "
            + "neither UTF-8 nor Windows-1252 (Latin-1) text";
      }
      if (nonAscii > chars * JUDGED_NON_ASCII_GUESSED && besideLetter < nonAscii * MIN_BESIDE_LETTER_GUESSED) {
        return pct(nonAscii, chars) + " of its characters are outside ASCII and only " + pct(besideLetter, nonAscii)
            + " of those stand next to an ASCII letter, yet its bytes are not UTF-8: neither UTF-8 nor Windows-1252 "
            + "(Latin-1) text";
      }
    }
    return null;
  }

  private static boolean asciiLetter(int c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  /** Refuses {@code d} read from {@code file} ({@link Rejected.Reason#NOT_TEXT}) unless it is text. */
  static TextDecoding.Decoded require(java.nio.file.Path file, TextDecoding.Decoded d) throws Rejected {
    String why = whyNot(d);
    if (why != null) throw new Rejected(Rejected.Reason.NOT_TEXT, file + ": not text (" + why + "); skipped");
    return d;
  }

  private static String pct(long part, long whole) {
    return String.format(Locale.ROOT, "%.0f%%", 100.0 * part / whole);
  }
}
