package dev.ctxpack.rerank;

import java.util.HashMap;
import java.util.Map;

/**
 * A {@link FeatureReranker} with the shipped weights, means and scales but {@code input_rr} weighed
 * 0, under the whole {@link RerankerContract}: without the input position every feature is computed
 * from the list as a set, so the order of the input must not change a score.
 */
class PositionFreeFeatureRerankerContractTest extends RerankerContract {
  private static final FeatureReranker RERANKER = positionFree();

  private static FeatureReranker positionFree() {
    FeatureReranker shipped = FeatureReranker.defaults();
    Map<String, Double> weights = new HashMap<>(shipped.weights());
    weights.put("input_rr", 0.0);
    return new FeatureReranker("v1-no-position", weights, shipped.means(), shipped.scales());
  }

  @Override
  protected Reranker reranker() {
    return RERANKER;
  }
}
