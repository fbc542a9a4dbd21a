package dev.ctxpack.text;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Splits text into sentences for Portuguese and English, returning spans that exclude surrounding
 * whitespace. Rules, in order:
 *
 * <ol>
 *   <li>a blank line always ends a sentence; so does a line break before a list item or heading,
 *       and after a heading or a line ending in terminal punctuation;
 *   <li>{@code ! ? …} (and runs such as {@code ?!}) end a sentence before whitespace and a capital,
 *       digit or opening quote; {@code ! ?} also before a lower-case word (web text that does not
 *       capitalise: "how are they alike? and different?");
 *   <li>{@code .} ends a sentence before whitespace and an upper-case letter, digit, or opening
 *       quote, unless the word before it is a known abbreviation of the text's language ({@code
 *       Dr.}, {@code Sra.}, {@code e.g.}; both languages' when it is UNKNOWN), a single-letter
 *       initial, a list number opening its line, or an abbreviation such as {@code Fig.}, {@code
 *       No.} or {@code pág.} followed by a number. Before a lower-case word it ends one only after an
 *       ordinary word: not after a number, a known or vowel-less abbreviation, a word holding a
 *       period, a capitalised word of two letters ("Ae. aegypti") or an abbreviated weekday;
 *   <li>Portuguese: {@code :} ends a sentence before a quotation of eight words or more opened by a
 *       quote or dash ("Explica o ministro: «Os principais clientes…»");
 *   <li>without punctuation ({@link UnpunctuatedBoundaries}): a headline run into its lead ("Festival
 *       começa hoje Mais de 20 filmes…", before a capitalised article, pronoun or preposition
 *       followed by a lower-case word), after a drawn rule ({@code =====}), an emoticon, or a
 *       letter's closing formula ("Regards,").
 * </ol>
 *
 * Closing quotes and brackets after the terminator stay with the sentence. Stateless and
 * thread-safe. Measured against UD English-EWT and Portuguese-Bosque (docs/BENCHMARKS.md, "Sentence
 * segmentation"); every rule is tuned on the FIT half of their documents only.
 */
public final class SentenceSegmenter {
  /** Abbreviations of both languages: titles and Latin. */
  private static final Set<String> COMMON = Set.of(
      "dr", "prof", "sr", "e.g", "i.e", "al", "cf", "approx", "ca", "jan", "jun", "jul", "mar", "nov");
  private static final Set<String> ENGLISH = Set.of(
      "mr", "mrs", "ms", "jr", "st", "vs", "inc", "ltd", "co", "corp", "dept", "est", "feb", "apr",
      "aug", "sep", "sept", "oct", "dec", "u.s", "u.k", "u.n", "gen", "gov", "rep", "sen", "rev", "mt",
      "ph.d", "m.d", "b.sc", "m.sc", "a.m", "p.m", "resp", "viz", "ed", "eds", "univ", "assoc");
  /** Portuguese only: several ("out", "set", "ex", "id") are everyday English words. */
  private static final Set<String> PORTUGUESE = Set.of(
      "sra", "srs", "sras", "dra", "dras", "profa", "exmo", "exma", "av", "ex", "obs", "sto", "sta",
      "eng", "adv", "séc", "fev", "abr", "mai", "ago", "set", "out", "dez", "ltda", "cia", "dir", "esq",
      "coord", "op", "cit", "aprox", "v.g", "p.ex", "ib", "id", "pe", "fr", "d", "s.a");
  private static final Pattern DOTTED_ACRONYM = Pattern.compile("(\\p{L}\\.)+\\p{L}");
  /**
   * Abbreviated weekdays, which are words too ("ter", "sex", "sun"): abbreviations only where a
   * lower-case word follows ("sáb. e dom.", "Sat. and Sun.").
   */
  private static final Set<String> WEEKDAYS = Set.of(
      "seg", "ter", "qua", "qui", "sex", "sáb", "dom", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri",
      "sat", "sun");
  /**
   * Abbreviations written before a number ("Fig. 3", "No. 5", "pág. 12", "Cap. IV"). Some are words
   * too ("no", "art", "cap"), so they hold only where a number follows.
   */
  private static final Set<String> BEFORE_NUMBERS = Set.of(
      "no", "nos", "fig", "figs", "eq", "eqs", "ref", "refs", "vol", "vols", "pp", "art", "arts", "cap",
      "pág", "págs", "nº", "n.º", "núm", "tel", "fl", "fls");

  /** Segments {@code text}; the language only refines abbreviations and may be UNKNOWN. */
  public List<Span> split(String text, Language language) {
    List<Span> out = new ArrayList<>();
    int n = text.length();
    int start = skipSpace(text, 0);
    int i = start;
    while (i < n) {
      char c = text.charAt(i);
      if (c > ' ' && c < 0x80 && c != '.' && c != '!' && c != '?' && c != ':') {
        i++; // printable ASCII that decides nothing: most characters
        continue;
      }
      if (c == '\n' && lineBreakEnds(text, start, i)) {
        emit(text, start, i, out);
        start = skipSpace(text, i + 1);
        i = start;
        continue;
      }
      if (c == ' ' && i + 1 < n) {
        char d = text.charAt(i + 1);
        if (d >= 'a' && d <= 'z') {
          char b = text.charAt(i - 1); // i > 0: the text was trimmed at the start
          if ((b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == ',' || b == ';') {
            i += 2; // a word after a word: the common case, decided without the rules
            continue;
          }
        }
      }
      if (isSpace(c)) {
        int next = i + 1;
        while (next < n && text.charAt(next) != '\n' && isSpace(text.charAt(next))) next++;
        if (next < n && text.charAt(next) == '\n') {
          // the line break decides (blank lines, headings, list items), then the words around it
          int after = skipSpace(text, next);
          if (after < n && i > start && !isSpace(text.charAt(i - 1)) && !lineBreakEnds(text, start, next)
              && UnpunctuatedBoundaries.endsAt(text, start, i, after, language)) {
            emit(text, start, i, out);
            start = after;
            i = after;
            continue;
          }
          i = next;
          continue;
        }
        if (next < n && i > start && !isSpace(text.charAt(i - 1)) && UnpunctuatedBoundaries.endsAt(text, start, i, next, language)) {
          emit(text, start, i, out);
          start = next;
        }
        i = next;
        continue;
      }
      if (c == ':' && language == Language.PT && i + 1 < n && isSpace(text.charAt(i + 1))) {
        int next = skipSpace(text, i + 1);
        if (next < n && opensLongQuotation(text, next)) {
          emit(text, start, i + 1, out);
          start = next;
          i = next;
          continue;
        }
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
        boolean ends;
        if (c == '.' && j == i + 1) ends = periodEnds(text, start, i, next, language);
        else if (c == '!' || c == '?') ends = startsSentence(text.charAt(next)) || Character.isLowerCase(text.charAt(next));
        else ends = startsSentence(text.charAt(next));
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

  private static boolean periodEnds(String text, int sentenceStart, int dot, int next, Language language) {
    boolean lower = Character.isLowerCase(text.charAt(next));
    if (!lower && !startsSentence(text.charAt(next))) return false;
    int ws = dot;
    while (ws > sentenceStart && !isSpace(text.charAt(ws - 1)) && text.charAt(ws - 1) != '(') ws--;
    String word = text.substring(ws, dot).toLowerCase(Locale.ROOT);
    while (!word.isEmpty() && !Character.isLetterOrDigit(word.charAt(0))) word = word.substring(1);
    if (word.isEmpty()) return !lower;
    if (lower && (!lowerCaseMayFollow(word) || BEFORE_NUMBERS.contains(word) || WEEKDAYS.contains(word)
        || (word.length() == 2 && Character.isUpperCase(text.charAt(dot - 2))))) {
      return false; // a short capitalised word is an abbreviation here ("Ae. aegypti", "St. louis")
    }
    if (BEFORE_NUMBERS.contains(word)) return !numberAt(text, next);
    if (COMMON.contains(word)) return false;
    if (language != Language.PT && ENGLISH.contains(word)) return false;
    if (language != Language.EN && PORTUGUESE.contains(word)) return false;
    // Single-letter initials (J. Smith) and dotted acronyms (U.S.A.) do not end sentences.
    if (word.length() == 1 && Character.isLetter(word.charAt(0))) {
      return false;
    }
    if (DOTTED_ACRONYM.matcher(word).matches()) return false;
    // An ordinal that opens its line is a numbered-list marker ("1. Download the file").
    if (word.length() <= 3 && word.chars().allMatch(Character::isDigit) && opensLine(text, ws)) return false;
    return true;
  }

  /**
   * Whether a sentence may end at the period after {@code word} although the next word is in lower
   * case (web text that does not capitalise): not after a word ending in a digit ("v1.", "3."),
   * holding a period ("e.g", "a.m"), without a vowel ("vs", "pp"), of one letter, or "etc".
   */
  private static boolean lowerCaseMayFollow(String word) {
    if (word.length() < 2 || word.indexOf('.') >= 0 || word.equals("etc")) return false;
    if (!Character.isLetter(word.charAt(word.length() - 1))) return false;
    for (int k = 0; k < word.length(); k++) if ("aeiouyáéíóúâêôãõàü".indexOf(word.charAt(k)) >= 0) return true;
    return false;
  }

  /**
   * An opening quote or a dash ({@code " “ « ‘ —} or {@code --}) at {@code i} whose quotation runs
   * for {@value #LONG_QUOTATION} words or more before a closing quote or line break: a quoted
   * passage introduced by a colon ("Explica o ministro: «Os principais clientes são…»") is its own
   * sentence, a short quoted question or exclamation ("Ela perguntou: “Você vem?”") stays with its
   * introduction.
   */
  private static boolean opensLongQuotation(String text, int i) {
    char c = text.charAt(i);
    int k = i + 1;
    if (c == '-' && k < text.length() && text.charAt(k) == '-') k++;
    else if (c != '"' && c != '“' && c != '«' && c != '‘' && c != '—') return false;
    int words = 0;
    boolean inWord = false;
    for (int limit = Math.min(text.length(), k + 400); k < limit; k++) {
      char d = text.charAt(k);
      if (d == '\n' || d == '"' || d == '”' || d == '»' || d == '’') return false;
      boolean space = isSpace(d);
      if (!space && !inWord && ++words >= LONG_QUOTATION) return true;
      inWord = !space;
    }
    return false;
  }

  /** Words a quotation after a colon must reach to stand as a sentence of its own. */
  private static final int LONG_QUOTATION = 8;

  /** A digit, or a Roman numeral of two letters or more, or V, X, L, C, D, M alone ("Cap. IV"). */
  private static boolean numberAt(String text, int i) {
    if (Character.isDigit(text.charAt(i))) return true;
    int j = i;
    while (j < text.length() && "IVXLCDM".indexOf(text.charAt(j)) >= 0) j++;
    if (j == i || (j < text.length() && Character.isLetter(text.charAt(j)))) return false;
    return j - i >= 2 || text.charAt(i) != 'I';
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

  static boolean isCloser(char c) {
    return c == '"' || c == '\'' || c == '”' || c == '’' || c == ')' || c == ']' || c == '»' || c == '}';
  }

  /** The whitespace sentences are trimmed of: Java whitespace plus the no-break spaces. */
  public static boolean isSpace(char c) {
    if (c > ' ' && c < 0x80) return false; // printable ASCII, the common case, without a table look-up
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
