package dev.ctxpack.compress;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one compression keeps: whole sentences (in units, each with the predecessors it brought
 * along) and sentences cut to a clause-aligned part. Built by {@link BudgetedSelector}, rendered by
 * {@link SpanRenderer}, shrunk by {@link #dropWeakest} while the rendered text is over the budget,
 * and read by {@link ExtractiveCompressor} to report what was dropped. One request's own.
 */
final class Selection {
  final boolean[] kept;
  /** Kept sentences in the order they were taken, each unit's members together. */
  final List<int[]> units = new ArrayList<>();
  /** Sentences kept in part: sentence -> {start, end} in its part, in the order taken. */
  final Map<Integer, int[]> cuts = new LinkedHashMap<>();

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

  /** Whether two sentences are of one part of one passage: only such sentences join into one span. */
  static boolean samePart(Sentence a, Sentence b) {
    return a.input() == b.input() && a.part() == b.part();
  }
}
