package dev.ctxpack.compress;

import dev.ctxpack.model.Deadline;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Chooses what a compression keeps within its budget, best first: with calibrated scores a 0/1
 * knapsack over the within-request probabilities, then the best sentences left while they fit (a
 * sentence that leans on the previous one, {@link Dependence}, bringing it along), then, when room
 * is left but no whole sentence fits, the best sentences left cut at a clause ({@link
 * ClauseCutter}). The threshold, when set, bounds every step. Step 3 of {@link
 * ExtractiveCompressor}'s flow. Thread-safe if its scorer is.
 */
final class BudgetedSelector {
  /**
   * How much the knapsack's values favour the likeliest sentences: 1 (plain odds) kept the answer
   * most often at 10 % of the tokens on the FIT half of SQuAD (1, 2, 4, 8 tried).
   */
  static final double SHARPNESS = 1;
  /** How many of the best sentences left are tried for a clause cut. */
  static final int MAX_CUT_TRIES = 3;

  private final SentenceScorer scorer;
  private final Tokenizer tokenizer;
  private final int gapTokens;
  private final ClauseCutter clauses;
  private final SpanRenderer renderer;

  BudgetedSelector(SentenceScorer scorer, Tokenizer tokenizer, int gapTokens, ClauseCutter clauses,
      SpanRenderer renderer) {
    this.scorer = scorer;
    this.tokenizer = tokenizer;
    this.gapTokens = gapTokens;
    this.clauses = clauses;
    this.renderer = renderer;
  }

  Selection select(String query, List<CompressInput> inputs, List<Sentence> sentences, DropReason[] flagged,
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
      for (int i : knapsack(flagged, score, value, tokens, o, budget)) {
        sel.kept[i] = true;
        sel.units.add(new int[] {i});
      }
      // The knapsack charged every sentence a gap; what is left is counted exactly.
      spent = SpanRenderer.total(renderer.render(inputs, sentences, sel));
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
          if (prev < 0 || !Selection.samePart(sentences.get(prev), sentences.get(s)) || flagged[prev] != null || sel.kept[prev]) break;
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
        if (!Selection.samePart(sentences.get(prev), sentences.get(i)) || flagged[prev] != null || sel.kept[prev]) continue;
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
        if (budget - spent < ClauseCutter.MIN_CLAUSE_TOKENS + gapTokens || tries == MAX_CUT_TRIES) break;
        if (flagged[i] != null || sel.kept[i]) continue;
        if (threshold && score[i] < o.threshold()) break;
        tries++;
        int[] cut = clauses.bestClause(query, sentences.get(i), budget - spent - gapTokens);
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
   * The eligible sentences (their own {@code probability} at least the threshold, if any) whose
   * {@code score}s sum highest with costs (tokens and a gap each) within {@code budget}: 0/1 knapsack
   * by dynamic programming, costs rounded up to a coarser unit when the table would be large. Ties
   * keep the earlier sentence.
   */
  private int[] knapsack(DropReason[] flagged, double[] probability, double[] score, int[] tokens, CompressOptions o,
      int budget) {
    List<Integer> items = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < score.length; i++) {
      if (flagged[i] != null || !(score[i] > 0)) continue;
      if (!Double.isNaN(o.threshold()) && probability[i] < o.threshold()) continue;
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
      if ((k & 63) == 0) Deadline.check();
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
    return (i > 0 && kept[i - 1] && Selection.samePart(sentences.get(i - 1), s))
        || (i + 1 < sentences.size() && kept[i + 1] && Selection.samePart(sentences.get(i + 1), s));
  }
}
