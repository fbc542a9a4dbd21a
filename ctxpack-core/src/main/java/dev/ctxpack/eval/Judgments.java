package dev.ctxpack.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The relevance judgments of one query: a graded gain per judged document id. A gain of 0 means
 * judged not relevant; anything above 0 is relevant, and higher is better. Negative gains are
 * rejected: map them (or drop them) when loading a data set.
 *
 * <p>Example: {@code Judgments.of(Map.of("d1", 3, "d2", 1, "d3", 0))} has two relevant documents
 * and an ideal gain order of 3, 1.
 */
public record Judgments(Map<String, Integer> gains) {
  public Judgments {
    Objects.requireNonNull(gains, "gains");
    TreeMap<String, Integer> copy = new TreeMap<>();
    for (Map.Entry<String, Integer> e : gains.entrySet()) {
      if (e.getKey() == null || e.getKey().isBlank()) {
        throw new IllegalArgumentException("judged document id must not be blank");
      }
      if (e.getValue() == null || e.getValue() < 0) {
        throw new IllegalArgumentException(
            "gain of document '" + e.getKey() + "' must be >= 0, was " + e.getValue());
      }
      copy.put(e.getKey(), e.getValue());
    }
    gains = Collections.unmodifiableMap(copy);
  }

  public static Judgments of(Map<String, Integer> gains) {
    return new Judgments(gains);
  }

  /** The gain of {@code docId}: 0 when it was not judged. */
  public int gain(String docId) {
    Integer g = gains.get(docId);
    return g == null ? 0 : g;
  }

  public boolean isRelevant(String docId) {
    return gain(docId) > 0;
  }

  /** How many judged documents have a gain above 0. */
  public int relevantCount() {
    int n = 0;
    for (int g : gains.values()) if (g > 0) n++;
    return n;
  }

  public boolean hasRelevant() {
    return relevantCount() > 0;
  }

  /** The gains of all relevant documents, highest first: the order an ideal ranking would have. */
  public List<Integer> idealGains() {
    List<Integer> out = new ArrayList<>();
    for (int g : gains.values()) if (g > 0) out.add(g);
    out.sort(Comparator.reverseOrder());
    return out;
  }
}
