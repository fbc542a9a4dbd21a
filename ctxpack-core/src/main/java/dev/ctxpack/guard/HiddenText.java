package dev.ctxpack.guard;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Text a reader of the document does not see but a model reads: HTML comments that hold words
 * (a Markdown or HTML page renders them as nothing) and base64 runs that decode to readable text.
 * Neither needs an instruction's wording to be found, so an order hidden this way is flagged
 * whatever it says.
 */
final class HiddenText {
  private HiddenText() {}

  /** Words a comment must hold to be flagged: a few words are a note to the page's tools, not prose. */
  static final int COMMENT_WORDS = 4;
  /** The shortest base64 run looked at (15 bytes decoded). */
  static final int BASE64_MIN = 20;
  /** Words the decoded text must hold. */
  static final int DECODED_WORDS = 4;
  private static final int COMMENT_MAX = 4_000;

  /** HTML comments ({@code <!-- ... -->}, or unclosed to the end) holding {@value #COMMENT_WORDS} words or more. */
  static void comments(String text, List<InjectionDetector.Hit> hits) {
    for (int at = text.indexOf("<!--"); at >= 0; at = text.indexOf("<!--", at + 4)) {
      int close = text.indexOf("-->", at + 4);
      int end = close < 0 ? text.length() : close + 3;
      String body = text.substring(at + 4, Math.min(close < 0 ? text.length() : close, at + 4 + COMMENT_MAX));
      if (!pragma(body) && words(body) >= COMMENT_WORDS) hits.add(new InjectionDetector.Hit("hidden.html-comment", "hidden", at, end));
      if (close < 0) break;
      at = close - 1;
    }
  }

  /** A directive to an editor's tool ({@code markdownlint-disable}, {@code prettier-ignore}, {@code toc}...). */
  private static boolean pragma(String body) {
    String first = body.strip().split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
    return first.contains("lint") || first.startsWith("prettier") || first.startsWith("cspell") || first.startsWith("spell")
        || first.equals("toc") || first.startsWith("vale");
  }

  /** Base64 runs (standard or URL-safe alphabet) that decode to UTF-8 text of {@value #DECODED_WORDS} words or more. */
  static void base64(String text, List<InjectionDetector.Hit> hits) {
    int n = text.length();
    for (int i = 0; i < n; ) {
      if (!alphabet(text.charAt(i)) || (i > 0 && alphabet(text.charAt(i - 1)))) {
        i++;
        continue;
      }
      int j = i;
      while (j < n && alphabet(text.charAt(j))) j++;
      int end = j;
      while (end < n && end - j < 2 && text.charAt(end) == '=') end++;
      if (j - i >= BASE64_MIN && readable(decode(text.substring(i, j)))) {
        hits.add(new InjectionDetector.Hit("hidden.base64", "hidden", i, end));
      }
      i = end;
    }
  }

  private static boolean alphabet(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '-' || c == '_';
  }

  /** The bytes of a run, or {@code null} when it is not base64 (mixed alphabets, bad length). */
  private static byte[] decode(String run) {
    boolean standard = run.indexOf('+') >= 0 || run.indexOf('/') >= 0;
    boolean url = run.indexOf('-') >= 0 || run.indexOf('_') >= 0;
    if (standard && url) return null;
    // A word-like run (letters only, or a hyphenated compound) has no digit nor case change to mark it as code.
    if (run.chars().noneMatch(Character::isDigit) && run.chars().noneMatch(Character::isUpperCase)) return null;
    if (run.length() % 4 == 1) return null;
    String padded = run + "==".substring(0, (4 - run.length() % 4) % 4);
    try {
      return (url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(padded);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Valid UTF-8 of printable characters, mostly letters, with {@value #DECODED_WORDS} words or more. */
  static boolean readable(byte[] bytes) {
    if (bytes == null || bytes.length < 12) return false;
    String s;
    try {
      s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return false;
    }
    int letters = 0;
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') return false;
      if (Character.isLetter(c)) letters++;
    }
    return letters * 10 >= s.length() * 6 && words(s) >= DECODED_WORDS;
  }

  /** Runs of two letters or more. */
  private static int words(String s) {
    int words = 0;
    int run = 0;
    for (int k = 0; k <= s.length(); k++) {
      if (k < s.length() && Character.isLetter(s.charAt(k))) {
        run++;
      } else {
        if (run >= 2) words++;
        run = 0;
      }
    }
    return words;
  }
}
