package dev.ctxpack.select;

import dev.ctxpack.model.Passage;
import dev.ctxpack.similarity.PassageVectors;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.ToIntFunction;

/**
 * What one selection may spend and how: passages whose {@code cost} sums to at most {@code budget}
 * tokens; with {@code mmrLambda} present, diversified by maximal marginal relevance with that
 * relevance weight, comparing passages by {@code vectors} (word sets where a passage has none).
 */
public record Selection(int budget, ToIntFunction<Passage> cost, OptionalDouble mmrLambda, PassageVectors vectors) {
  public Selection {
    if (budget < 0) throw new IllegalArgumentException("budget must be >= 0, was " + budget);
    Objects.requireNonNull(cost, "cost");
    mmrLambda = mmrLambda == null ? OptionalDouble.empty() : mmrLambda;
    if (mmrLambda.isPresent() && !(mmrLambda.getAsDouble() >= 0 && mmrLambda.getAsDouble() <= 1)) {
      throw new IllegalArgumentException("MMR lambda must be in [0, 1], was " + mmrLambda.getAsDouble());
    }
    vectors = vectors == null ? PassageVectors.none() : vectors;
  }

  /** By score alone, best first: no diversification, no vectors. */
  public static Selection byScore(int budget, ToIntFunction<Passage> cost) {
    return new Selection(budget, cost, OptionalDouble.empty(), PassageVectors.none());
  }
}
