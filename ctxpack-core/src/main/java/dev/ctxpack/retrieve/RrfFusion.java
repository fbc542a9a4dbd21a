package dev.ctxpack.retrieve;

import dev.ctxpack.model.Candidate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal rank fusion: {@code fused = sum over lists of weight / (k + rank)}, ranks 1-based
 * (Cormack et al. 2009). Default k = 60, equal weights.
 */
public final class RrfFusion implements Fusion {
  public static final int DEFAULT_K = 60;
  private final int k;
  private final double[] weights;

  public RrfFusion() {
    this(DEFAULT_K);
  }

  public RrfFusion(int k, double... weights) {
    if (k < 1) throw new IllegalArgumentException("rrf k must be >= 1, was " + k);
    for (double w : weights) {
      if (!(w >= 0)) throw new IllegalArgumentException("rrf weights must be >= 0, was " + w);
    }
    this.k = k;
    this.weights = weights.clone();
  }

  public int k() {
    return k;
  }

  @Override
  public String describe() {
    return weights.length == 0 ? "rrf(k=" + k + ")" : "rrf(k=" + k + ", weights=" + java.util.Arrays.toString(weights) + ")";
  }

  @Override
  public List<Candidate> fuse(List<List<Candidate>> rankedLists, int topK) {
    Map<String, Candidate> byId = FusionSupport.newMap();
    Map<String, Double> fused = new HashMap<>();
    for (int l = 0; l < rankedLists.size(); l++) {
      double w = l < weights.length ? weights[l] : 1.0;
      List<Candidate> list = rankedLists.get(l);
      for (int r = 0; r < list.size(); r++) {
        Candidate c = list.get(r);
        FusionSupport.register(byId, c);
        fused.merge(c.chunk().id(), w / (k + r + 1.0), Double::sum);
      }
    }
    return FusionSupport.rank(byId, fused, topK);
  }
}
