package dev.ctxpack.app.cli;

import dev.ctxpack.app.UsageException;
import dev.ctxpack.dedup.DedupLevel;
import dev.ctxpack.dedup.DedupOptions;
import java.util.EnumSet;
import java.util.List;
import picocli.CommandLine.Option;

/** Dedup thresholds, shared by {@code pack} and {@code dedup}. */
final class DedupFlags {
  @Option(names = "--near-jaccard", paramLabel = "J",
      description = "Near-duplicate threshold: Jaccard of 5-word shingles. Default: 0.85.")
  Double nearJaccard;

  @Option(names = "--near-containment", paramLabel = "C",
      description = "Near-duplicate threshold: share of the smaller passage's shingles in the larger. Default: 0.90.")
  Double nearContainment;

  @Option(names = "--semantic-cosine", paramLabel = "C",
      description = "Semantic grouping threshold: embedding cosine. Default: 0.91.")
  Double semanticCosine;

  @Option(names = "--no-guard", description = "Let passages that differ in a negation, number, date or condition merge (ablation).")
  boolean noGuard;

  DedupOptions apply(DedupOptions o) {
    if (nearJaccard != null) o = o.withNearJaccard(check("--near-jaccard", nearJaccard));
    if (nearContainment != null) o = o.withNearContainment(check("--near-containment", nearContainment));
    if (semanticCosine != null) o = o.withSemanticCosine(check("--semantic-cosine", semanticCosine));
    if (noGuard) o = o.withGuard(false);
    return o;
  }

  static EnumSet<DedupLevel> levels(List<String> names) {
    EnumSet<DedupLevel> out = EnumSet.noneOf(DedupLevel.class);
    for (String n : names) {
      try {
        out.add(DedupLevel.parse(n));
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    if (out.isEmpty()) throw new UsageException("--levels must name at least one level");
    return out;
  }

  private static double check(String flag, double v) {
    if (!(v > 0 && v <= 1)) throw new UsageException(flag + " must be in (0, 1], was " + v);
    return v;
  }
}
