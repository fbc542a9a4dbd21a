package dev.ctxpack.dedup;

import dev.ctxpack.similarity.Guard;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Options of the dedup cascade. {@code nearJaccard} is the Jaccard similarity of {@code shingle}-word
 * shingles at which two passages are near copies, {@code nearContainment} the share of the smaller
 * passage's shingles found in the larger at which they are too (a copy with a sentence added or
 * removed: one inserted sentence of 20 words lowers the Jaccard of a 120-word passage to 0.85); {@code semanticCosine} the embedding cosine at
 * which they are grouped; {@code guard} keeps passages that differ in a negation, number, date or
 * condition apart at every level after exact ({@code alignMin} and {@code semanticAlignMin} are the
 * {@link Guard}'s sentence alignment thresholds for lexical and semantic matches).
 */
public record DedupOptions(
    Set<DedupLevel> levels,
    int shingle,
    double nearJaccard,
    double nearContainment,
    double semanticCosine,
    boolean guard,
    double alignMin,
    double semanticAlignMin) {
  public static final int DEFAULT_SHINGLE = 5;
  public static final double DEFAULT_NEAR_JACCARD = 0.85;
  public static final double DEFAULT_NEAR_CONTAINMENT = 0.90;
  public static final double DEFAULT_SEMANTIC_COSINE = 0.91;
  public static final double DEFAULT_SEMANTIC_ALIGN_MIN = 0.3;

  public DedupOptions {
    levels = levels.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(levels));
    if (shingle < 1) throw new IllegalArgumentException("shingle must be >= 1 word, was " + shingle);
    check("nearJaccard", nearJaccard);
    check("nearContainment", nearContainment);
    check("semanticCosine", semanticCosine);
    check("alignMin", alignMin);
    check("semanticAlignMin", semanticAlignMin);
  }

  private static void check(String name, double v) {
    if (!(v > 0 && v <= 1)) throw new IllegalArgumentException(name + " must be in (0, 1], was " + v);
  }

  /** Every level, guarded: the last pass before the prompt. */
  public static DedupOptions strict() {
    return new DedupOptions(EnumSet.allOf(DedupLevel.class), DEFAULT_SHINGLE, DEFAULT_NEAR_JACCARD,
        DEFAULT_NEAR_CONTAINMENT, DEFAULT_SEMANTIC_COSINE, true, Guard.DEFAULT_ALIGN_MIN, DEFAULT_SEMANTIC_ALIGN_MIN);
  }

  /** Exact, near and overlap: cheap and safe, run before reranking to spare the reranker. */
  public static DedupOptions conservative() {
    return strict().withLevels(EnumSet.of(DedupLevel.EXACT, DedupLevel.NEAR, DedupLevel.OVERLAP));
  }

  public DedupOptions withLevels(Set<DedupLevel> l) {
    return new DedupOptions(l, shingle, nearJaccard, nearContainment, semanticCosine, guard, alignMin, semanticAlignMin);
  }

  public DedupOptions withNearJaccard(double j) {
    return new DedupOptions(levels, shingle, j, nearContainment, semanticCosine, guard, alignMin, semanticAlignMin);
  }

  public DedupOptions withNearContainment(double c) {
    return new DedupOptions(levels, shingle, nearJaccard, c, semanticCosine, guard, alignMin, semanticAlignMin);
  }

  public DedupOptions withSemanticCosine(double c) {
    return new DedupOptions(levels, shingle, nearJaccard, nearContainment, c, guard, alignMin, semanticAlignMin);
  }

  public DedupOptions withGuard(boolean on) {
    return new DedupOptions(levels, shingle, nearJaccard, nearContainment, semanticCosine, on, alignMin, semanticAlignMin);
  }

  public String describe() {
    return "levels=" + levels.stream().map(DedupLevel::key).toList() + ", near=jaccard>=" + nearJaccard
        + " or containment>=" + nearContainment + " on " + shingle + "-word shingles, semantic=cosine>=" + semanticCosine + ", guard=" + guard;
  }
}
