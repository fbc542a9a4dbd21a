package dev.ctxpack.verify;

import java.util.List;

/**
 * The verdict on one claim: over all its valid citations together, with the best evidence
 * ({@code null} when nothing was found), each citation's own check, the parts of the claim no
 * cited source states ({@code missing}: terms, numbers, names), and a one-line reason. {@code
 * betterSources} lists given sources the claim does not cite that support it, best first.
 */
public record ClaimVerdict(
    int index,
    Claim claim,
    Verdict verdict,
    Evidence evidence,
    List<CitationCheck> checks,
    List<String> missing,
    List<String> betterSources,
    String reason) {
  public ClaimVerdict {
    checks = List.copyOf(checks);
    missing = List.copyOf(missing);
    betterSources = List.copyOf(betterSources);
  }
}
