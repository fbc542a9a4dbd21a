package dev.ctxpack.langchain4j;

import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.VerifySource;
import java.util.List;
import java.util.Objects;

/**
 * What {@link CtxpackCitationGuardrail} found in one answer: ctxpack's {@link Verification} (each
 * claim's verdict and evidence, invented ids, the feedback text), the sources it was checked against,
 * the answer text, and whether the guardrail asked for a new answer.
 *
 * @param verification the verification
 * @param sources the sources the request was augmented with, by label
 * @param answer the model's answer
 * @param reprompted true when the guardrail returned a reprompt with the feedback
 */
public record CitationVerdict(Verification verification, List<VerifySource> sources, String answer, boolean reprompted) {
  public CitationVerdict {
    Objects.requireNonNull(verification, "verification");
    sources = List.copyOf(sources);
    Objects.requireNonNull(answer, "answer");
  }

  /** The cited ids that name no source ({@code S99}). */
  public List<String> invented() {
    return verification.invalidCitations();
  }

  /** How many claims have {@code verdict}. */
  public long count(Verdict verdict) {
    return verification.claims().stream().filter(c -> c.verdict() == verdict).count();
  }
}
