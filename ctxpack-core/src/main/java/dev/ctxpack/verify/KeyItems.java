package dev.ctxpack.verify;

import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A claim's key items — numbers (with unit, percent, currency; "six" is 6), names and months — and
 * how they are found in the cited sources: a number as written or as the same digits ("1,500"
 * against "1500" or "1 500"), a name or month as a word. Also tells two numbers of the same kind
 * apart for the contradiction check, and gives an item back as the claim writes it for the
 * {@code missing} list and the feedback. Stateless.
 */
final class KeyItems {
  private KeyItems() {}

  private static final Pattern STANDALONE_NUMBER = Pattern.compile("(?<![\\p{L}\\p{N}])\\d+(?:[.,:/-]\\d+)*");

  private static final Pattern NUMERIC_KEY = Pattern.compile("(?:r\\$|us\\$|\\$|€|£)?\\s?\\d");

  private static final Pattern WRITTEN_NUMBER = Pattern.compile("\\d+(?:[.,:/-]\\d+)*");

  private static final Map<String, String> NUMBER_WORDS = Map.ofEntries(
      Map.entry("two", "2"), Map.entry("three", "3"), Map.entry("four", "4"), Map.entry("five", "5"),
      Map.entry("six", "6"), Map.entry("seven", "7"), Map.entry("eight", "8"), Map.entry("nine", "9"),
      Map.entry("ten", "10"), Map.entry("eleven", "11"), Map.entry("twelve", "12"), Map.entry("twenty", "20"),
      Map.entry("dois", "2"), Map.entry("duas", "2"), Map.entry("tres", "3"), Map.entry("quatro", "4"),
      Map.entry("cinco", "5"), Map.entry("seis", "6"), Map.entry("sete", "7"), Map.entry("oito", "8"),
      Map.entry("nove", "9"), Map.entry("dez", "10"), Map.entry("onze", "11"), Map.entry("doze", "12"),
      Map.entry("vinte", "20"));

  // Compiled once: these run for every number of every claim.
  private static final java.util.regex.Pattern NON_DIGITS = java.util.regex.Pattern.compile("[^0-9]");
  private static final java.util.regex.Pattern LEADING_NON_DIGITS = java.util.regex.Pattern.compile("^[^0-9]+");
  private static final java.util.regex.Pattern FROM_SPACE_OR_PERCENT = java.util.regex.Pattern.compile("[ %].*$");
  private static final java.util.regex.Pattern YEAR = java.util.regex.Pattern.compile("1[5-9]\\d\\d|20\\d\\d");

  /** The ASCII digits of {@code s}. */
  private static String digits(String s) {
    return NON_DIGITS.matcher(s).replaceAll("");
  }

  /** A number key without what precedes its first digit and from its unit or percent sign on ("r$1.500 km" to "1.500"). */
  private static String core(String key) {
    return FROM_SPACE_OR_PERCENT.matcher(LEADING_NON_DIGITS.matcher(key).replaceAll("")).replaceAll("");
  }

  /**
   * The number cues that {@code text} writes as numbers of their own: the "2" of "M2-like", the "1"
   * of "Dscam1" and the "28" of "CD28" are parts of names, not quantities. Number words pass.
   */
  static List<String> standalone(List<String> numbers, String text) {
    if (numbers.isEmpty()) return numbers;
    Set<String> written = new HashSet<>();
    java.util.regex.Matcher m = STANDALONE_NUMBER.matcher(text);
    while (m.find()) written.add(digits(m.group()));
    List<String> out = new ArrayList<>();
    for (String n : numbers) {
      String digits = digits(core(n));
      if (digits.isEmpty() || written.contains(digits)) out.add(n);
    }
    return out;
  }

  /** Numbers in digits, and small number words as digits ("six" is "6"); multipliers and "half" are left out. */
  static List<String> numbers(List<String> cues) {
    List<String> out = new ArrayList<>();
    for (String n : cues) {
      if (n.chars().anyMatch(Character::isDigit)) out.add(n);
      else if (NUMBER_WORDS.containsKey(n)) out.add(NUMBER_WORDS.get(n));
    }
    return out;
  }

  /** Both percentages, both with the same unit, or both plain; a four-digit year against a year. */
  static boolean sameKind(String a, String b) {
    boolean pa = a.endsWith("%");
    boolean pb = b.endsWith("%");
    if (pa != pb) return false;
    String ua = unit(a);
    String ub = unit(b);
    if (!ua.equals(ub)) return false;
    boolean ya = isYear(a);
    boolean yb = isYear(b);
    return ya == yb;
  }

  private static String unit(String n) {
    int sp = n.indexOf(' ');
    return sp < 0 ? "" : n.substring(sp + 1);
  }

  private static boolean isYear(String n) {
    return YEAR.matcher(n).matches();
  }

  /** True when the sources contain key {@code k}: a number as written (normalised), a name or month as a word. */
  static boolean containsKey(String foldedAll, Set<String> union, String k) {
    if (NUMERIC_KEY.matcher(k).lookingAt()) { // "1.320 km", "r$1.500", "30%"; not a name with digits ("dcr2")
      String core = core(k);
      String alt = core.replace('.', ',');
      return foldedAll.contains(" " + core + " ") || foldedAll.contains(" " + alt + " ")
          || foldedAll.contains(" " + core.replace(".", " ") + " ") || numberIn(foldedAll, core);
    }
    return union.contains(k) || foldedAll.contains(" " + k + " ");
  }

  /** "1,500" in the claim against "1500" or "1 500" in the source: compare digit strings of numbers. */
  private static boolean numberIn(String foldedAll, String core) {
    String digits = digits(core);
    if (digits.isEmpty()) return false;
    int from = 0;
    while ((from = foldedAll.indexOf(digits.charAt(0), from)) >= 0) {
      int e = from;
      StringBuilder sb = new StringBuilder();
      while (e < foldedAll.length() && (Character.isDigit(foldedAll.charAt(e))
          || (foldedAll.charAt(e) == ' ' || foldedAll.charAt(e) == '.' || foldedAll.charAt(e) == ',')
          && e + 1 < foldedAll.length() && Character.isDigit(foldedAll.charAt(e + 1)) && sb.length() > 0)) {
        if (Character.isDigit(foldedAll.charAt(e))) sb.append(foldedAll.charAt(e));
        e++;
      }
      boolean startOk = from == 0 || !Character.isDigit(foldedAll.charAt(from - 1));
      if (startOk && sb.toString().equals(digits)) return true;
      from = Math.max(e, from + 1);
    }
    return false;
  }

  /** The claim's key items that no cited source contains, as the claim writes them. */
  static List<String> missingKeys(ClaimTerms ct, String foldedAll, Set<String> union) {
    List<String> out = new ArrayList<>();
    for (String k : ct.keys()) if (!containsKey(foldedAll, union, k)) out.add(asWritten(k, ct.text()));
    return out;
  }

  /**
   * A number cue ({@code "1.320 km"}, normalised by the guard) as {@code text} writes it ({@code
   * "1,320 km"}); other keys and numbers not found are returned as they are.
   */
  static String asWritten(String key, String text) {
    String core = core(key);
    String digits = digits(core);
    if (digits.isEmpty()) {
      // a name or month: the word of the text that folds to it ("paris" -> "Paris")
      String[] found = {null};
      Terms.scan(text, (term, start) -> {
        if (found[0] == null && term.toString().equals(key)) {
          int end = start;
          while (end < text.length() && Character.isLetterOrDigit(text.charAt(end))) end++;
          found[0] = text.substring(start, end);
        }
      });
      return found[0] != null ? found[0] : key;
    }
    java.util.regex.Matcher m = WRITTEN_NUMBER.matcher(text);
    while (m.find()) {
      if (digits(m.group()).equals(digits)) {
        int at = key.indexOf(core);
        return key.substring(0, at) + m.group() + key.substring(at + core.length());
      }
    }
    return key;
  }

  /** "320" of a missing "1,320 km": a piece of a number already named. */
  static boolean partOfMissingNumber(String term, List<String> missing) {
    if (!term.chars().allMatch(Character::isDigit)) return false;
    for (String m : missing) if (m.chars().anyMatch(Character::isDigit) && m.matches(".*\\b" + term + "\\b.*")) return true;
    return false;
  }
}
