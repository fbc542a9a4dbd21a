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
  /** {@link #text}'s characters (and maybe more after them), read by {@link #letters}. */
  private final char[] chars;
  /** The text this was folded from and how, to map offsets back on demand; null for a compact form. */
  private final String source;
  private final boolean lines;
  private int[] starts;
  private int[] ends;

  private FoldedText(String text, char[] chars, String source, boolean lines, int[] starts, int[] ends) {
    this.text = text;
    this.chars = chars;
    this.source = source;
    this.lines = lines;
    this.starts = starts;
    this.ends = ends;
  }

  static FoldedText of(String s) {
    return of(s, false);
  }

  /**
   * With {@code lines}, a whitespace run holding a line break folds to {@code \n}, so {@code ^} and
   * {@code $} work. The offsets are worked out only when asked for (most texts have no hit to map).
   */
  static FoldedText of(String s, boolean lines) {
    Out out = new Out(s.length(), false);
    fold(s, lines, out);
    return new FoldedText(new String(out.chars, 0, out.n), out.chars, s, lines, null, null);
  }

  /** The folded characters written so far, with each one's span in the original when kept. */
  private static final class Out {
    char[] chars;
    int[] st;
    int[] en;
    int n;

    Out(int length, boolean offsets) {
      chars = new char[length + 8];
      if (offsets) {
        st = new int[length + 8];
        en = new int[length + 8];
      }
    }

    void add(char c, int from, int to) {
      if (n == chars.length) {
        chars = java.util.Arrays.copyOf(chars, n * 2);
        if (st != null) {
          st = java.util.Arrays.copyOf(st, n * 2);
          en = java.util.Arrays.copyOf(en, n * 2);
        }
      }
      chars[n] = c;
      if (st != null) {
        st[n] = from;
        en[n] = to;
      }
      n++;
    }
  }

  private static void fold(String s, boolean lines, Out out) {
    for (int i = 0; i < s.length(); ) {
      char ch = s.charAt(i);
      if (ch < 0x80) {
        if (ch > ' ' || (ch == ' ' && !lines)) {
          // Printable ASCII, folded in place: visible, one char; a plain space is kept once between words.
          if (ch != ' ' || (out.n > 0 && out.chars[out.n - 1] != ' ')) {
            out.add(ch >= 'A' && ch <= 'Z' ? (char) (ch + ('a' - 'A')) : ch, i, i + 1);
          }
        } else {
          add(ch, lines, out, i, i + 1); // a control character or, by lines, a space
        }
        i++;
        continue;
      }
      int cp = Character.isHighSurrogate(ch) ? s.codePointAt(i) : ch;
      int next = i + Character.charCount(cp);
      if (Invisible.kind(cp) == null) {
        String f = folded(cp);
        for (int k = 0; k < f.length(); k++) add(f.charAt(k), lines, out, i, next);
      }
      i = next;
    }
  }

  /** One folded character: whitespace runs become one space (or {@code \n} by lines), none leading. */
  private static void add(char c, boolean lines, Out out, int from, int to) {
    if (Character.isWhitespace(c)) {
      boolean nl = lines && (c == '\n' || c == '\r');
      int n = out.n;
      if (n > 0 && (out.chars[n - 1] == ' ' || out.chars[n - 1] == '\n')) {
        if (nl) out.chars[n - 1] = '\n';
        return;
      }
      if (n == 0 && !nl) return;
      c = nl ? '\n' : ' ';
    }
    out.add(c, from, to);
  }

  /** Fills in the offsets of every folded character, by folding the source again with them kept. */
  private void offsets() {
    if (starts != null) return;
    Out out = new Out(source.length(), true);
    fold(source, lines, out);
    starts = out.st;
    ends = out.en;
  }

  /**
   * The letters only (a-z after folding), for phrases written with gaps; digits that stand for
   * letters ({@code 1gn0r3}: 0 o, 1 i, 3 e, 4 a, 5 s, 7 t) count as those letters.
   */
  FoldedText compact() {
    offsets();
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
    String letters = sb.toString();
    return new FoldedText(letters, letters.toCharArray(), null, false, st, en);
  }

  /** The text of {@link #compact()} alone, without the offsets: what a search for phrases reads first. */
  String letters() {
    char[] out = new char[text.length()];
    int n = 0;
    for (int i = 0; i < out.length; i++) {
      char c = chars[i];
      char l = c < LETTERS.length ? LETTERS[c] : 0;
      out[n] = l; // written always, kept only for a letter: no branch on each character
      n += l == 0 ? 0 : 1;
    }
    return new String(out, 0, n);
  }

  /** For each ASCII character, the letter it counts as in {@link #compact} (0 for none). */
  private static final char[] LETTERS = new char[128];

  static {
    for (char c = 0; c < LETTERS.length; c++) {
      char l = leet(c);
      if (l >= 'a' && l <= 'z') LETTERS[c] = l;
    }
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
    offsets();
    return starts[foldedStart];
  }

  /** The original offset where folded {@code [start, end)} ends ({@code end > start}). */
  int end(int foldedEnd) {
    offsets();
    return ends[foldedEnd - 1];
  }

  /** {@link #fold} of the code points below U+3000, each worked out once (a race only works one out twice). */
  private static final String[] FOLDED = new String[0x3000];

  private static String folded(int cp) {
    if (cp >= FOLDED.length) return fold(cp);
    String f = FOLDED[cp];
    if (f == null) FOLDED[cp] = f = fold(cp);
    return f;
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
