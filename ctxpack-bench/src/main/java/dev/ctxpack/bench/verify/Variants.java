package dev.ctxpack.bench.verify;

import dev.ctxpack.model.Language;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The answers the citation-error evaluation verifies, built from one true sentence of a source:
 * the sentence cited correctly, and each kind of error a model makes when citing. Every function is
 * pure and deterministic (randomness comes from the {@link Random} passed in, seeded per unit and
 * kind by the caller); {@code null} means the variant does not apply to this sentence.
 */
public final class Variants {
  /** The kinds, in report order. */
  public enum Kind {
    /** The sentence verbatim, citing its source: must be {@code supported}. */
    CORRECT("correct"),
    /** The clause of the sentence that holds the answer, alone, citing its source: a correct shorter claim. */
    CORRECT_CLAUSE("correct-clause"),
    /** The sentence citing another given source. */
    WRONG_SOURCE("wrong-source"),
    /** The sentence citing a label that was not given. */
    INVENTED_ID("invented-id"),
    /** One number of the sentence changed (same shape, not in the source). */
    SWAPPED_NUMBER("swapped-number"),
    /** A negation inserted. */
    NEGATION("negation"),
    /** A sentence of a source not given appended as a clause. */
    ADDED_CLAUSE("added-clause");

    public final String label;

    Kind(String label) {
      this.label = label;
    }

    /** True for the kinds a verifier must catch (not {@code supported}). */
    public boolean isError() {
      return this != CORRECT && this != CORRECT_CLAUSE;
    }
  }

  /** One answer to verify: its text with the citation marker, the label it cites, and what was changed. */
  public record Variant(Kind kind, String text, String cited, String detail) {}

  /** English auxiliaries a negation is inserted after ({@code was} → {@code was not}). */
  public static final List<String> EN_AUXILIARIES = List.of(
      "is", "are", "was", "were", "has", "have", "had", "can", "could", "will", "would", "does", "did", "do",
      "should", "must", "may");
  /** Portuguese verb forms a negation is inserted before ({@code foi} → {@code não foi}). */
  public static final List<String> PT_VERBS = List.of(
      "é", "foi", "são", "eram", "era", "foram", "tem", "têm", "teve", "tinha", "há", "havia", "está", "estão",
      "estava", "pode", "podem", "deve", "devem", "possui", "possuem", "fica", "ficou");
  /**
   * Words that make a sentence negated already (then no negation is inserted): en {@code not, no,
   * never, none, nobody, nothing, neither, nor, nowhere, cannot} and any word ending in {@code n't};
   * pt {@code não, nunca, nenhum, nenhuma, nem, jamais, ninguém, nada}. "without" / "sem" do not
   * count: they do not make a second negation read as a double one.
   */
  static final Set<String> EN_NEGATIONS = Set.of("not", "no", "never", "none", "nobody", "nothing", "neither", "nor",
      "nowhere", "cannot");
  static final Set<String> PT_NEGATIONS = Set.of("não", "nunca", "nenhum", "nenhuma", "nem", "jamais", "ninguém", "nada");

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)?");
  /**
   * A number written in digits: digits with inner {@code ,} or {@code .} groups ({@code 1,200},
   * {@code 3.5}), not inside a word ({@code B12}, {@code H2O}); a trailing {@code s} is allowed
   * ({@code 1990s}), other trailing letters are not ({@code 5th}).
   */
  private static final Pattern NUMBER = Pattern.compile("(?<![\\p{L}\\p{N}])\\d+(?:[.,]\\d+)*(?=s?(?![\\p{L}\\p{N}]))");

  private Variants() {}

  // ---- citing ----

  /**
   * {@code sentence} citing {@code label}: the marker {@code " [label]"} placed before the final
   * punctuation ({@code "… in 1990 [S3]."}), or appended when the sentence has none. The final
   * punctuation is the trailing run of {@code . ! ? …} and closing quotes or brackets, when it holds
   * one of the terminators.
   */
  public static String cite(String sentence, String label) {
    String s = sentence.strip();
    int at = finalPunctuation(s);
    return s.substring(0, at) + " [" + label + "]" + s.substring(at);
  }

  /** Where the final punctuation of {@code s} starts ({@code s.length()} when it has none). */
  static int finalPunctuation(String s) {
    int i = s.length();
    boolean terminator = false;
    while (i > 0 && (isTerminator(s.charAt(i - 1)) || isCloser(s.charAt(i - 1)))) {
      if (isTerminator(s.charAt(i - 1))) terminator = true;
      i--;
    }
    if (!terminator) return s.length();
    // A closing bracket or quote that an opening one inside the sentence matches stays with the words.
    while (i < s.length() && isCloser(s.charAt(i)) && opens(s, i)) i++;
    return i;
  }

  private static boolean opens(String s, int closerAt) {
    char c = s.charAt(closerAt);
    char open = switch (c) {
      case ')' -> '(';
      case ']' -> '[';
      case '}' -> '{';
      case '”' -> '“';
      case '’' -> '‘';
      case '»' -> '«';
      default -> c; // " and ': the same character opens
    };
    int count = 0;
    for (int k = 0; k < closerAt; k++) if (s.charAt(k) == open) count++;
    return open == c ? count % 2 == 1 : count > 0;
  }

  // ---- negation ----

  /**
   * {@code sentence} with a negation inserted: English, {@code not} after the first auxiliary of
   * {@link #EN_AUXILIARIES} ({@code was} → {@code was not}); Portuguese, {@code não} before the first
   * verb form of {@link #PT_VERBS} ({@code foi} → {@code não foi}). Words match whole and in lower
   * case only (so a sentence-initial {@code Is} or the month {@code May} is not taken). {@code null}
   * when the sentence has no such word or already holds a negation.
   */
  public static String negate(String sentence, Language language) {
    if (negated(sentence, language)) return null;
    boolean pt = language == Language.PT;
    Set<String> targets = Set.copyOf(pt ? PT_VERBS : EN_AUXILIARIES);
    Matcher m = WORD.matcher(sentence);
    while (m.find()) {
      if (!targets.contains(m.group())) continue;
      if (pt) return sentence.substring(0, m.start()) + "não " + sentence.substring(m.start());
      return sentence.substring(0, m.end()) + " not" + sentence.substring(m.end());
    }
    return null;
  }

  /** True when {@code sentence} holds a negation word of its language (see {@link #EN_NEGATIONS}, {@link #PT_NEGATIONS}). */
  public static boolean negated(String sentence, Language language) {
    Matcher m = WORD.matcher(sentence);
    while (m.find()) {
      String w = m.group().toLowerCase(Locale.ROOT).replace('’', '\'');
      if (language == Language.PT ? PT_NEGATIONS.contains(w) : EN_NEGATIONS.contains(w) || w.endsWith("n't")) return true;
    }
    return false;
  }

  // ---- numbers ----

  /** A changed sentence and what changed. */
  public record Change(String text, String detail) {}

  /**
   * {@code sentence} with one number changed: a number inside {@code [answerStart, answerEnd)} (offsets
   * into the sentence) when one is, else the first that can be changed. The new number has the same
   * shape (as many digits, the same separators in the same places, so a year stays a four-digit
   * year) and differs by 1 to 9, up or down, in an order drawn from {@code random}; it never equals,
   * digits compared, any number written in {@code paragraph}. {@code null} when the sentence holds no
   * number in digits or none can be changed so.
   */
  public static Change swapNumber(String sentence, int answerStart, int answerEnd, String paragraph, Random random) {
    Set<String> taken = numbersOf(paragraph);
    taken.addAll(numbersOf(sentence));
    List<int[]> inAnswer = new ArrayList<>();
    List<int[]> others = new ArrayList<>();
    Matcher m = NUMBER.matcher(sentence);
    while (m.find()) {
      int[] span = {m.start(), m.end()};
      boolean inside = m.start() < answerEnd && answerStart < m.end();
      (inside ? inAnswer : others).add(span);
    }
    List<Integer> deltas = new ArrayList<>();
    for (int d = 1; d <= 9; d++) {
      deltas.add(d);
      deltas.add(-d);
    }
    Collections.shuffle(deltas, random);
    List<int[]> order = new ArrayList<>(inAnswer);
    order.addAll(others);
    for (int[] span : order) {
      String old = sentence.substring(span[0], span[1]);
      for (int d : deltas) {
        String changed = shift(old, d);
        if (changed == null || taken.contains(digits(changed))) continue;
        return new Change(sentence.substring(0, span[0]) + changed + sentence.substring(span[1]), old + " -> " + changed);
      }
    }
    return null;
  }

  /** {@code number} plus {@code delta} in the same shape, or {@code null} when the shape cannot hold it. */
  static String shift(String number, int delta) {
    String ds = digits(number);
    if (ds.length() > 18) return null;
    long v = Long.parseLong(ds) + delta;
    if (v < 0) return null;
    String nd = Long.toString(v);
    if (nd.length() > ds.length()) return null;
    if (nd.length() < ds.length()) {
      if (ds.charAt(0) != '0') return null; // 10 - 1 = 9: one digit fewer
      nd = "0".repeat(ds.length() - nd.length()) + nd;
    }
    StringBuilder out = new StringBuilder(number.length());
    int k = 0;
    for (int i = 0; i < number.length(); i++) {
      char c = number.charAt(i);
      out.append(Character.isDigit(c) ? nd.charAt(k++) : c);
    }
    return out.toString();
  }

  /** The numbers written in digits in {@code text}, each as its digits alone ({@code 1,200} → {@code 1200}). */
  public static Set<String> numbersOf(String text) {
    Set<String> out = new HashSet<>();
    Matcher m = NUMBER.matcher(text);
    while (m.find()) out.add(digits(m.group()));
    return out;
  }

  static String digits(String number) {
    StringBuilder b = new StringBuilder(number.length());
    for (int i = 0; i < number.length(); i++) if (Character.isDigit(number.charAt(i))) b.append(number.charAt(i));
    return b.toString();
  }

  // ---- clauses ----

  /**
   * {@code sentence} without its final full stop, then {@code ", and "} (pt {@code ", e "}) and {@code
   * added} with its first letter in lower case when its second letter is lower case, or when its first
   * word is one letter other than {@code I} (so "The war ended." becomes "the war ended." and "O jogo…"
   * "o jogo…", while "NATO met…" and "I stayed…" keep their capital; "Paris is…" is lowered too: the
   * rule is kept simple). {@code added} keeps its own final punctuation ({@code "."} is added when it
   * has none).
   */
  public static String addClause(String sentence, String added, Language language) {
    String s = sentence.strip();
    int at = finalPunctuation(s);
    String base = s.substring(0, at) + stripTerminators(s.substring(at));
    String a = added.strip();
    boolean oneLetterWord = a.length() >= 2 && a.charAt(1) == ' ' && a.charAt(0) != 'I'; // "O jogo", "A storm"; not "I"
    if (a.length() >= 2 && Character.isUpperCase(a.charAt(0)) && (Character.isLowerCase(a.charAt(1)) || oneLetterWord)) {
      a = Character.toLowerCase(a.charAt(0)) + a.substring(1);
    }
    if (finalPunctuation(a) == a.length()) a = a + ".";
    return base + (language == Language.PT ? ", e " : ", and ") + a;
  }

  private static String stripTerminators(String punctuation) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < punctuation.length(); i++) if (!isTerminator(punctuation.charAt(i))) b.append(punctuation.charAt(i));
    return b.toString();
  }

  /**
   * The clause of {@code sentence} that holds the whole answer {@code [answerStart, answerEnd)}: the
   * sentence is cut at {@code ", "}, {@code "; "} and {@code ": "} (a comma inside a number such as
   * {@code 1,200} is not a cut); the piece holding the answer, stripped, without final punctuation,
   * with {@code "."} appended. {@code null} when the sentence has no cut, the answer spans a cut, or
   * the clause has fewer than three words.
   */
  public static String clauseWithAnswer(String sentence, int answerStart, int answerEnd) {
    List<Integer> cuts = new ArrayList<>();
    for (int i = 0; i + 1 < sentence.length(); i++) {
      char c = sentence.charAt(i);
      if ((c == ',' || c == ';' || c == ':') && Character.isWhitespace(sentence.charAt(i + 1))) cuts.add(i);
    }
    if (cuts.isEmpty()) return null;
    int from = 0;
    for (int k = 0; k <= cuts.size(); k++) {
      int to = k < cuts.size() ? cuts.get(k) : sentence.length();
      if (answerStart >= from && answerEnd <= to) {
        String piece = sentence.substring(from, to).strip();
        int at = finalPunctuation(piece);
        piece = (piece.substring(0, at) + stripTerminators(piece.substring(at))).strip();
        if (WORD.matcher(piece).results().count() < 3) return null;
        return piece + ".";
      }
      if (answerStart < to) return null; // the answer starts in this piece but runs past its cut
      from = to + 1;
    }
    return null;
  }

  // ---- labels ----

  /** A label of the other given sources, drawn from {@code random}; {@code null} when there is none. */
  public static String otherLabel(List<String> labels, String gold, Random random) {
    List<String> others = new ArrayList<>(labels);
    others.remove(gold);
    return others.isEmpty() ? null : others.get(random.nextInt(others.size()));
  }

  /** A label that names no given source: {@code S<k>} with k drawn from {@code given + 1 .. 99}. */
  public static String inventedLabel(int given, Random random) {
    if (given >= 99) throw new IllegalArgumentException("no free label below S100 with " + given + " sources");
    return "S" + (given + 1 + random.nextInt(99 - given));
  }

  private static boolean isTerminator(char c) {
    return c == '.' || c == '!' || c == '?' || c == '…';
  }

  private static boolean isCloser(char c) {
    return c == '"' || c == '\'' || c == '”' || c == '’' || c == ')' || c == ']' || c == '»' || c == '}';
  }
}
