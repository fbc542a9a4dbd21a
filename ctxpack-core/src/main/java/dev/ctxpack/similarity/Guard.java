package dev.ctxpack.similarity;

import dev.ctxpack.model.Deadline;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.text.TextNormalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dedup guard: finds where two passages state the same thing differently in a way that
 * matters — a negation, a number (with its unit, percent sign or currency), a date or a condition —
 * so that they are never merged, stitched or grouped. The rule and its exception are the pair a
 * question most needs to see side by side.
 *
 * <p>How: both texts are split into sentences and aligned: sentences with the same words pair
 * first, then the remaining ones pair greedily by word overlap (Jaccard of word sets at least
 * {@code alignMin}). A sentence with no partner is an addition, not a contradiction: it is kept
 * verbatim by whichever level merges the passages. Each aligned pair whose words differ is
 * compared on its guard features (negation and condition cues of Portuguese and English, numbers,
 * month names); any difference is a {@link Conflict}. For paraphrases (the semantic level),
 * sentences left unaligned on both sides are also compared for negation and condition.
 *
 * <p>Thread-safe.
 */
public final class Guard {
  /** Why two passages must stay apart. {@code kind} is negation, condition, number or date. */
  public record Conflict(String kind, String detail) {
    public String rule() {
      return "guard:" + kind;
    }
  }

  /** Word-set Jaccard at which two differing sentences are taken as versions of one statement. */
  public static final double DEFAULT_ALIGN_MIN = 0.5;

  private static final Set<String> NEGATION = Set.of(
      // English
      "not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "cannot", "without", "nowhere",
      // Portuguese
      "não", "nao", "nunca", "nenhum", "nenhuma", "nenhuns", "nenhumas", "nem", "ninguém", "nada", "jamais",
      "sem", "tampouco");
  private static final Set<String> CONDITION_WORDS = Set.of(
      "unless", "except", "excepting", "excluding", "if", "provided", "providing", "otherwise",
      "exceto", "salvo", "excluindo", "senão", "contanto", "caso");
  private static final List<String> CONDITION_PHRASES = List.of(
      "only if", "only when", "provided that", "as long as", "except for", "except that",
      "desde que", "apenas se", "somente se", "só se", "a menos que", "apenas quando", "somente quando",
      "no caso de", "salvo se", "exceto se");
  /** Every word of a condition phrase: a sentence without any skips the phrase scan. */
  private static final Set<String> PHRASE_WORDS = Set.of("only", "provided", "long", "except", "desde", "apenas",
      "somente", "só", "menos", "quando", "caso", "salvo", "exceto");
  private static final Set<String> MONTHS = Set.of(
      "january", "february", "march", "april", "june", "july", "august", "september", "october",
      "november", "december", "janeiro", "fevereiro", "março", "marco", "abril", "maio", "junho", "julho",
      "agosto", "setembro", "outubro", "novembro", "dezembro");
  private static final Set<String> NUMBER_WORDS = Set.of(
      "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "twenty",
      "hundred", "thousand", "million", "billion", "twice", "half", "dois", "duas", "três", "tres", "quatro",
      "cinco", "seis", "sete", "oito", "nove", "dez", "onze", "doze", "vinte", "cem", "cento", "mil",
      "milhão", "milhões", "bilhão", "bilhões", "metade", "dobro");
  private static final Set<String> UNITS = Set.of(
      "mg", "g", "kg", "t", "km", "m", "cm", "mm", "ml", "l", "h", "min", "s", "ms", "kb", "mb", "gb", "tb",
      "kw", "w", "v", "hz", "khz", "mhz", "ghz", "years", "year", "anos", "ano", "days", "day", "dias", "dia",
      "months", "month", "meses", "mês", "weeks", "semanas", "hours", "hour", "horas", "hora", "minutes",
      "minutos", "usd", "brl", "eur", "reais", "real", "dollars", "dólares", "euros", "percent", "patients",
      "pacientes", "people", "pessoas", "times", "vezes", "°c", "°f", "x");
  // currency? number (with inner separators) percent? unit?
  private static final Pattern NUMBER = Pattern.compile(
      "(r\\$|us\\$|\\$|€|£)?\\s?(\\d+(?:[.,:/-]\\d+)*)(\\s?(?:%|percent\\b|por cento\\b))?(?:\\s?(°?[\\p{L}]{1,8})\\b)?");
  private static final Pattern CONTRACTED_NOT = Pattern.compile("\\p{L}n['’]t\\b");
  private static final Pattern MAY_DATE = Pattern.compile("\\d\\s*(?:de\\s+)?may\\b|\\bmay\\s+\\d");

  private final SentenceSegmenter segmenter = new SentenceSegmenter();
  private final double alignMin;
  private final boolean compareLeftovers;

  /** The near level's guard: aligned sentences compared, unaligned ones taken as additions. */
  public Guard() {
    this(DEFAULT_ALIGN_MIN, false);
  }

  /**
   * @param alignMin word-set Jaccard at which two differing sentences are versions of one statement
   * @param compareLeftovers also compare negation and condition across the sentences left unaligned
   *     on both sides: for paraphrases (the semantic level), which share too few words to align.
   *     Off for lexical matches, where unaligned sentences are mostly the cut edges of two windows.
   */
  public Guard(double alignMin, boolean compareLeftovers) {
    if (!(alignMin > 0 && alignMin <= 1)) throw new IllegalArgumentException("alignMin must be in (0, 1], was " + alignMin);
    this.alignMin = alignMin;
    this.compareLeftovers = compareLeftovers;
  }

  public double alignMin() {
    return alignMin;
  }

  /** The first conflict between {@code a} and {@code b}, or empty when they may be merged. */
  public Optional<Conflict> check(String a, Language la, String b, Language lb) {
    return check(sentences(a, la), sentences(b, lb));
  }

  /** {@link #check(String, Language, String, Language)} over sentences already analysed. */
  public Optional<Conflict> check(List<Sentence> a, List<Sentence> b) {
    boolean[] usedA = new boolean[a.size()];
    boolean[] usedB = new boolean[b.size()];
    // A sentence the other text covers says nothing different, even when the two texts cut their
    // sentences differently.
    for (int i = 0; i < a.size(); i++) usedA[i] = covered(a.get(i), b);
    for (int j = 0; j < b.size(); j++) usedB[j] = covered(b.get(j), a);
    // Versions of one statement: greedy by overlap, ties by position.
    while (true) {
      Deadline.check();
      double best = -1;
      int bi = -1;
      int bj = -1;
      for (int i = 0; i < a.size(); i++) {
        if (usedA[i]) continue;
        for (int j = 0; j < b.size(); j++) {
          if (usedB[j]) continue;
          double s = similarity(a.get(i), b.get(j));
          if (s >= alignMin && s > best) {
            best = s;
            bi = i;
            bj = j;
          }
        }
      }
      if (bi < 0) return compareLeftovers ? leftovers(a, usedA, b, usedB) : Optional.empty();
      usedA[bi] = true;
      usedB[bj] = true;
      Optional<Conflict> c = compare(a.get(bi), b.get(bj));
      if (c.isPresent()) return c;
    }
  }

  /**
   * Sentences left unpaired on both sides state things in words too different to align; a
   * negation or condition found among one side's leftovers and not the other's is still a
   * conflict (a paraphrase that turned the statement around).
   */
  private static Optional<Conflict> leftovers(List<Sentence> a, boolean[] usedA, List<Sentence> b, boolean[] usedB) {
    List<String> negA = new ArrayList<>();
    List<String> negB = new ArrayList<>();
    List<String> condA = new ArrayList<>();
    List<String> condB = new ArrayList<>();
    boolean anyA = false;
    boolean anyB = false;
    for (int i = 0; i < a.size(); i++) {
      if (usedA[i]) continue;
      anyA = true;
      negA.addAll(a.get(i).features().get("negation"));
      condA.addAll(a.get(i).features().get("condition"));
    }
    for (int j = 0; j < b.size(); j++) {
      if (usedB[j]) continue;
      anyB = true;
      negB.addAll(b.get(j).features().get("negation"));
      condB.addAll(b.get(j).features().get("condition"));
    }
    if (!anyA || !anyB) return Optional.empty();
    if (negA.isEmpty() != negB.isEmpty()) {
      return Optional.of(new Conflict("negation", "negation differs in unaligned sentences: " + describe(sorted(negA))
          + " vs " + describe(sorted(negB))));
    }
    if (condA.isEmpty() != condB.isEmpty()) {
      return Optional.of(new Conflict("condition", "condition differs in unaligned sentences: "
          + describe(sorted(condA)) + " vs " + describe(sorted(condB))));
    }
    return Optional.empty();
  }

  /**
   * True when {@code s}'s words run contiguously in {@code other} and the sentences of {@code
   * other} around that run add no negation, condition, number or month: "Foi aprovado." is not
   * covered by "Não foi aprovado.", nor "X is allowed." by "X is allowed unless Y.".
   */
  public static boolean covered(Sentence s, List<Sentence> other) {
    List<String> words = new ArrayList<>();
    List<Integer> sentenceOf = new ArrayList<>();
    for (int i = 0; i < other.size(); i++) {
      for (String w : other.get(i).words()) {
        words.add(w);
        sentenceOf.add(i);
      }
    }
    List<String> needle = s.words();
    int k = needle.size();
    if (k == 0) return true;
    outer:
    for (int p = 0; p + k <= words.size(); p++) {
      for (int q = 0; q < k; q++) if (!words.get(p + q).equals(needle.get(q))) continue outer;
      // the run [p, p + k) matches: check the rest of the sentences it lies in
      int first = sentenceOf.get(p);
      int last = sentenceOf.get(p + k - 1);
      boolean cue = false;
      for (int x = 0; x < words.size() && !cue; x++) {
        int si = sentenceOf.get(x);
        if (si < first || si > last || (x >= p && x < p + k)) continue;
        if (x < p && s.cutLeft()) continue; // before the window's cut
        cue = isCue(words.get(x), x > 0 ? words.get(x - 1) : "");
      }
      if (!cue) return true;
    }
    return false;
  }

  private static final Set<String> CONDITION_LEADS = Set.of("desde", "menos", "contanto", "provided", "long", "when",
      "only", "apenas", "somente", "só", "quando");

  private static boolean isCue(String w, String previous) {
    if (NEGATION.contains(w) || CONDITION_WORDS.contains(w) || CONDITION_LEADS.contains(w) || MONTHS.contains(w)
        || NUMBER_WORDS.contains(w)) {
      return true;
    }
    if (w.equals("t") && previous.endsWith("n")) return true; // don't, isn't: split at the apostrophe
    for (int i = 0; i < w.length(); i++) if (Character.isDigit(w.charAt(i))) return true;
    return false;
  }

  private static Optional<Conflict> compare(Sentence a, Sentence b) {
    for (String kind : new String[] {"negation", "condition", "number", "date"}) {
      List<String> fa = a.features().get(kind);
      List<String> fb = b.features().get(kind);
      if (!fa.equals(fb)) {
        return Optional.of(new Conflict(kind, kind + " differs: " + describe(fa) + " vs " + describe(fb)));
      }
    }
    return Optional.empty();
  }

  private static String describe(List<String> f) {
    return f.isEmpty() ? "(none)" : String.join(" ", f);
  }

  /**
   * How much two sentences are one statement: the Jaccard of their word sets, or, when one whole
   * sentence has every word in the other (a clause appended: "X is allowed." / "X is allowed
   * unless Y."; also a one-word "sentence" a segmenter cut from a citation), the alignment
   * threshold itself. Fragments at a window's cut only count by Jaccard.
   */
  private double similarity(Sentence x, Sentence y) {
    double j = Words.jaccard(x.wordSet(), y.wordSet());
    if (j >= alignMin || x.fragment() || y.fragment()) return j;
    Sentence small = x.wordSet().size() <= y.wordSet().size() ? x : y;
    Sentence large = small == x ? y : x;
    return large.wordSet().containsAll(small.wordSet()) ? alignMin : j;
  }

  /** The sentences of {@code text} with their words and guard features. */
  public List<Sentence> sentences(String text, Language language) {
    List<Span> spans = segmenter.split(text, language);
    List<Sentence> out = new ArrayList<>();
    for (int i = 0; i < spans.size(); i++) {
      Span s = spans.get(i);
      String t = s.of(text);
      // A window cut mid-sentence: its first sentence starts in lower case. Such a fragment is
      // compared only on what both texts contain. A last sentence without terminal punctuation is
      // not taken as a cut: documents end that way too (a truncated abstract, a list item), and an
      // exception appended there must still count.
      Sentence sentence = Sentence.of(s, t, i == 0 && startsLowerCase(t));
      if (!sentence.words().isEmpty()) out.add(sentence);
    }
    return out;
  }

  private static boolean startsLowerCase(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (Character.isLetter(c)) return Character.isLowerCase(c);
      if (Character.isDigit(c)) return false;
    }
    return false;
  }


  /** The words of all {@code sentences} as {@code " w1 w2 ... "}. */
  public static String joined(List<Sentence> sentences) {
    StringBuilder sb = new StringBuilder(" ");
    for (Sentence s : sentences) for (String w : s.words()) sb.append(w).append(' ');
    return sb.toString();
  }

  /** One sentence: its span in the analysed text, words, word set and guard features by kind. */
  public record Sentence(Span span, List<String> words, Set<String> wordSet, TreeMap<String, List<String>> features,
      boolean cutLeft) {
    static Sentence of(Span span, String text, boolean cutLeft) {
      List<String> words = Words.of(text);
      return new Sentence(span, words, new HashSet<>(words), Guard.features(text, words), cutLeft);
    }

    /** The end of a sentence whose start a window cut off. */
    public boolean fragment() {
      return cutLeft;
    }

    /** The words as {@code " w1 w2 ... "}, for contiguous containment tests. */
    public String joined() {
      return " " + String.join(" ", words) + " ";
    }
  }

  /**
   * The guard's cues in {@code text} by kind ({@code negation}, {@code condition}, {@code number},
   * {@code date}), each sorted: negation and condition words of Portuguese and English, numbers
   * normalised with their currency, percent sign and unit ({@code "r$1.500"}, {@code "30%"},
   * {@code "5 mg"}), month names. Answer verification compares a claim with its source on these.
   */
  public static TreeMap<String, List<String>> cues(String text) {
    return features(text, Words.of(text));
  }

  static TreeMap<String, List<String>> features(String text, List<String> words) {
    String lower = TextNormalizer.fold(text);
    List<String> neg = new ArrayList<>();
    List<String> cond = new ArrayList<>();
    List<String> num = new ArrayList<>();
    List<String> date = new ArrayList<>();
    boolean phraseLead = false;
    for (String w : words) {
      if (NEGATION.contains(w)) neg.add(w);
      if (CONDITION_WORDS.contains(w)) cond.add(w);
      if (MONTHS.contains(w)) date.add(w);
      if (NUMBER_WORDS.contains(w)) num.add(w);
      phraseLead |= PHRASE_WORDS.contains(w);
    }
    if (lower.indexOf('\'') >= 0 || lower.indexOf('’') >= 0) {
      Matcher m = CONTRACTED_NOT.matcher(lower);
      while (m.find()) neg.add("n't");
    }
    if (phraseLead) {
      String padded = " " + String.join(" ", words) + " ";
      for (String p : CONDITION_PHRASES) {
        int from = 0;
        while ((from = padded.indexOf(" " + p + " ", from)) >= 0) {
          cond.add(p);
          from += p.length() + 1;
        }
      }
    }
    boolean digits = false;
    for (int i = 0; i < lower.length() && !digits; i++) digits = Character.isDigit(lower.charAt(i));
    if (digits) {
      if (lower.contains("may") && MAY_DATE.matcher(lower).find()) date.add("may");
      Matcher n = NUMBER.matcher(lower);
      while (n.find()) {
        StringBuilder f = new StringBuilder();
        if (n.group(1) != null) f.append(n.group(1));
        f.append(n.group(2).replace(',', '.'));
        if (n.group(3) != null) f.append('%');
        String unit = n.group(4);
        if (unit != null && UNITS.contains(unit)) f.append(' ').append(unit);
        num.add(f.toString());
      }
    }
    TreeMap<String, List<String>> out = new TreeMap<>();
    out.put("negation", sorted(neg));
    out.put("condition", sorted(cond));
    out.put("number", sorted(num));
    out.put("date", sorted(date));
    return out;
  }

  private static List<String> sorted(List<String> l) {
    l.sort(null);
    return List.copyOf(l);
  }
}
