package dev.ctxpack.guard;

import java.text.Normalizer;
import java.util.Locale;

/**
 * A text folded for matching, with the offset of every folded character in the original: invisible
 * characters dropped ({@link Invisible}), compatibility forms decomposed (fullwidth and mathematical
 * letters become ASCII), accents removed, a few Cyrillic and Greek look-alikes mapped to Latin,
 * lower case, whitespace runs as one space. {@link #compact} keeps only the letters, so that
 * "i g n o r e" and "ig-nore" read "ignore".
 */
final class FoldedText {
  final String text;
  private final int[] starts;
  private final int[] ends;

  private FoldedText(String text, int[] starts, int[] ends) {
    this.text = text;
    this.starts = starts;
    this.ends = ends;
  }

  static FoldedText of(String s) {
    return of(s, false);
  }

  /** With {@code lines}, a whitespace run holding a line break folds to {@code \n}, so {@code ^} and {@code $} work. */
  static FoldedText of(String s, boolean lines) {
    StringBuilder sb = new StringBuilder(s.length());
    int[] st = new int[s.length() + 8];
    int[] en = new int[s.length() + 8];
    int n = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      int next = i + Character.charCount(cp);
      if (cp < 0x80 && (cp > ' ' || (cp == ' ' && !lines))) {
        // Printable ASCII, folded in place: visible, one char; a plain space is kept once between words.
        if (cp != ' ' || (n > 0 && sb.charAt(n - 1) != ' ')) {
          if (n == st.length) {
            st = java.util.Arrays.copyOf(st, n * 2);
            en = java.util.Arrays.copyOf(en, n * 2);
          }
          sb.append(cp >= 'A' && cp <= 'Z' ? (char) (cp + ('a' - 'A')) : (char) cp);
          st[n] = i;
          en[n] = next;
          n++;
        }
        i = next;
        continue;
      }
      if (Invisible.kind(cp) == null) {
        String f = fold(cp);
        for (int k = 0; k < f.length(); k++) {
          char c = f.charAt(k);
          if (Character.isWhitespace(c)) {
            boolean nl = lines && (c == '\n' || c == '\r');
            if (n > 0 && (sb.charAt(n - 1) == ' ' || sb.charAt(n - 1) == '\n')) {
              if (nl) sb.setCharAt(n - 1, '\n');
              continue;
            }
            if (n == 0 && !nl) continue;
            c = nl ? '\n' : ' ';
          }
          if (n == st.length) {
            st = java.util.Arrays.copyOf(st, n * 2);
            en = java.util.Arrays.copyOf(en, n * 2);
          }
          sb.append(c);
          st[n] = i;
          en[n] = next;
          n++;
        }
      }
      i = next;
    }
    return new FoldedText(sb.toString(), st, en);
  }

  /**
   * The letters only (a-z after folding), for phrases written with gaps; digits that stand for
   * letters ({@code 1gn0r3}: 0 o, 1 i, 3 e, 4 a, 5 s, 7 t) count as those letters.
   */
  FoldedText compact() {
    StringBuilder sb = new StringBuilder(text.length());
    int[] st = new int[text.length()];
    int[] en = new int[text.length()];
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = leet(text.charAt(i));
      if (c >= 'a' && c <= 'z') {
        sb.append(c);
        st[n] = starts[i];
        en[n] = ends[i];
        n++;
      }
    }
    return new FoldedText(sb.toString(), st, en);
  }

  /** The text of {@link #compact()} alone, without the offsets: what a search for phrases reads first. */
  String letters() {
    char[] out = new char[text.length()];
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = leet(text.charAt(i));
      if (c >= 'a' && c <= 'z') out[n++] = c;
    }
    return new String(out, 0, n);
  }

  private static char leet(char c) {
    return switch (c) {
      case '0' -> 'o';
      case '1' -> 'i';
      case '3' -> 'e';
      case '4' -> 'a';
      case '5' -> 's';
      case '7' -> 't';
      case '@' -> 'a';
      case '$' -> 's';
      default -> c;
    };
  }

  /** The original offset where folded {@code [start, end)} begins. */
  int start(int foldedStart) {
    return starts[foldedStart];
  }

  /** The original offset where folded {@code [start, end)} ends ({@code end > start}). */
  int end(int foldedEnd) {
    return ends[foldedEnd - 1];
  }

  private static String fold(int cp) {
    if (cp < 0x80) return String.valueOf((char) Character.toLowerCase(cp));
    String mapped = confusable(cp);
    if (mapped != null) return mapped;
    String d = Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFKD);
    StringBuilder sb = new StringBuilder(d.length());
    for (int k = 0; k < d.length(); ) {
      int c = d.codePointAt(k);
      k += Character.charCount(c);
      int type = Character.getType(c);
      if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK) continue;
      String m = confusable(c);
      sb.append(m != null ? m : new String(Character.toChars(c)).toLowerCase(Locale.ROOT));
    }
    return sb.toString();
  }

  /** Cyrillic and Greek letters that look like Latin ones, and the full-width bar. */
  private static String confusable(int cp) {
    return switch (cp) {
      case 0x0430, 0x0410, 0x03B1, 0x0391 -> "a";
      case 0x0435, 0x0415, 0x03B5, 0x0395 -> "e";
      case 0x043E, 0x041E, 0x03BF, 0x039F -> "o";
      case 0x0440, 0x0420, 0x03C1, 0x03A1 -> "p";
      case 0x0441, 0x0421 -> "c";
      case 0x0443, 0x0423, 0x03C5 -> "y";
      case 0x0445, 0x0425, 0x03C7, 0x03A7 -> "x";
      case 0x0456, 0x0406, 0x03B9, 0x0399 -> "i";
      case 0x0458, 0x0408 -> "j";
      case 0x0455, 0x0405 -> "s";
      case 0x0422, 0x03A4, 0x03C4 -> "t";
      case 0x041D, 0x0397 -> "h";
      case 0x041C, 0x039C -> "m";
      case 0x041A, 0x039A, 0x03BA -> "k";
      case 0x0412, 0x0392 -> "b";
      case 0x03BD, 0x039D -> "n";
      default -> null;
    };
  }
}
