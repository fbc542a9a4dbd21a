package dev.ctxpack.retrieve;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Signal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared bookkeeping of the fusions: merge candidates by chunk id, then rank by fused score. */
final class FusionSupport {
  private FusionSupport() {}

  static List<Candidate> rank(Map<String, Candidate> byId, Map<String, Double> fused, int k) {
    List<Candidate> out = new ArrayList<>(byId.size());
    for (Map.Entry<String, Candidate> e : byId.entrySet()) {
      Candidate c = e.getValue();
      out.add(c.withScores(c.scores().with(Signal.FUSED, fused.getOrDefault(e.getKey(), 0.0))));
    }
    out.sort(Comparator.comparingDouble((Candidate c) -> -c.scores().getOr(Signal.FUSED, 0))
        .thenComparing(c -> c.chunk().id()));
    return out.size() > k ? List.copyOf(out.subList(0, k)) : List.copyOf(out);
  }

  /** Registers {@code c} under its chunk id, merging its scores with an earlier sighting. */
  static void register(Map<String, Candidate> byId, Candidate c) {
    byId.merge(c.chunk().id(), c, (a, b) -> a.withScores(a.scores().merge(b.scores())));
  }

  static Map<String, Candidate> newMap() {
    return new LinkedHashMap<>();
  }
}
