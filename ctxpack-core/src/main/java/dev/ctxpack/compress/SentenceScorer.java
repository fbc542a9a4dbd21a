package dev.ctxpack.compress;

import java.io.IOException;
import java.util.List;

/**
 * Scores every sentence of a request against the query; the compressor keeps the highest first.
 * Implementations are thread-safe.
 */
public interface SentenceScorer {

  /** Names the scorer in traces and reports. */
  String id();

  /**
   * One score per sentence, in the order of {@code sentences} (which lists every sentence of {@code
   * inputs}, passage by passage, in source order).
   */
  double[] score(String query, List<CompressInput> inputs, List<Sentence> sentences) throws IOException;

  /**
   * The score below which a sentence is off-topic rather than merely over the budget, when the
   * scorer's scores have such a meaning (a probability); NaN otherwise.
   */
  default double onTopic() {
    return Double.NaN;
  }

  /** {@link #onTopic()} for one query (a scorer may hold one model per language). */
  default double onTopic(String query) {
    return onTopic();
  }

  /**
   * Whether scores are probabilities that a sentence holds what the query asks (calibrated, so two
   * sentences' scores add up): the compressor then chooses the set of sentences with the most
   * probability that fits the budget, rather than the best sentences one by one.
   */
  default boolean probabilities() {
    return false;
  }
}
