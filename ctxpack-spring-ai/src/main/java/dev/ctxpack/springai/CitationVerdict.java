package dev.ctxpack.springai;

import dev.ctxpack.verify.Verification;
import java.util.List;
import java.util.Objects;

/**
 * What {@link CtxpackAdvisor} found when it checked the answer's citations against the sources the
 * model was given: the {@link Verification} of the answer returned (claim verdicts, invented labels,
 * citation precision and recall, feedback) and, when the advisor asked the model once more, the
 * verification of the first answer. Read it from the response:
 *
 * <pre>{@code
 * ChatClientResponse r = chatClient.prompt().user(q).call().chatClientResponse();
 * CitationVerdict v = (CitationVerdict) r.context().get(CtxpackAdvisor.VERDICT);
 * // or r.chatResponse().getMetadata().get(CtxpackAdvisor.VERDICT)
 * if (!v.invalidCitations().isEmpty()) ... // the model cited a source it was not given
 * }</pre>
 *
 * @param verification the verification of the answer returned
 * @param reasked whether the model was asked again (at most once)
 * @param first the verification of the first answer when {@code reasked}, else the same as {@code verification}
 */
public record CitationVerdict(Verification verification, boolean reasked, Verification first) {
  /** Checks that the verifications are given. */
  public CitationVerdict {
    Objects.requireNonNull(verification, "verification");
    Objects.requireNonNull(first, "first");
  }

  /** Labels the returned answer cites that name no source it was given (invented citations). */
  public List<String> invalidCitations() {
    return verification.invalidCitations();
  }

  /** Whether the returned answer passed: {@link Verification#passed()}. */
  public boolean passed() {
    return verification.passed();
  }
}
