package dev.ctxpack.bench.verify;

import dev.ctxpack.bench.verify.VerifyData.Gold;
import dev.ctxpack.verify.Verdict;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SciFact's confusion of gold labels (SUPPORT, CONTRADICT, NOEVIDENCE) against verdicts, and the
 * three-class accuracy: supported = SUPPORT, contradicted = CONTRADICT, anything else (partial,
 * unsupported, uncited) = not supported = NOEVIDENCE.
 */
public final class Confusion {
  private final EnumMap<Gold, EnumMap<Verdict, Integer>> cells = new EnumMap<>(Gold.class);
  private int hits;
  private int hitsOf;

  public Confusion() {
    for (Gold g : Gold.values()) cells.put(g, new EnumMap<>(Verdict.class));
  }

  public void add(Gold gold, Verdict predicted) {
    cells.get(gold).merge(predicted, 1, Integer::sum);
  }

  /** Evidence recall@1: one more gold SUPPORT or CONTRADICT case, hit when the evidence overlaps a rationale sentence. */
  public void addEvidence(boolean hit) {
    hitsOf++;
    if (hit) hits++;
  }

  public int count(Gold gold, Verdict predicted) {
    return cells.get(gold).getOrDefault(predicted, 0);
  }

  public int total(Gold gold) {
    return cells.get(gold).values().stream().mapToInt(Integer::intValue).sum();
  }

  public int total() {
    int t = 0;
    for (Gold g : Gold.values()) t += total(g);
    return t;
  }

  /** The three classes a verdict falls in. */
  public static Gold predictedClass(Verdict v) {
    return switch (v) {
      case SUPPORTED -> Gold.SUPPORT;
      case CONTRADICTED -> Gold.CONTRADICT;
      default -> Gold.NOEVIDENCE;
    };
  }

  /** Share of cases whose verdict's class is the gold label; NaN when empty. */
  public double accuracy3() {
    int right = 0;
    for (Gold g : Gold.values()) {
      for (Map.Entry<Verdict, Integer> e : cells.get(g).entrySet()) if (predictedClass(e.getKey()) == g) right += e.getValue();
    }
    return total() == 0 ? Double.NaN : (double) right / total();
  }

  /** Share right on supported (SUPPORT) against not supported (CONTRADICT, NOEVIDENCE); NaN when empty. */
  public double accuracy2() {
    int right = 0;
    for (Gold g : Gold.values()) {
      for (Map.Entry<Verdict, Integer> e : cells.get(g).entrySet()) {
        if ((g == Gold.SUPPORT) == (e.getKey() == Verdict.SUPPORTED)) right += e.getValue();
      }
    }
    return total() == 0 ? Double.NaN : (double) right / total();
  }

  public int evidenceHits() {
    return hits;
  }

  public int evidenceCases() {
    return hitsOf;
  }

  public double evidenceRecall() {
    return hitsOf == 0 ? Double.NaN : (double) hits / hitsOf;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    Map<String, Object> rows = new LinkedHashMap<>();
    for (Gold g : Gold.values()) {
      Map<String, Integer> row = new LinkedHashMap<>();
      for (Verdict v : Verdict.values()) row.put(v.wireName(), count(g, v));
      rows.put(g.name(), row);
    }
    m.put("confusion", rows);
    m.put("n", total());
    m.put("accuracy3", accuracy3());
    m.put("accuracySupportedVsNot", accuracy2());
    m.put("evidenceRecallAt1", evidenceRecall());
    m.put("evidenceHits", hits);
    m.put("evidenceCases", hitsOf);
    return m;
  }
}
