package dev.ctxpack.bench.data;

import java.util.Objects;

/**
 * Two texts and a human judgment of whether they say the same thing. {@code set} names the file
 * or split the pair comes from; {@code label} is the data set's own label (MRPC quality {@code 0} or
 * {@code 1}; ASSIN {@code None}, {@code Entailment} or {@code Paraphrase}); {@code paraphrase} is
 * the gold duplicate decision derived from it; {@code similarity} the data set's graded similarity,
 * {@code NaN} when it has none.
 */
public record TextPair(String id, String set, String a, String b, String label, boolean paraphrase, double similarity) {
  public TextPair {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(set, "set");
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    label = label == null ? "" : label;
  }
}
