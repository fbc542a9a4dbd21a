package dev.ctxpack.rerank;

/**
 * The shipped {@link FeatureReranker} ({@code features:v1}) under the {@link RerankerContract}. Its
 * {@code input_rr} feature reads each candidate's position in the input (the first stage's order),
 * so the input-order check is declared off; {@link PositionFreeFeatureRerankerContractTest} runs it
 * on the same weights without that feature.
 */
class FeatureRerankerContractTest extends RerankerContract {
  @Override
  protected Reranker reranker() {
    return FeatureReranker.defaults();
  }

  @Override
  protected boolean scoresDependOnInputOrder() {
    return true;
  }
}
