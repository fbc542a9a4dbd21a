package dev.ctxpack.verify;

/**
 * One citation of a claim, checked alone: whether the ID names a given source, what that source
 * says about the claim, and its best sentence ({@code null} for an invalid ID).
 */
public record CitationCheck(String source, boolean valid, Verdict verdict, Evidence evidence) {
  /** True when this source supports the claim, fully or in part. */
  public boolean supports() {
    return valid && (verdict == Verdict.SUPPORTED || verdict == Verdict.PARTIAL);
  }
}
