package dev.ctxpack.compress;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.text.Terms;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Query-aware extractive compression. One request runs:
 *
 * <ol>
 *   <li>split every part of every passage into sentences ({@link SentenceSegmenter});
 *   <li>flag noise ({@link Noise}: navigation, ads, metadata, boilerplate) and repeated sentences
 *       (the same sentence, by identity form, met earlier in the request): these are never kept;
 *   <li>score every sentence against the query ({@link SentenceScorer}, by default the fitted
 *       {@link FeatureSentenceScorer}); a sentence unrelated to the query (no query term in it or
 *       its neighbours while its passage has some elsewhere, and less than an even chance by the
 *       scorer) is never kept either;
 *   <li>keep the best sentences, highest score first, while they fit the budget (and score at
 *       least the threshold, when there is one); a kept sentence that leans on the one before it
 *       ({@link Dependence}: a leading pronoun or connective) brings its predecessor along, and when
 *       the budget is left with room but no whole sentence fits, the best sentence left is cut to
 *       its best clause-aligned part that does;
 *   <li>render each passage's kept spans in source order, joined by {@code " … "}, count the result
 *       exactly and, while it is over the budget, drop the weakest kept sentence;
 *   <li>report every sentence not kept with its reason and score.
 * </ol>
 *
 * Kept text is always the input's text at the recorded offsets. Deterministic; thread-safe if its
 * scorer is.
 */
public final class ExtractiveCompressor implements Compressor {
  /** The fewest tokens worth a clause cut: less is rarely a statement. */
  static final int MIN_CLAUSE_TOKENS = 8;
  /**
   * How much the knapsack's values favour the likeliest sentences: 1 (plain odds) kept the answer
   * most often at 10 % of the tokens on the FIT half of SQuAD (1, 2, 4, 8 tried).
   */
  static final double SHARPNESS = 1;
  /** Characters of a passage read to tell its language. */
  static final int LANGUAGE_SAMPLE = 400;
  /** How many of the best sentences left are tried for a clause cut. */
  static final int MAX_CUT_TRIES = 3;

  private final SentenceScorer scorer;
  private final Tokenizer tokenizer;
  private final SentenceSegmenter segmenter = new SentenceSegmenter();
  private final Noise noise = new Noise();
  private final LanguageDetector languages = new LanguageDetector();
  private final int gapTokens;

  private ExtractiveCompressor(Builder b) {
    this.scorer = b.scorer;
    this.tokenizer = b.tokenizer;
    this.gapTokens = tokenizer.count(Passage.GAP);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The fitted feature scorer over {@code vectors}, o200k_base. */
  public static ExtractiveCompressor defaults(SentenceVectors vectors) {
    return builder().scorer(FeatureSentenceScorer.defaults(vectors)).build();
  }

  public SentenceScorer scorer() {
    return scorer;
  }

  public Tokenizer tokenizer() {
    return tokenizer;
  }

  /** The sentences of {@code inputs}, passage by passage, part by part, in source order. */
  public List<Sentence> sentences(List<CompressInput> inputs) {
    List<Sentence> out = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      List<CompressInput.Part> parts = inputs.get(i).parts();
      // The passage's language picks the abbreviations that do not end a sentence; its opening
      // words tell it.
      String first = parts.get(0).text();
      Language language = languages.detect(first.length() > LANGUAGE_SAMPLE ? first.substring(0, LANGUAGE_SAMPLE) : first);
      for (int p = 0; p < parts.size(); p++) {
        String text = parts.get(p).text();
        int k = 0;
        for (Span s : segmenter.split(text, language)) {
          out.add(new Sentence(i, p, k++, s.start(), s.end(), text.substring(s.start(), s.end())));
        }
      }
    }
    return out;
  }

  @Override
  public Compression compress(String query, List<CompressInput> inputs, CompressOptions o) throws IOException {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("query must not be empty");
    Objects.requireNonNull(o, "options");
    Set<String> ids = new HashSet<>();
    for (CompressInput in : inputs) {
      if (!ids.add(in.id())) throw new IllegalArgumentException("passage id '" + in.id() + "' appears twice");
    }
    int tokensIn = 0;
    for (CompressInput in : inputs) tokensIn += tokenizer.count(joined(in));

    List<Sentence> sentences = sentences(inputs);
    int n = sentences.size();
    DropReason[] flagged = new DropReason[n];
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String text = sentences.get(i).text();
      flagged[i] = noise.classify(text);
      if (flagged[i] == null && words(text) >= 3 && seen.putIfAbsent(repeatKey(text), i) != null) {
        flagged[i] = DropReason.DUPLICATE;
      }
    }
    double[] score = n == 0 ? new double[0] : scorer.score(query, inputs, sentences);
    if (score.length != n) {
      throw new IllegalStateException(scorer.id() + " returned " + score.length + " scores for " + n + " sentences");
    }
    // A sentence unrelated to the query is never kept, however much room is left.
    Set<String> queryTerms = terms(query);
    Terms.Table queryTable = new Terms.Table(queryTerms);
    boolean[] hasTerm = new boolean[n];
    for (int i = 0; i < n; i++) hasTerm[i] = !queryTerms.isEmpty() && hasTerm(sentences.get(i).text(), queryTable);
    boolean[] anchored = new boolean[inputs.size()];
    for (int i = 0; i < n; i++) if (hasTerm[i]) anchored[sentences.get(i).input()] = true;
    for (int i = 0; i < n; i++) {
      if (flagged[i] == null && unrelated(i, sentences, hasTerm, queryTerms, score, anchored)) flagged[i] = DropReason.OFF_TOPIC;
    }
    int[] tokens = new int[n];
    for (int i = 0; i < n; i++) tokens[i] = tokenizer.count(sentences.get(i).text());

    Selection sel = select(query, inputs, sentences, flagged, score, tokens, o);
    List<Compression.Compressed> passages = render(inputs, sentences, sel);
    if (o.budget() > 0) {
      while (total(passages) > o.budget() && sel.dropWeakest(score)) passages = render(inputs, sentences, sel);
    }
    double onTopic = !Double.isNaN(o.threshold()) ? o.threshold() : scorer.onTopic(query);
    return new Compression(passages, dropped(inputs, sentences, sel, flagged, score, tokens, onTopic, hasTerm, queryTerms,
        anchored),
        tokensIn, total(passages));
  }

  /** What is kept: whole sentences, and sentences cut to a clause-aligned part. */
  private static final class Selection {
    final boolean[] kept;
    /** Kept sentences in the order they were taken, each unit's members together. */
    final List<int[]> units = new ArrayList<>();
    /** Sentences kept in part: sentence -> {start, end} in its part, in the order taken. */
    final Map<Integer, int[]> cuts = new java.util.LinkedHashMap<>();

    Selection(int n) {
      kept = new boolean[n];
    }

    /** Drops the kept unit or cut whose lead scored least; false when nothing is left. */
    boolean dropWeakest(double[] score) {
      int weakest = -1;
      for (int u = 0; u < units.size(); u++) {
        if (weakest < 0 || score[units.get(u)[0]] <= score[units.get(weakest)[0]]) weakest = u;
      }
      int weakestCut = -1;
      for (int c : cuts.keySet()) if (weakestCut < 0 || score[c] <= score[weakestCut]) weakestCut = c;
      if (weakestCut >= 0 && (weakest < 0 || score[weakestCut] <= score[units.get(weakest)[0]])) {
        cuts.remove(weakestCut);
        return true;
      }
      if (weakest < 0) return false;
      for (int s : units.remove(weakest)) kept[s] = false;
      return true;
    }
  }

  private Selection select(String query, List<CompressInput> inputs, List<Sentence> sentences, DropReason[] flagged,
      double[] score, int[] tokens, CompressOptions o) {
    int n = sentences.size();
    Selection sel = new Selection(n);
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) order[i] = i;
    Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> -score[i]).thenComparingInt(i -> i));
    boolean threshold = !Double.isNaN(o.threshold());
    int budget = o.budget() > 0 ? o.budget() : Integer.MAX_VALUE;
    int spent = 0;
    if (o.budget() > 0 && scorer.probabilities()) {
      // The set of sentences with the most probability of holding the answer that fits the budget.
      // Values: the probabilities made relative within the request (a softmax of SHARPNESS x
      // logit), so that what a set of sentences is worth is the chance it holds the answer.
      double t = SHARPNESS;
      double[] value = new double[score.length];
      double max = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < score.length; i++) {
        double p = Math.min(1 - 1e-12, Math.max(1e-12, score[i]));
        value[i] = t * Math.log(p / (1 - p));
        max = Math.max(max, value[i]);
      }
      double sum = 0;
      for (int i = 0; i < score.length; i++) sum += (value[i] = Math.exp(value[i] - max));
      for (int i = 0; i < score.length; i++) value[i] /= sum;
      for (int i : knapsack(flagged, value, tokens, o, budget)) {
        sel.kept[i] = true;
        sel.units.add(new int[] {i});
      }
      // The knapsack charged every sentence a gap; what is left is counted exactly.
      spent = total(render(inputs, sentences, sel));
    }
    for (int i : order) {
      if (flagged[i] != null || sel.kept[i]) continue;
      if (threshold && score[i] < o.threshold()) break;
      List<Integer> unit = new ArrayList<>();
      unit.add(i);
      if (o.keepPredecessor()) {
        // A leaning sentence brings the one before it, and that one its own, up to two back.
        int s = i;
        for (int back = 0; back < 2 && Dependence.leansOnPrevious(sentences.get(s).text()); back++) {
          int prev = s - 1;
          if (prev < 0 || !samePart(sentences.get(prev), sentences.get(s)) || flagged[prev] != null || sel.kept[prev]) break;
          unit.add(prev);
          s = prev;
        }
      }
      int cost = 0;
      for (int u : unit) cost += tokens[u] + gapCost(sentences, sel.kept, u);
      if (cost > budget - spent && unit.size() > 1) {
        // The sentence alone, when it and its predecessor do not fit together.
        unit = List.of(i);
        cost = tokens[i] + gapCost(sentences, sel.kept, i);
      }
      if (cost > budget - spent) continue;
      for (int u : unit) sel.kept[u] = true;
      sel.units.add(unit.stream().mapToInt(Integer::intValue).toArray());
      spent += cost;
    }
    if (o.keepPredecessor()) {
      // Sentences chosen together above bring the sentence they lean on, where it still fits.
      for (int[] unit : List.copyOf(sel.units)) {
        int i = unit[0];
        if (i == 0 || !Dependence.leansOnPrevious(sentences.get(i).text())) continue;
        int prev = i - 1;
        if (!samePart(sentences.get(prev), sentences.get(i)) || flagged[prev] != null || sel.kept[prev]) continue;
        if (tokens[prev] > budget - spent) continue;
        sel.kept[prev] = true;
        sel.units.add(new int[] {prev});
        spent += tokens[prev];
      }
    }
    if (o.clauses() && o.budget() > 0) {
      // Room left but no whole sentence fits: the best sentences left, each cut to its best
      // clause-aligned part that fits, until the room is spent.
      int tries = 0;
      for (int i : order) {
        if (budget - spent < MIN_CLAUSE_TOKENS + gapTokens || tries == MAX_CUT_TRIES) break;
        if (flagged[i] != null || sel.kept[i]) continue;
        if (threshold && score[i] < o.threshold()) break;
        tries++;
        int[] cut = bestClause(query, sentences.get(i), budget - spent - gapTokens);
        if (cut == null) continue;
        sel.cuts.put(i, cut);
        spent += tokenizer.count(sentences.get(i).text().substring(cut[0] - sentences.get(i).start(),
            cut[1] - sentences.get(i).start())) + gapTokens;
      }
    }
    return sel;
  }

  /** The most cells the knapsack's table may hold; costs are coarsened to stay under it. */
  private static final int MAX_CELLS = 300_000;

  /**
   * The eligible sentences (above the threshold, if any) whose scores sum highest with costs (tokens
   * and a gap each) within {@code budget}: 0/1 knapsack by dynamic programming, costs rounded up to
   * a coarser unit when the table would be large. Ties keep the earlier sentence.
   */
  private int[] knapsack(DropReason[] flagged, double[] score, int[] tokens, CompressOptions o, int budget) {
    List<Integer> items = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < score.length; i++) {
      if (flagged[i] != null || !(score[i] > 0)) continue;
      if (!Double.isNaN(o.threshold()) && score[i] < o.threshold()) continue;
      if (tokens[i] + gapTokens > budget) continue;
      items.add(i);
      total += tokens[i] + gapTokens;
    }
    if (total <= budget) return items.stream().mapToInt(Integer::intValue).toArray();
    int m = items.size();
    int unit = 1;
    while ((long) m * (budget / unit + 1) > MAX_CELLS) unit++;
    int cap = budget / unit;
    double[] best = new double[cap + 1];
    boolean[][] take = new boolean[m][cap + 1];
    for (int k = 0; k < m; k++) {
      int i = items.get(k);
      int c = (tokens[i] + gapTokens + unit - 1) / unit;
      for (int b = cap; b >= c; b--) {
        double v = best[b - c] + score[i];
        if (v > best[b] + 1e-12) {
          best[b] = v;
          take[k][b] = true;
        }
      }
    }
    List<Integer> out = new ArrayList<>();
    int b = cap;
    for (int k = m - 1; k >= 0; k--) {
      if (take[k][b]) {
        int i = items.get(k);
        out.add(i);
        b -= (tokens[i] + gapTokens + unit - 1) / unit;
      }
    }
    out.sort(Comparator.comparingDouble(i -> -score[i]));
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The part of {@code s} between clause boundaries ({@code , ; : — –} and the like) that fits
   * {@code room} tokens and holds the most query terms (ties: the longer, then the earlier), as
   * offsets in the part; {@code null} when none fits or none holds a query term.
   */
  private int[] bestClause(String query, Sentence s, int room) {
    if (room < MIN_CLAUSE_TOKENS) return null;
    String text = s.text();
    List<Integer> bounds = new ArrayList<>();
    bounds.add(0);
    for (int i = 0; i < text.length() - 1; i++) {
      char c = text.charAt(i);
      if ((c == ',' || c == ';' || c == ':' || c == '—' || c == '–' || c == ')') && Character.isWhitespace(text.charAt(i + 1))) {
        bounds.add(i + 2);
      }
    }
    bounds.add(text.length());
    if (bounds.size() < 3) return null;
    Set<String> q = terms(query);
    int best = -1;
    int[] bestSpan = null;
    int bestLength = 0;
    for (int a = 0; a < bounds.size() - 1; a++) {
      for (int b = a + 1; b < bounds.size(); b++) {
        if (a == 0 && b == bounds.size() - 1) continue; // the whole sentence did not fit
        int start = bounds.get(a);
        int end = bounds.get(b);
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) end--;
        if (end <= start) continue;
        String piece = text.substring(start, end);
        if (tokenizer.count(piece) > room) break;
        Set<String> hit = new HashSet<>();
        Terms.scan(piece, (t, at) -> {
          String w = t.toString();
          if (q.contains(w)) hit.add(w);
        });
        if (hit.size() > best || (hit.size() == best && end - start > bestLength)) {
          best = hit.size();
          bestLength = end - start;
          bestSpan = new int[] {s.start() + start, s.start() + end};
        }
      }
    }
    return best > 0 ? bestSpan : null;
  }

  private static boolean samePart(Sentence a, Sentence b) {
    return a.input() == b.input() && a.part() == b.part();
  }

  /**
   * What joining sentence {@code i} to its passage's kept text costs besides its own tokens: nothing
   * for the passage's first kept span or next to a kept sentence, else a gap marker.
   */
  private int gapCost(List<Sentence> sentences, boolean[] kept, int i) {
    if (adjacentKept(sentences, kept, i)) return 0;
    int input = sentences.get(i).input();
    for (int j = i - 1; j >= 0 && sentences.get(j).input() == input; j--) if (kept[j]) return gapTokens;
    for (int j = i + 1; j < sentences.size() && sentences.get(j).input() == input; j++) if (kept[j]) return gapTokens;
    return 0;
  }

  private static boolean adjacentKept(List<Sentence> sentences, boolean[] kept, int i) {
    Sentence s = sentences.get(i);
    return (i > 0 && kept[i - 1] && samePart(sentences.get(i - 1), s))
        || (i + 1 < sentences.size() && kept[i + 1] && samePart(sentences.get(i + 1), s));
  }

  /** Each passage's kept spans: runs of adjacent kept sentences become one span, in source order. */
  private List<Compression.Compressed> render(List<CompressInput> inputs, List<Sentence> sentences, Selection sel) {
    List<List<Compression.Span>> spans = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) spans.add(new ArrayList<>());
    int runStart = -1;
    for (int i = 0; i < sentences.size(); i++) {
      Sentence s = sentences.get(i);
      boolean in = sel.kept[i];
      if (in && runStart < 0) runStart = i;
      boolean last = i + 1 == sentences.size() || !samePart(sentences.get(i + 1), s) || !sel.kept[i + 1];
      if (in && last) {
        Sentence first = sentences.get(runStart);
        spans.get(s.input()).add(new Compression.Span(s.part(), first.start(), s.end()));
        runStart = -1;
      }
      int[] cut = sel.cuts.get(i);
      if (cut != null) spans.get(s.input()).add(new Compression.Span(s.part(), cut[0], cut[1]));
    }
    List<Compression.Compressed> out = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      List<Compression.Span> ss = spans.get(i);
      if (ss.isEmpty()) continue;
      ss.sort(Comparator.comparingInt(Compression.Span::part).thenComparingInt(Compression.Span::start));
      StringBuilder text = new StringBuilder();
      for (Compression.Span sp : ss) {
        if (text.length() > 0) text.append(Passage.GAP);
        text.append(inputs.get(i).parts().get(sp.part()).text(), sp.start(), sp.end());
      }
      String t = text.toString();
      out.add(new Compression.Compressed(inputs.get(i).id(), t, ss, tokenizer.count(t)));
    }
    return out;
  }

  private List<Compression.Dropped> dropped(List<CompressInput> inputs, List<Sentence> sentences, Selection sel,
      DropReason[] flagged, double[] score, int[] tokens, double onTopic, boolean[] hasTerm, Set<String> queryTerms,
      boolean[] anchored) {
    List<Compression.Dropped> out = new ArrayList<>();
    for (int i = 0; i < sentences.size(); i++) {
      if (sel.kept[i]) continue;
      Sentence s = sentences.get(i);
      DropReason reason = flagged[i] != null ? flagged[i]
          : offTopic(i, sentences, hasTerm, queryTerms, score, onTopic, anchored) ? DropReason.OFF_TOPIC : DropReason.BUDGET;
      String id = inputs.get(s.input()).id();
      int[] cut = sel.cuts.get(i);
      if (cut != null) {
        if (cut[0] > s.start()) out.add(dropped(id, s, s.start(), cut[0], reason, score[i]));
        if (cut[1] < s.end()) out.add(dropped(id, s, cut[1], s.end(), reason, score[i]));
        continue;
      }
      out.add(new Compression.Dropped(id, new Compression.Span(s.part(), s.start(), s.end()), reason, score[i], tokens[i]));
    }
    return out;
  }

  /** The rest of a sentence cut at a clause, {@code [start, end)} of its part, counted alone. */
  private Compression.Dropped dropped(String id, Sentence s, int start, int end, DropReason reason, double score) {
    int tokens = tokenizer.count(s.text().substring(start - s.start(), end - s.start()));
    return new Compression.Dropped(id, new Compression.Span(s.part(), start, end), reason, score, tokens);
  }

  /**
   * Off-topic rather than over the budget: below the threshold or the scorer's on-topic line, or
   * short of an even chance with no query term in the sentence or its neighbours.
   */
  private static boolean offTopic(int i, List<Sentence> sentences, boolean[] hasTerm, Set<String> queryTerms,
      double[] score, double onTopic, boolean[] anchored) {
    if (!Double.isNaN(onTopic) && score[i] < onTopic) return true;
    // Dropped and sharing no query term with its neighbourhood: off-topic, whatever its passage.
    return unrelated(i, sentences, hasTerm, queryTerms, score, null);
  }

  /**
   * Unrelated to the query, and never kept: short of an even chance by the scorer, no query term in
   * the sentence or its neighbours, in a passage that holds query terms elsewhere. A passage with no
   * query term at all was found by meaning (dense retrieval, a paraphrase): its sentences are left
   * to the scores and the budget ({@code anchored} null: every passage counts as holding some).
   */
  private static boolean unrelated(int i, List<Sentence> sentences, boolean[] hasTerm, Set<String> queryTerms,
      double[] score, boolean[] anchored) {
    if (score[i] >= 0.5 || queryTerms.isEmpty()) return false;
    if (anchored != null && !anchored[sentences.get(i).input()]) return false;
    for (int j = Math.max(0, i - 1); j <= Math.min(sentences.size() - 1, i + 1); j++) {
      if (j != i && !samePart(sentences.get(j), sentences.get(i))) continue;
      if (hasTerm[j]) return false;
    }
    return true;
  }

  private static boolean hasTerm(String text, Terms.Table queryTerms) {
    boolean[] hit = {false};
    Terms.scan(text, (t, at) -> {
      if (!hit[0] && queryTerms.contains(t)) hit[0] = true;
    });
    return hit[0];
  }

  /** The query's terms that are not stop words. */
  private static Set<String> terms(String query) {
    Set<String> q = new HashSet<>();
    Terms.scan(query, (t, at) -> {
      String w = t.toString();
      if (!Terms.STOP_WORDS.contains(w)) q.add(w);
    });
    return q;
  }

  private static int total(List<Compression.Compressed> passages) {
    int t = 0;
    for (Compression.Compressed c : passages) t += c.tokens();
    return t;
  }

  private static String joined(CompressInput in) {
    if (in.parts().size() == 1) return in.parts().get(0).text();
    StringBuilder sb = new StringBuilder();
    for (CompressInput.Part p : in.parts()) {
      if (sb.length() > 0) sb.append(Passage.GAP);
      sb.append(p.text());
    }
    return sb.toString();
  }

  /**
   * What two sentences share when one repeats the other: the text lower-cased with runs of
   * whitespace made one space (cheaper than the identity form, and what a repeated sentence of a
   * page template differs by).
   */
  private static String repeatKey(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    boolean space = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        space = sb.length() > 0;
        continue;
      }
      if (space) sb.append(' ');
      space = false;
      sb.append(Character.toLowerCase(c));
    }
    return sb.toString();
  }

  private static int words(String s) {
    int n = 0;
    boolean in = false;
    for (int i = 0; i < s.length(); i++) {
      boolean w = Character.isLetterOrDigit(s.charAt(i));
      if (w && !in) n++;
      in = w;
    }
    return n;
  }

  /** Defaults: the fitted feature scorer without vectors, o200k_base. */
  public static final class Builder {
    private SentenceScorer scorer;
    private Tokenizer tokenizer = Tokenizers.defaultTokenizer();

    public Builder scorer(SentenceScorer s) {
      this.scorer = Objects.requireNonNull(s, "scorer");
      return this;
    }

    public Builder tokenizer(Tokenizer t) {
      this.tokenizer = Objects.requireNonNull(t, "tokenizer");
      return this;
    }

    public ExtractiveCompressor build() {
      if (scorer == null) scorer = FeatureSentenceScorer.defaults(SentenceVectors.none());
      return new ExtractiveCompressor(this);
    }
  }
}
