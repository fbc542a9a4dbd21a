package dev.ctxpack.verify;

import java.util.List;

/** The lexical verifier's verdict on one claim citing one source, for the table tests. */
final class LexicalVerdict {
  private static final EvidenceVerifier VERIFIER = EvidenceVerifier.lexical();

  private LexicalVerdict() {}

  /** The verdict on {@code claim} citing {@code source} as S1. */
  static ClaimVerdict of(String source, String claim) throws Exception {
    Verification v = VERIFIER.verify(null, List.of(new VerifySource("S1", source)), Answer.parse(claim + " [S1]."));
    return v.claims().get(0);
  }
}
