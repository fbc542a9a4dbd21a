package dev.ctxpack.bench.dedup;

import dev.ctxpack.similarity.Words;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Constructed variants of a real passage, one kind each: copies the dedup cascade must merge, windows
 * of one document it must stitch, and rule/exception pairs it must keep apart. Each method is
 * deterministic for a given {@link Random} state and returns empty when the passage offers nothing
 * to change (no number, no month...). Sentences are ctxpack's {@link SentenceSegmenter}'s.
 */
public final class Variants {
  /**
   * Words a light edit never touches or introduces: the guard's negation, condition, month and
   * number cues in English and Portuguese, and the words of its condition phrases (a light edit must
   * not be a rule/exception change).
   */
  static final Set<String> CUE_WORDS = Set.of(
      "not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "cannot", "without", "nowhere",
      "não", "nao", "nunca", "nenhum", "nenhuma", "nenhuns", "nenhumas", "nem", "ninguém", "nada", "jamais", "sem",
      "tampouco", "unless", "except", "excepting", "excluding", "if", "provided", "providing", "otherwise", "only",
      "exceto", "salvo", "excluindo", "senão", "contanto", "caso", "desde", "apenas", "somente", "menos", "when",
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
      "december", "janeiro", "fevereiro", "março", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro",
      "outubro", "novembro", "dezembro", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
      "ten", "eleven", "twelve", "twenty", "hundred", "thousand", "million", "billion", "twice", "half", "dois",
      "duas", "três", "tres", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez", "onze", "doze", "vinte",
      "cem", "cento", "mil", "milhão", "milhões", "bilhão", "bilhões", "metade", "dobro", "years", "year", "anos",
      "days", "dias", "months", "meses", "weeks", "semanas", "hours", "horas", "minutes", "minutos", "percent",
      "patients", "pacientes", "people", "pessoas", "times", "vezes", "reais", "dollars", "euros",
      // words of the guard's condition phrases: "as long as", "provided that", "a menos que", "apenas quando"
      "long", "that", "quando");

  private static final SentenceSegmenter SEGMENTER = new SentenceSegmenter();
  private static final Pattern WORD = Pattern.compile("(?<![\\p{L}\\p{N}])\\p{L}{4,}(?![\\p{L}\\p{N}])");
  private static final Pattern NUMBER = Pattern.compile("(?<![\\p{L}\\p{N}.,])\\d+(?:[.,]\\d+)*(?![\\p{L}\\p{N}])");
  private static final Pattern YEAR = Pattern.compile("(?<![\\p{L}\\p{N}.,])(1[6-9]\\d\\d|20\\d\\d)(?![\\p{L}\\p{N}])");
  private static final Pattern EN_AUX = Pattern.compile(
      "(?<![\\p{L}'’])(is|are|was|were|can|could|will|would|should|must|has|have|had|does|did)(?![\\p{L}'’])(?!\\s+not\\b)");
  private static final Pattern PT_VERB = Pattern.compile(
      "(?<![\\p{L}])(?<!não )(?<!Não )(são|era|eram|[Ff]oi|[Ff]oram|[Tt]em|[Tt]êm|[Pp]ode|[Pp]odem|[Ee]stá|[Ee]stão|[Ss]erá|[Ss]erão|"
          + "[Ss]eria|[Pp]ossui|[Pp]ossuem|[Tt]eve|[Tt]inha|[Tt]inham|[Hh]avia|[Dd]eve|[Dd]evem|[Éé])(?![\\p{L}])");
  private static final List<String> EN_MONTHS = List.of("January", "February", "March", "April", "May", "June", "July",
      "August", "September", "October", "November", "December");
  private static final List<String> PT_MONTHS = List.of("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho",
      "agosto", "setembro", "outubro", "novembro", "dezembro");
  private static final Pattern EN_MONTH = Pattern.compile(
      "(?<![\\p{L}])(January|February|March|April|June|July|August|September|October|November|December)(?![\\p{L}])");
  private static final Pattern PT_MONTH = Pattern.compile(
      "(?<![\\p{L}])([Jj]aneiro|[Ff]evereiro|[Mm]arço|[Aa]bril|[Jj]unho|[Jj]ulho|[Aa]gosto|[Ss]etembro|[Oo]utubro|[Nn]ovembro|[Dd]ezembro)(?![\\p{L}])");

  /** A changed text and what was changed. */
  public record Variant(String text, String note) {}

  /** Two windows of one document, {@code [aStart, aEnd)} and {@code [bStart, bEnd)}, {@code aStart = 0}. */
  public record Windows(int aStart, int aEnd, int bStart, int bEnd) {
    /** Overlap as a share of the shorter window (0 when they touch or leave a gap). */
    public double overlapRatio() {
      int inter = Math.max(0, aEnd - bStart);
      return inter / (double) Math.min(aEnd - aStart, bEnd - bStart);
    }
  }

  private Variants() {}

  public static List<Span> sentences(String text, Language language) {
    return SEGMENTER.split(text, language);
  }

  // ---- copies to merge ----

  /** The whole text lower- (or upper-) cased, some single spaces widened to runs, tabs or line breaks. */
  public static Variant exactCopy(String text, Random r, boolean upper) {
    String cased = upper ? text.toUpperCase(Locale.ROOT) : text.toLowerCase(Locale.ROOT);
    StringBuilder sb = new StringBuilder("  ");
    String[] spaces = {"  ", "\n", " \t", "   "};
    for (int i = 0; i < cased.length(); i++) {
      char c = cased.charAt(i);
      if (c == ' ' && r.nextInt(3) == 0) sb.append(spaces[r.nextInt(spaces.length)]);
      else sb.append(c);
    }
    return new Variant(sb.append('\n').toString(), upper ? "upper-cased, whitespace changed" : "lower-cased, whitespace changed");
  }

  /** Only case changed: each sentence's first letter lower-cased and two other words upper-cased. */
  public static Optional<Variant> caseChanged(String text, Language language, Random r) {
    char[] c = text.toCharArray();
    for (Span s : sentences(text, language)) {
      for (int i = s.start(); i < s.end(); i++) {
        if (Character.isLetter(c[i])) {
          c[i] = Character.toLowerCase(c[i]);
          break;
        }
      }
    }
    List<int[]> words = matches(WORD, text);
    for (int k = 0; k < 2 && !words.isEmpty(); k++) {
      int[] w = words.remove(r.nextInt(words.size()));
      for (int i = w[0]; i < w[1]; i++) c[i] = Character.toUpperCase(c[i]);
    }
    String out = new String(c);
    return out.equals(text) ? Optional.empty() : Optional.of(new Variant(out, "sentence-initial letters lower-cased, 2 words upper-cased"));
  }

  /**
   * Whitespace changed where the exact hash does not fold it: the space between sentences becomes
   * a line break and a space is inserted before each {@code , ; : .} that ends a word.
   */
  public static Optional<Variant> whitespaceChanged(String text, Language language) {
    List<Span> ss = sentences(text, language);
    StringBuilder broken = new StringBuilder(text.substring(0, ss.isEmpty() ? text.length() : ss.get(0).end()));
    for (int k = 1; k < ss.size(); k++) {
      String gap = text.substring(ss.get(k - 1).end(), ss.get(k).start());
      broken.append(gap.isBlank() ? "\n" : gap).append(text, ss.get(k).start(), ss.get(k).end());
    }
    if (!ss.isEmpty()) broken.append(text.substring(ss.get(ss.size() - 1).end()));
    String t = broken.toString();
    StringBuilder sb = new StringBuilder(t.length() + 32);
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (",;:.".indexOf(c) >= 0 && i > 0 && !Character.isWhitespace(t.charAt(i - 1))
          && (i + 1 == t.length() || Character.isWhitespace(t.charAt(i + 1)))) {
        sb.append(' ');
      }
      sb.append(c);
    }
    String out = sb.toString();
    return out.equals(text) ? Optional.empty() : Optional.of(new Variant(out, "line breaks between sentences, space before , ; : ."));
  }

  /**
   * Punctuation changed, words not: every sentence-final period but the last becomes a semicolon,
   * the last becomes {@code !}, and every comma followed by whitespace is removed (a comma between
   * two words or digits, as in {@code 1,5} or {@code Monlevade,com}, stays: removing it would join them).
   */
  public static Optional<Variant> punctuationChanged(String text, Language language) {
    char[] c = text.toCharArray();
    List<Span> ss = sentences(text, language);
    for (int k = 0; k < ss.size(); k++) {
      int last = ss.get(k).end() - 1;
      if (c[last] == '.') c[last] = k == ss.size() - 1 ? '!' : ';';
    }
    StringBuilder sb = new StringBuilder(c.length);
    for (int i = 0; i < c.length; i++) {
      if (c[i] == ',' && (i + 1 == c.length || Character.isWhitespace(c[i + 1]))) continue;
      sb.append(c[i]);
    }
    String out = sb.toString();
    return out.equals(text) ? Optional.empty() : Optional.of(new Variant(out, "periods to ; and !, commas removed"));
  }

  /** {@code added} inserted as a sentence before sentence {@code k} (after the last when k = count). */
  public static Variant sentenceAdded(String text, Language language, String added, int k) {
    List<Span> ss = sentences(text, language);
    String out = k >= ss.size() ? text.stripTrailing() + " " + added + text.substring(text.stripTrailing().length())
        : text.substring(0, ss.get(k).start()) + added + " " + text.substring(ss.get(k).start());
    return new Variant(out, "sentence added at position " + k + " of " + ss.size());
  }

  /** Sentence {@code k} removed with the whitespace after it (before it, for the last). */
  public static Variant sentenceRemoved(String text, Language language, int k) {
    List<Span> ss = sentences(text, language);
    String out = k < ss.size() - 1 ? text.substring(0, ss.get(k).start()) + text.substring(ss.get(k + 1).start())
        : text.substring(0, ss.get(k - 1).end()) + text.substring(ss.get(k).end());
    return new Variant(out, "sentence " + k + " of " + ss.size() + " removed");
  }

  /**
   * One or two words of at least four letters, away from digits and not {@link #CUE_WORDS},
   * replaced by words of {@code vocabulary} (same filter), keeping an initial capital.
   */
  public static Optional<Variant> lightEdit(String text, Random r, List<String> vocabulary) {
    List<int[]> words = new ArrayList<>();
    for (int[] w : matches(WORD, text)) {
      String lw = text.substring(w[0], w[1]).toLowerCase(Locale.ROOT);
      boolean nearDigit = (w[0] > 1 && Character.isDigit(text.charAt(w[0] - 2)))
          || (w[1] + 1 < text.length() && Character.isDigit(text.charAt(w[1] + 1)));
      if (!CUE_WORDS.contains(lw) && !nearDigit) words.add(w);
    }
    List<String> vocab = vocabulary.stream().filter(v -> v.length() >= 4 && !CUE_WORDS.contains(v)).toList();
    if (words.isEmpty() || vocab.isEmpty()) return Optional.empty();
    int n = Math.min(words.size(), 1 + r.nextInt(2));
    List<int[]> picked = new ArrayList<>();
    for (int k = 0; k < n; k++) picked.add(words.remove(r.nextInt(words.size())));
    picked.sort((x, y) -> Integer.compare(y[0], x[0]));
    StringBuilder sb = new StringBuilder(text);
    List<String> changes = new ArrayList<>();
    for (int[] w : picked) {
      String old = text.substring(w[0], w[1]);
      String repl;
      do {
        repl = vocab.get(r.nextInt(vocab.size()));
      } while (repl.equalsIgnoreCase(old) && vocab.size() > 1);
      if (Character.isUpperCase(old.charAt(0))) repl = Character.toUpperCase(repl.charAt(0)) + repl.substring(1);
      sb.replace(w[0], w[1], repl);
      changes.add(old + "→" + repl);
    }
    String out = sb.toString();
    return out.equals(text) ? Optional.empty() : Optional.of(new Variant(out, String.join(", ", changes)));
  }

  /** Words of at least four letters of {@code text}, lower-cased, not {@link #CUE_WORDS}: a light edit's replacements. */
  public static List<String> vocabulary(String text) {
    return Words.of(text).stream().filter(w -> w.length() >= 4 && w.chars().allMatch(Character::isLetter))
        .filter(w -> !CUE_WORDS.contains(w)).distinct().toList();
  }

  // ---- windows to stitch ----

  /** Two windows splitting the text, overlapping by 10–30 % of the shorter one, cut at word boundaries. */
  public static Optional<Windows> overlapping(String text, Random r) {
    int len = text.length();
    for (int attempt = 0; attempt < 20; attempt++) {
      double o = 0.10 + 0.20 * r.nextDouble();
      double ov = o * len / (2 - o);
      double m = (0.35 + 0.30 * r.nextDouble()) * len;
      int s = wordStartAtOrBefore(text, (int) Math.round(m - ov / 2));
      int e = wordEndAtOrAfter(text, (int) Math.round(m + ov / 2));
      if (s <= 0 || e >= len || e <= s) continue;
      Windows w = new Windows(0, e, s, len);
      if (w.overlapRatio() >= 0.10 && w.overlapRatio() <= 0.30) return Optional.of(w);
    }
    return Optional.empty();
  }

  /** Two windows that touch: the first ends where the second begins, at a word start near the middle. */
  public static Optional<Windows> touching(String text, Random r) {
    int m = wordStartAtOrBefore(text, (int) ((0.35 + 0.30 * r.nextDouble()) * text.length()));
    return m <= 0 ? Optional.empty() : Optional.of(new Windows(0, m, m, text.length()));
  }

  /** Two windows with only the whitespace between two words outside both (a trimming chunker's cut). */
  public static Optional<Windows> whitespaceGap(String text, Random r) {
    int e = wordEndAtOrAfter(text, (int) ((0.35 + 0.30 * r.nextDouble()) * text.length()));
    int s = e;
    while (s < text.length() && Character.isWhitespace(text.charAt(s))) s++;
    return e <= 0 || s >= text.length() || s == e ? Optional.empty() : Optional.of(new Windows(0, e, s, text.length()));
  }

  private static int wordStartAtOrBefore(String t, int i) {
    i = Math.max(0, Math.min(i, t.length() - 1));
    while (i > 0 && !(!Character.isWhitespace(t.charAt(i)) && Character.isWhitespace(t.charAt(i - 1)))) i--;
    return i;
  }

  private static int wordEndAtOrAfter(String t, int i) {
    i = Math.max(1, Math.min(i, t.length()));
    while (i < t.length() && !(!Character.isWhitespace(t.charAt(i - 1)) && Character.isWhitespace(t.charAt(i)))) i++;
    return i;
  }

  // ---- rule / exception ----

  /** English: "not" inserted after the first auxiliary (is, are, was, can, will, has...) of a random sentence that has one. */
  public static Optional<Variant> negatedEn(String text, Language language, Random r) {
    return insertInRandomSentence(text, language, r, EN_AUX, (m, t) -> t.substring(0, m.end()) + " not" + t.substring(m.end()),
        "not inserted after ");
  }

  /**
   * Portuguese: "não" inserted before the first verb of a small list (é, são, foi, tem, pode,
   * está...) of a random sentence; "são" and "era" only in lower case ("São Paulo", "Era Vargas").
   */
  public static Optional<Variant> negatedPt(String text, Language language, Random r) {
    return insertInRandomSentence(text, language, r, PT_VERB, (m, t) -> {
      String verb = m.group();
      boolean sentenceStart = Character.isUpperCase(verb.charAt(0));
      String neg = sentenceStart ? "Não " + Character.toLowerCase(verb.charAt(0)) + verb.substring(1) : "não " + verb;
      return t.substring(0, m.start()) + neg + t.substring(m.end());
    }, "não inserted before ");
  }

  private interface Edit {
    String apply(Matcher m, String text);
  }

  private static Optional<Variant> insertInRandomSentence(String text, Language language, Random r, Pattern p, Edit edit,
      String note) {
    List<Span> ss = new ArrayList<>(sentences(text, language));
    java.util.Collections.shuffle(ss, r);
    for (Span s : ss) {
      Matcher m = p.matcher(text);
      m.useTransparentBounds(true);
      m.region(s.start(), s.end());
      if (m.find()) return Optional.of(new Variant(edit.apply(m, text), note + "'" + m.group() + "'"));
    }
    return Optional.empty();
  }

  /**
   * A condition clause appended to a random sentence before its final punctuation: ", unless stated
   * otherwise" (English) or ", exceto em casos especiais" (Portuguese).
   */
  public static Optional<Variant> conditionAppended(String text, Language language, Random r) {
    List<Span> ss = sentences(text, language);
    if (ss.isEmpty()) return Optional.empty();
    Span s = ss.get(r.nextInt(ss.size()));
    String clause = language == Language.PT ? ", exceto em casos especiais" : ", unless stated otherwise";
    int end = s.end();
    while (end > s.start() && ".!?;:".indexOf(text.charAt(end - 1)) >= 0) end--;
    return Optional.of(new Variant(text.substring(0, end) + clause + text.substring(end), "'" + clause.substring(2)
        + "' appended to sentence " + ss.indexOf(s) + " of " + ss.size()));
  }

  /** A number (digits, not part of a word) picked at random, its last digit changed. */
  public static Optional<Variant> numberChanged(String text, Random r) {
    List<int[]> nums = matches(NUMBER, text);
    if (nums.isEmpty()) return Optional.empty();
    int[] n = nums.get(r.nextInt(nums.size()));
    int last = n[1] - 1;
    int d = text.charAt(last) - '0';
    int nd = (d + 1 + r.nextInt(9)) % 10;
    String out = text.substring(0, last) + (char) ('0' + nd) + text.substring(last + 1);
    return Optional.of(new Variant(out, text.substring(n[0], n[1]) + "→" + out.substring(n[0], n[1])));
  }

  /** A month name (not May / maio) changed to another month; else a year (1600–2099) changed by 1 to 5. */
  public static Optional<Variant> dateChanged(String text, Language language, Random r) {
    boolean pt = language == Language.PT;
    List<int[]> months = matches(pt ? PT_MONTH : EN_MONTH, text);
    List<String> names = pt ? PT_MONTHS : EN_MONTHS;
    if (!months.isEmpty()) {
      int[] m = months.get(r.nextInt(months.size()));
      String old = text.substring(m[0], m[1]);
      int idx = names.indexOf(pt ? old.toLowerCase(Locale.ROOT) : old);
      String repl;
      do {
        repl = names.get(r.nextInt(12));
      } while (repl.equals(names.get(idx)) || repl.equals(names.get(4)));
      if (Character.isUpperCase(old.charAt(0))) repl = Character.toUpperCase(repl.charAt(0)) + repl.substring(1);
      return Optional.of(new Variant(text.substring(0, m[0]) + repl + text.substring(m[1]), "month " + old + "→" + repl));
    }
    List<int[]> years = matches(YEAR, text);
    if (years.isEmpty()) return Optional.empty();
    int[] y = years.get(r.nextInt(years.size()));
    int year = Integer.parseInt(text.substring(y[0], y[1]));
    int ny = year + (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(5));
    if (ny > 2099) ny = year - 1;
    return Optional.of(new Variant(text.substring(0, y[0]) + ny + text.substring(y[1]), "year " + year + "→" + ny));
  }

  private static List<int[]> matches(Pattern p, String text) {
    List<int[]> out = new ArrayList<>();
    Matcher m = p.matcher(text);
    while (m.find()) out.add(new int[] {m.start(), m.end()});
    return out;
  }
}
