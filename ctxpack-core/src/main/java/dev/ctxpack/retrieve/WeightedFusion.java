package dev.ctxpack.retrieve;

import dev.ctxpack.model.Candidate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Weighted score fusion: each list's scores are min-max normalised to [0, 1] within the list, then
 * summed with the list's weight; a candidate missing from a list gets 0 from it.
 */
public final class WeightedFusion implements Fusion {
  private final double[] weights;

  public WeightedFusion(double... weights) {
    if (weights.length == 0) throw new IllegalArgumentException("weighted fusion needs at least one weight");
    for (double w : weights) {
      if (!(w >= 0)) throw new IllegalArgumentException("fusion weights must be >= 0, was " + w);
    }
    this.weights = weights.clone();
  }

  @Override
  public String describe() {
    return "weighted(" + java.util.Arrays.toString(weights) + ", min-max)";
  }

  @Override
  public List<Candidate> fuse(List<List<Candidate>> rankedLists, int topK) {
    Map<String, Candidate> byId = FusionSupport.newMap();
    Map<String, Double> fused = new HashMap<>();
    for (int l = 0; l < rankedLists.size(); l++) {
      double w = l < weights.length ? weights[l] : weights[weights.length - 1];
      List<Candidate> list = rankedLists.get(l);
      if (list.isEmpty()) continue;
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (Candidate c : list) {
        min = Math.min(min, c.score());
        max = Math.max(max, c.score());
      }
      double range = max - min;
      for (Candidate c : list) {
        FusionSupport.register(byId, c);
        double norm = range > 0 ? (c.score() - min) / range : 1.0;
        fused.merge(c.chunk().id(), w * norm, Double::sum);
      }
    }
    return FusionSupport.rank(byId, fused, topK);
  }
}
