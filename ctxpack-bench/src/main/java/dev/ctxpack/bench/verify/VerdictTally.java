package dev.ctxpack.bench.verify;

import dev.ctxpack.verify.Verdict;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts of one system on one kind of case: how many were verified, how many of them were caught
 * (the caller decides what caught means for the kind) and the verdicts given.
 */
public final class VerdictTally {
  private final EnumMap<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
  private int n;
  private int caught;

  public void add(Verdict verdict, boolean isCaught) {
    n++;
    verdicts.merge(verdict, 1, Integer::sum);
    if (isCaught) caught++;
  }

  public int n() {
    return n;
  }

  public int caught() {
    return caught;
  }

  public int count(Verdict v) {
    return verdicts.getOrDefault(v, 0);
  }

  /** caught / n, NaN when empty. */
  public double caughtRate() {
    return n == 0 ? Double.NaN : (double) caught / n;
  }

  /** count(v) / n, NaN when empty. */
  public double rate(Verdict v) {
    return n == 0 ? Double.NaN : (double) count(v) / n;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("n", n);
    m.put("caught", caught);
    Map<String, Integer> v = new LinkedHashMap<>();
    for (Verdict x : Verdict.values()) v.put(x.wireName(), count(x));
    m.put("verdicts", v);
    return m;
  }
}
