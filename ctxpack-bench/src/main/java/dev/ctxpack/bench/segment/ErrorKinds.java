package dev.ctxpack.bench.segment;

import dev.ctxpack.text.SentenceSegmenter;
import java.util.Locale;
import java.util.Set;

/**
 * Kinds of segmentation errors, judged from the text around a boundary (offsets are normalised
 * boundaries, see {@link Boundaries}).
 *
 * <p>A <b>missed</b> gold boundary is, in this order of precedence:
 *
 * <ul>
 *   <li>{@code no-terminal}: the gold sentence, without its trailing closing quotes and brackets,
 *       does not end with {@code . ! ? …} (sub-kinds: {@code colon/semicolon}, {@code other punct},
 *       {@code word});
 *   <li>{@code quote/bracket}: it does, and a closing quote or bracket follows the terminator, or
 *       the next sentence opens with a quote or bracket, or the boundary lies inside an unclosed
 *       bracket or quotation of the paragraph (more {@code ( [ “ «} than closers before it, or an odd
 *       number of {@code "} before it);
 *   <li>{@code terminal}: it ends with {@code . ! ? …} otherwise (sub-kinds, why a period-based
 *       rule would pass over it: {@code next lower-case}, {@code ellipsis} ({@code ..}, {@code ...}, {@code …}), {@code
 *       abbreviation-like} (the word before the period, see {@link #abbreviationLike}), {@code other}).
 * </ul>
 *
 * <p>A <b>false</b> boundary (predicted, not gold) is judged by the text before it, without
 * trailing closing quotes and brackets: {@code ellipsis} ({@code ..}, {@code ...} or {@code …}); after a single
 * {@code .}: {@code number} (the word before the period ends with a digit), {@code abbreviation}
 * ({@link #abbreviationLike}), else {@code other} (sub-kind {@code period}); {@code other} with
 * sub-kind {@code ! ?} or {@code no punctuation} otherwise.
 */
public final class ErrorKinds {
  private ErrorKinds() {}

  public static final String NO_TERMINAL = "no-terminal";
  public static final String QUOTE_BRACKET = "quote/bracket";
  public static final String TERMINAL = "terminal";
  public static final String ABBREVIATION = "abbreviation";
  public static final String NUMBER = "number";
  public static final String ELLIPSIS = "ellipsis";
  public static final String OTHER = "other";

  /** A kind and a finer sub-kind. */
  public record Kind(String kind, String sub) {}

  /**
   * Abbreviations beyond shape: common English and Portuguese ones with vowels (the shapes below
   * catch {@code Mr}, {@code Dr}, {@code Ltd}, {@code U.S}...).
   */
  static final Set<String> KNOWN = Set.of(
      "etc", "inc", "co", "corp", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
      "nov", "dec", "no", "nos", "vol", "fig", "sra", "prof", "profa", "gov", "gen", "sen", "rep", "ave",
      "approx", "aprox", "dept", "est", "min", "max", "tel", "ex", "av", "pág", "cap", "art", "nº", "ed",
      "eds", "univ", "assoc", "op", "cit", "al", "ca", "cf", "vs", "fev", "abr", "mai", "ago", "set",
      "out", "dez", "cia", "eng", "obs", "sto", "sta", "dra", "exmo", "exma", "séc", "ltda", "esq", "dir",
      "coord", "adv", "rev", "mt", "ft", "oz", "lb", "lbs", "hrs", "mins", "sec", "secs", "ext", "capt", "col",
      "maj", "pres", "supt", "asst", "mgr", "dep");

  /**
   * The word before a period looks like an abbreviation: a single letter, letters with inner periods
   * ({@code U.S}, {@code a.m}), letters without a vowel ({@code Mr}, {@code Ltd}), or one of {@link
   * #KNOWN} (case-insensitive).
   */
  public static boolean abbreviationLike(String word) {
    if (word.isEmpty()) return false;
    String w = word.toLowerCase(Locale.ROOT);
    if (w.length() == 1) return Character.isLetter(w.charAt(0));
    if (w.matches("(\\p{L}+\\.)+\\p{L}+")) return true;
    if (!w.chars().allMatch(Character::isLetter)) return false;
    if (w.chars().noneMatch(c -> "aeiouyáéíóúâêôãõàü".indexOf(c) >= 0)) return true;
    return KNOWN.contains(w);
  }

  /** The word before offset {@code dot} (back to whitespace), without leading quotes and brackets. */
  static String wordBefore(String text, int dot) {
    int ws = dot;
    while (ws > 0 && !SentenceSegmenter.isSpace(text.charAt(ws - 1))) ws--;
    String w = text.substring(ws, dot);
    int k = 0;
    while (k < w.length() && !Character.isLetterOrDigit(w.charAt(k))) k++;
    return w.substring(k);
  }

  static boolean isTerminator(char c) {
    return c == '.' || c == '!' || c == '?' || c == '…';
  }

  static boolean isCloser(char c) {
    return c == '"' || c == '\'' || c == '”' || c == '’' || c == ')' || c == ']' || c == '»' || c == '}';
  }

  static boolean isOpener(char c) {
    return c == '"' || c == '\'' || c == '“' || c == '‘' || c == '(' || c == '[' || c == '«' || c == '{';
  }

  /** The raw end before boundary {@code b}: {@code b} moved back over whitespace. */
  static int rawEnd(String text, int b) {
    int e = b;
    while (e > 0 && SentenceSegmenter.isSpace(text.charAt(e - 1))) e--;
    return e;
  }

  /** The kind of a missed gold boundary {@code b} of {@code text}, whose sentence starts at {@code sentenceStart}. */
  public static Kind missed(String text, int sentenceStart, int b) {
    int e = rawEnd(text, b);
    int t = e;
    while (t > sentenceStart && isCloser(text.charAt(t - 1))) t--;
    boolean closed = t < e;
    if (t == sentenceStart || !isTerminator(text.charAt(t - 1))) {
      char last = t > sentenceStart ? text.charAt(t - 1) : ' ';
      String sub = last == ':' || last == ';' ? "colon/semicolon"
          : Character.isLetterOrDigit(last) ? "word" : "other punct";
      return new Kind(NO_TERMINAL, sub);
    }
    boolean opens = b < text.length() && isOpener(text.charAt(b));
    if (closed || opens || insideQuoteOrBracket(text, b)) {
      return new Kind(QUOTE_BRACKET, closed ? "closer after terminator" : opens ? "next opens with quote/bracket" : "inside quote/bracket");
    }
    char term = text.charAt(t - 1);
    boolean nextLower = b < text.length() && Character.isLowerCase(text.charAt(b));
    String sub;
    if (nextLower) {
      sub = term == '!' || term == '?' ? "next lower-case after ! ?" : "next lower-case after . …";
    } else if (term == '…' || (t - 2 >= sentenceStart && text.startsWith("..", t - 2))) {
      sub = "ellipsis";
    } else if (term == '.' && abbreviationLike(wordBefore(text, t - 1))) {
      sub = "abbreviation-like";
    } else {
      sub = "other";
    }
    return new Kind(TERMINAL, sub);
  }

  /** More openers than closers of ( [ “ « before {@code b}, or an odd number of ASCII double quotes. */
  static boolean insideQuoteOrBracket(String text, int b) {
    int round = 0;
    int square = 0;
    int curly = 0;
    int guillemet = 0;
    int straight = 0;
    for (int i = 0; i < b; i++) {
      switch (text.charAt(i)) {
        case '(' -> round++;
        case ')' -> round--;
        case '[' -> square++;
        case ']' -> square--;
        case '“' -> curly++;
        case '”' -> curly--;
        case '«' -> guillemet++;
        case '»' -> guillemet--;
        case '"' -> straight++;
        default -> { }
      }
    }
    return round > 0 || square > 0 || curly > 0 || guillemet > 0 || straight % 2 == 1;
  }

  /** The kind of a false boundary {@code b} of {@code text}. */
  public static Kind falseBoundary(String text, int b) {
    int e = rawEnd(text, b);
    int t = e;
    while (t > 0 && isCloser(text.charAt(t - 1))) t--;
    if (t == 0) return new Kind(OTHER, "no punctuation");
    char c = text.charAt(t - 1);
    if (c == '…' || (t >= 2 && text.startsWith("..", t - 2))) {
      return new Kind(ELLIPSIS, c == '…' ? "…" : t >= 3 && text.startsWith("...", t - 3) ? "..." : "..");
    }
    if (c == '.') {
      String w = wordBefore(text, t - 1);
      if (!w.isEmpty() && Character.isDigit(w.charAt(w.length() - 1))) return new Kind(NUMBER, "number");
      if (abbreviationLike(w)) return new Kind(ABBREVIATION, "abbreviation");
      return new Kind(OTHER, "period");
    }
    if (c == '!' || c == '?') return new Kind(OTHER, "! ?");
    return new Kind(OTHER, "no punctuation");
  }
}
