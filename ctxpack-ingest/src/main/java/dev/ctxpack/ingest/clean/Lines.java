package dev.ctxpack.ingest.clean;

import dev.ctxpack.text.TextNormalizer;
import java.util.regex.Pattern;

/** How lines are compared and which lines repetition may remove. */
final class Lines {
  private Lines() {}

  private static final Pattern DIGITS = Pattern.compile("\\p{Nd}+");
  /** A page number line: "Page 3", "Página 3 de 10", "p. 3", "3 / 10", "— 3 —" (after {@link #key}); not a bare "3". */
  private static final Pattern PAGE_NUMBER = Pattern.compile(
      "[-–—|\\s]*(?:(?:page|pages|página|pagina|pág\\.?|pag\\.?|pg\\.?|p\\.)\\s*0(?:\\s*(?:of|de|/)\\s*0)?"
          + "|0\\s*(?:of|de|/)\\s*0|[-–—]\\s*0\\s*[-–—])[-–—|\\s]*");
  /** A numbered heading ("2 Methods", "3.1 Study design", "IV. Results"): never repeated boilerplate. */
  private static final Pattern NUMBERED_HEADING = Pattern.compile("\\s*(?:\\d+(?:\\.\\d+)*\\.?|[IVXLC]+\\.)\\s+\\p{Lu}.*");

  /**
   * The form lines are compared in: NFKC, lower case, every run of digits {@code 0}, whitespace
   * collapsed and trimmed. "Page 3 of 10" and "page 4 of 10" have the same key.
   */
  static String key(String line) {
    String folded = TextNormalizer.fold(line);
    boolean digit = false;
    for (int i = 0; i < folded.length() && !digit; i++) digit = Character.isDigit(folded.charAt(i));
    if (digit) folded = DIGITS.matcher(folded).replaceAll("0");
    return TextNormalizer.collapseWhitespace(folded);
  }

  /** A line compared with its digits: NFKC, lower case, whitespace collapsed and trimmed. */
  static String exactKey(String line) {
    return TextNormalizer.collapseWhitespace(TextNormalizer.fold(line));
  }

  /**
   * The numbers of a line's runs of digits (of its NFKC form, as {@link #key} sees them), in order;
   * -1 for a run of more than 15 digits.
   */
  static long[] numbers(String line) {
    java.util.regex.Matcher m = DIGITS.matcher(TextNormalizer.fold(line));
    java.util.List<Long> out = new java.util.ArrayList<>();
    while (m.find()) {
      String run = m.group();
      long v = run.codePointCount(0, run.length()) > 15 ? -1 : 0;
      for (int i = 0; v >= 0 && i < run.length(); ) {
        int cp = run.codePointAt(i);
        i += Character.charCount(cp);
        v = v * 10 + Math.max(0, Character.digit(cp, 10));
      }
      out.add(v);
    }
    long[] a = new long[out.size()];
    for (int i = 0; i < a.length; i++) a[i] = out.get(i);
    return a;
  }

  /**
   * The form lines are compared in within one document: {@link #key} for page number lines, else
   * with the digits kept, so table rows that differ only in their figures are not taken for a
   * repeated line.
   */
  static String documentKey(String raw, String key) {
    return pageNumber(key) ? key : TextNormalizer.collapseWhitespace(TextNormalizer.fold(raw));
  }

  /** A stable 64-bit hash of a key (FNV-1a over its chars, then a SplitMix64 finaliser). */
  static long hash(String key) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < key.length(); i++) {
      h ^= key.charAt(i);
      h *= 0x100000001b3L;
    }
    h ^= h >>> 30;
    h *= 0xbf58476d1ce4e5b9L;
    h ^= h >>> 27;
    h *= 0x94d049bb133111ebL;
    return h ^ (h >>> 31);
  }

  private static final Pattern BARE_NUMBER = Pattern.compile("[-–—|\\s]*(\\p{Nd}{1,4})[-–—|\\s]*");

  /** The number of a line that is only a number, maybe between dashes ("12", "— 12 —"), else -1. */
  static int bareNumber(String raw) {
    java.util.regex.Matcher m = BARE_NUMBER.matcher(raw.strip());
    return m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }

  /** Whether the key is a page number line that says so ("page 0", "0 of 0"; a bare number is not). */
  static boolean pageNumber(String key) {
    return PAGE_NUMBER.matcher(key).matches();
  }

  /**
   * Whether a line may be removed for repeating (in the corpus or in its document): its key is at
   * most {@code maxChars} long and has two words with letters, or is a page number line; and the
   * raw line is not structure: a table row ({@code |…}), indented code, or a numbered heading.
   */
  static boolean repeatable(String raw, String key, int maxChars) {
    if (key.isEmpty() || key.length() > maxChars) return false;
    if (structural(raw)) return false;
    return pageNumber(key) || wordsWithLetters(key) >= 2;
  }

  static boolean structural(String raw) {
    if (raw.startsWith("    ") || raw.startsWith("\t")) return true;
    String t = raw.strip();
    return t.startsWith("|") || NUMBERED_HEADING.matcher(t).matches();
  }

  private static int wordsWithLetters(String key) {
    int words = 0;
    boolean inWord = false;
    boolean letter = false;
    for (int i = 0; i <= key.length(); i++) {
      char c = i < key.length() ? key.charAt(i) : ' ';
      if (c == ' ') {
        if (inWord && letter) words++;
        inWord = false;
        letter = false;
      } else {
        inWord = true;
        letter |= Character.isLetter(c);
      }
    }
    return words;
  }

  /** Whether a line opens or closes a fenced code block. */
  static boolean fence(String raw) {
    String t = raw.stripLeading();
    return t.startsWith("```") || t.startsWith("~~~");
  }
}
