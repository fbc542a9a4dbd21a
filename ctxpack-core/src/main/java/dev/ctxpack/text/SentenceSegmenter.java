package dev.ctxpack.text;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits text into sentences for Portuguese and English, returning spans that exclude surrounding
 * whitespace. Rules, in order:
 *
 * <ol>
 *   <li>a blank line always ends a sentence; so does a line break before a list item or heading,
 *       and after a heading or a line ending in terminal punctuation;
 *   <li>{@code ! ? …} (and runs such as {@code ?!}) end a sentence before whitespace;
 *   <li>{@code .} ends a sentence before whitespace and an upper-case letter, digit, or opening
 *       quote, unless the word before it is a known abbreviation of either language ({@code Dr.},
 *       {@code Sra.}, {@code e.g.}, {@code pág.}...), a single-letter initial, or an ordinal.
 * </ol>
 *
 * Closing quotes and brackets after the terminator stay with the sentence. Stateless and
 * thread-safe.
 */
public final class SentenceSegmenter {
  private static final Set<String> ABBREVIATIONS = Set.of(
      // English
      "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "e.g", "i.e", "fig", "figs", "eq",
      "eqs", "ref", "refs", "no", "nos", "vol", "vols", "pp", "al", "approx", "inc", "ltd", "co",
      "corp", "dept", "est", "cf", "ca", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
      "sept", "oct", "nov", "dec", "u.s", "u.k", "u.n", "gen", "gov", "rep", "sen", "rev", "mt",
      "ph.d", "m.d", "b.sc", "m.sc", "a.m", "p.m", "resp", "viz", "ed", "eds", "univ", "assoc",
      // Portuguese
      "sra", "srs", "sras", "dra", "dras", "profa", "exmo", "exma", "av", "pág", "págs", "cap",
      "art", "arts", "nº", "n.º", "núm", "tel", "ex", "obs", "sto", "sta", "eng", "adv", "séc",
      "fev", "abr", "mai", "ago", "set", "out", "dez", "ltda", "cia", "fl", "fls", "dir", "esq",
      "coord", "op", "cit", "aprox", "v.g", "p.ex", "ib", "id", "pe", "fr", "d", "s.a");

  /** Segments {@code text}; the language only refines abbreviations and may be UNKNOWN. */
  public List<Span> split(String text, Language language) {
    List<Span> out = new ArrayList<>();
    int n = text.length();
    int start = skipSpace(text, 0);
    int i = start;
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n') {
        if (lineBreakEnds(text, start, i)) {
          emit(text, start, i, out);
          start = skipSpace(text, i + 1);
          i = start;
          continue;
        }
        i++;
        continue;
      }
      if (c == '!' || c == '?' || c == '…' || c == '.') {
        int j = i + 1;
        while (j < n && isTerminator(text.charAt(j))) j++;
        while (j < n && isCloser(text.charAt(j))) j++;
        if (j >= n) {
          i = j;
          break;
        }
        if (!isSpace(text.charAt(j))) {
          i = j;
          continue;
        }
        int next = skipSpace(text, j);
        if (next >= n) {
          i = j;
          break;
        }
        boolean ends = c == '.' && j == i + 1
            ? periodEnds(text, start, i, next)
            : startsSentence(text.charAt(next));
        if (ends) {
          emit(text, start, j, out);
          start = next;
          i = next;
          continue;
        }
        i = j;
        continue;
      }
      i++;
    }
    emit(text, start, n, out);
    return out;
  }

  private static boolean lineBreakEnds(String text, int sentenceStart, int nl) {
    int n = text.length();
    int next = nl + 1;
    // blank line: only whitespace up to another newline
    int k = next;
    while (k < n && text.charAt(k) != '\n' && isSpace(text.charAt(k))) k++;
    if (k < n && text.charAt(k) == '\n') return true;
    if (k >= n) return true;
    if (startsBlock(text, k)) return true;
    int lineStart = text.lastIndexOf('\n', nl - 1) + 1;
    int ls = Math.max(lineStart, sentenceStart);
    while (ls < nl && isSpace(text.charAt(ls))) ls++;
    if (ls < nl && (text.charAt(ls) == '#' || startsBlock(text, ls))) return true;
    int le = nl;
    while (le > ls && isSpace(text.charAt(le - 1))) le--;
    if (le > ls) {
      char last = text.charAt(le - 1);
      if (last == ':' || last == '!' || last == '?' || last == '…') return true;
      if (last == '.') return true;
      if (isCloser(last) && le - 2 >= ls && isTerminator(text.charAt(le - 2))) return true;
    }
    return false;
  }

  private static boolean startsBlock(String text, int k) {
    char c = text.charAt(k);
    if (c == '#' || c == '>' || c == '|') return true;
    if ((c == '-' || c == '*' || c == '+' || c == '•') && k + 1 < text.length() && text.charAt(k + 1) == ' ') {
      return true;
    }
    int j = k;
    while (j < text.length() && j - k < 3 && Character.isDigit(text.charAt(j))) j++;
    return j > k && j + 1 < text.length() && (text.charAt(j) == '.' || text.charAt(j) == ')')
        && text.charAt(j + 1) == ' ';
  }

  private static boolean periodEnds(String text, int sentenceStart, int dot, int next) {
    if (!startsSentence(text.charAt(next))) return false;
    int ws = dot;
    while (ws > sentenceStart && !isSpace(text.charAt(ws - 1)) && text.charAt(ws - 1) != '(') ws--;
    String word = text.substring(ws, dot).toLowerCase(Locale.ROOT);
    while (!word.isEmpty() && !Character.isLetterOrDigit(word.charAt(0))) word = word.substring(1);
    if (word.isEmpty()) return true;
    if (ABBREVIATIONS.contains(word)) return false;
    // Single-letter initials (J. Smith) and dotted acronyms (U.S.A.) do not end sentences.
    if (word.length() == 1 && Character.isLetter(word.charAt(0))) {
      return false;
    }
    if (word.matches("(\\p{L}\\.)+\\p{L}")) return false;
    // An ordinal that opens its line is a numbered-list marker ("1. Download the file").
    if (word.length() <= 3 && word.chars().allMatch(Character::isDigit) && opensLine(text, ws)) return false;
    return true;
  }

  private static boolean opensLine(String text, int i) {
    while (i > 0 && text.charAt(i - 1) != '\n' && isSpace(text.charAt(i - 1))) i--;
    return i == 0 || text.charAt(i - 1) == '\n';
  }

  private static boolean startsSentence(char c) {
    return Character.isUpperCase(c) || Character.isDigit(c) || c == '"' || c == '\'' || c == '“'
        || c == '‘' || c == '«' || c == '(' || c == '[' || c == '¿' || c == '¡' || c == '—' || c == '-'
        || Character.isTitleCase(c) || (Character.isLetter(c) && !Character.isLowerCase(c));
  }

  private static boolean isTerminator(char c) {
    return c == '.' || c == '!' || c == '?' || c == '…';
  }

  private static boolean isCloser(char c) {
    return c == '"' || c == '\'' || c == '”' || c == '’' || c == ')' || c == ']' || c == '»' || c == '}';
  }

  private static boolean isSpace(char c) {
    return Character.isWhitespace(c) || c == '\u00A0' || c == '\u2007' || c == '\u202F';
  }

  private static int skipSpace(String text, int i) {
    while (i < text.length() && isSpace(text.charAt(i))) i++;
    return i;
  }

  private static void emit(String text, int start, int end, List<Span> out) {
    while (end > start && isSpace(text.charAt(end - 1))) end--;
    while (start < end && isSpace(text.charAt(start))) start++;
    if (end > start) out.add(new Span(start, end));
  }
}
