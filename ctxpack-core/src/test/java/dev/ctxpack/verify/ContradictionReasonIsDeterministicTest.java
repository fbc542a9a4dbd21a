package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sentence holding several opposites of a claim's direction word: the reason names the first in
 * the opposites table's order, whatever the JVM (it once named whichever an immutable set's
 * per-run iteration order gave first: "lowers" in one run, "reduces" or "decreases" in another).
 */
class ContradictionReasonIsDeterministicTest {
  @Test
  void theOppositeNamedIsTheFirstInTableOrder() throws Exception {
    List<VerifySource> sources = List.of(new VerifySource("S1",
        "In the trial, caffeine lowers, reduces and decreases alertness in adults after a night without sleep."));
    Verification v = EvidenceVerifier.lexical().verify(null, sources,
        Answer.parse("In the trial, caffeine increases alertness in adults after a night without sleep [S1]."));
    ClaimVerdict c = v.claims().get(0);
    assertThat(c.verdict()).isEqualTo(Verdict.CONTRADICTED);
    assertThat(c.reason()).contains("says \"increases\"").contains("says \"decreases\"");
  }
}
