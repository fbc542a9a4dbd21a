package dev.ctxpack.select;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.similarity.Words;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.Decimals;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * Maximal marginal relevance under a token budget: repeatedly takes, among the passages that still
 * fit, the one maximising {@code λ·relevance − (1−λ)·max similarity to those already taken}
 * (Carbonell and Goldstein's max-over-selected form). Relevance is the passage score scaled to
 * [0, 1] over the list; similarity is the cosine of the passages' vectors when both have one, else
 * the Jaccard of their word sets. A passage that no longer fits is skipped, so a smaller one can
 * use the space (the budget-aware part). λ = 1 is greedy by score.
 *
 * <p>Each passage left out gets a decision with its similarity to what was taken. Stateless;
 * thread-safe.
 */
public final class MmrSelector implements Selector {
  public static final double DEFAULT_LAMBDA = 0.7;

  /**
   * Selects with the selection's λ ({@value #DEFAULT_LAMBDA} when it gives none), comparing passages
   * by the unit vectors {@code selection.vectors()} has for them (word overlap for those it has not).
   */
  @Override
  public List<Passage> select(List<Passage> ranked, Selection selection, Trace trace) throws IOException {
    return select(ranked, selection.budget(), selection.cost(), selection.mmrLambda().orElse(DEFAULT_LAMBDA),
        selection.vectors().vectors(ranked), trace);
  }

  private static List<Passage> select(List<Passage> ranked, int budget, ToIntFunction<Passage> cost, double lambda,
      Map<String, float[]> vectors, Trace trace) {
    int n = ranked.size();
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    for (Passage p : ranked) {
      max = Math.max(max, p.score());
      min = Math.min(min, p.score());
    }
    double[] rel = new double[n];
    int[] costs = new int[n];
    List<Set<String>> words = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Passage p = ranked.get(i);
      rel[i] = max > min ? (p.score() - min) / (max - min) : 1.0;
      costs[i] = cost.applyAsInt(p);
      words.add(vectors.containsKey(p.id()) ? Set.of() : new HashSet<>(Words.of(p.text())));
    }
    double[] maxSim = new double[n]; // max similarity to the selected set
    boolean[] taken = new boolean[n];
    List<Integer> order = new ArrayList<>();
    int left = budget;
    while (true) {
      int best = -1;
      double bestValue = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < n; i++) {
        if (taken[i] || costs[i] > left) continue;
        double v = lambda * rel[i] - (1 - lambda) * maxSim[i];
        if (v > bestValue) { // strict: ties keep the earlier (better ranked) passage
          bestValue = v;
          best = i;
        }
      }
      if (best < 0) break;
      taken[best] = true;
      order.add(best);
      left -= costs[best];
      for (int i = 0; i < n; i++) {
        if (!taken[i]) maxSim[i] = Math.max(maxSim[i], similarity(vectors, ranked.get(i), words.get(i), ranked.get(best), words.get(best)));
      }
    }
    String rule = "mmr:lambda=" + Decimals.fixed(lambda, 2);
    for (int i = 0; i < n; i++) {
      if (taken[i]) continue;
      trace.add(new Decision(Stage.SELECT, Action.DROP, rule,
          List.of(ranked.get(i).id()), "", costs[i],
          "needs " + costs[i] + " tokens, " + left + " left of the evidence budget; similarity to the selected "
              + Decimals.fixed(maxSim[i], 2), maxSim[i]));
    }
    List<Passage> out = new ArrayList<>(order.size());
    for (int i : order) out.add(ranked.get(i));
    return out;
  }

  private static double similarity(Map<String, float[]> vectors, Passage a, Set<String> wa, Passage b, Set<String> wb) {
    float[] va = vectors.get(a.id());
    float[] vb = vectors.get(b.id());
    if (va != null && vb != null && va.length == vb.length) {
      double s = 0;
      for (int i = 0; i < va.length; i++) s += va[i] * vb[i];
      return s;
    }
    if (wa.isEmpty()) wa = new HashSet<>(Words.of(a.text()));
    if (wb.isEmpty()) wb = new HashSet<>(Words.of(b.text()));
    return Words.jaccard(wa, wb);
  }
}
