package dev.ctxpack.app.cli;

import dev.ctxpack.app.UsageException;
import dev.ctxpack.retrieve.Fusion;
import dev.ctxpack.retrieve.RrfFusion;
import dev.ctxpack.retrieve.WeightedFusion;
import java.util.Locale;
import picocli.CommandLine.Option;

/** How hybrid retrieval fuses BM25 and dense rankings. */
final class FusionFlags {
  @Option(names = "--fusion", defaultValue = "rrf",
      description = "Hybrid fusion: rrf (reciprocal rank) or weighted (min-max normalised scores). Default: ${DEFAULT-VALUE}.")
  String fusion;

  @Option(names = "--rrf-k", defaultValue = "60", paramLabel = "K",
      description = "RRF constant k (ranks are 1-based). Default: ${DEFAULT-VALUE}.")
  int rrfK;

  @Option(names = "--weights", defaultValue = "1,1", paramLabel = "BM25,DENSE",
      description = "Weights of the BM25 and dense lists. Default: ${DEFAULT-VALUE}.")
  String weights;

  Fusion fusion() {
    String[] parts = weights.split(",");
    if (parts.length != 2) throw new UsageException("--weights takes two numbers, BM25,DENSE, was '" + weights + "'");
    double[] w = new double[2];
    for (int i = 0; i < 2; i++) {
      try {
        w[i] = Double.parseDouble(parts[i].trim());
      } catch (NumberFormatException e) {
        throw new UsageException("--weights takes two numbers, BM25,DENSE, was '" + weights + "'");
      }
    }
    return switch (fusion.trim().toLowerCase(Locale.ROOT)) {
      case "rrf" -> w[0] == 1 && w[1] == 1 ? new RrfFusion(rrfK) : new RrfFusion(rrfK, w);
      case "weighted" -> new WeightedFusion(w);
      default -> throw new UsageException("unknown fusion '" + fusion + "': use rrf or weighted");
    };
  }
}
