package dev.ctxpack.bench.compress;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceScorer;
import java.util.List;

/**
 * The best any sentence selector can do: a sentence holding one of the gold answers (exact,
 * case-sensitive) scores minus its length in chars, so the shortest comes first; every other
 * sentence scores negative infinity and is never kept. Built per question.
 */
public final class OracleSentenceScorer implements SentenceScorer {
  private final List<String> answers;

  public OracleSentenceScorer(List<String> answers) {
    this.answers = List.copyOf(answers);
  }

  @Override
  public String id() {
    return "oracle";
  }

  @Override
  public double[] score(String query, List<CompressInput> inputs, List<Sentence> sentences) {
    double[] out = new double[sentences.size()];
    for (int i = 0; i < out.length; i++) {
      String text = sentences.get(i).text();
      out[i] = answers.stream().anyMatch(text::contains) ? -text.length() : Double.NEGATIVE_INFINITY;
    }
    return out;
  }
}
