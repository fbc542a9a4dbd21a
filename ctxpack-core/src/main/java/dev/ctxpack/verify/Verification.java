package dev.ctxpack.verify;

import java.util.List;

/**
 * The result of verifying an answer.
 *
 * @param claims every claim, in answer order
 * @param invalidCitations cited IDs that name no given source, in order of first use
 * @param citationPrecision of all citations, the share whose source alone supports its claim (fully
 *     or in part); 1 when there are none
 * @param citationRecall of all claims, the share its citations fully support; 1 when there are none
 * @param abstained whether the answer declines to answer (an abstention phrase in pt or en)
 * @param abstentionCorrect given a query: whether abstaining (or not) was right for these sources;
 *     {@code null} when no query was given
 * @param feedback what to fix, one line per failing claim, for a regeneration loop; empty when all
 *     is well
 * @param quotes each quoted extract of the answer, checked against the source it cites, in answer
 *     order
 * @param gap what an abstaining answer says is missing and what to retrieve next, or null
 */
public record Verification(
    List<ClaimVerdict> claims,
    List<String> invalidCitations,
    double citationPrecision,
    double citationRecall,
    boolean abstained,
    Boolean abstentionCorrect,
    String feedback,
    List<QuoteCheck> quotes,
    Answer.Gap gap) {
  public Verification {
    claims = List.copyOf(claims);
    invalidCitations = List.copyOf(invalidCitations);
    quotes = List.copyOf(quotes);
  }

  /** A verification of an answer without quotes or gap note. */
  public Verification(List<ClaimVerdict> claims, List<String> invalidCitations, double citationPrecision,
      double citationRecall, boolean abstained, Boolean abstentionCorrect, String feedback) {
    this(claims, invalidCitations, citationPrecision, citationRecall, abstained, abstentionCorrect, feedback,
        List.of(), null);
  }

  /** The quotes that are not verbatim in a source they cite. */
  public List<QuoteCheck> misquotes() {
    return quotes.stream().filter(QuoteCheck::misquote).toList();
  }

  /**
   * True when the answer says something (a claim or an abstention), every claim is supported, no
   * citation is invalid, no abstention was wrong and every quoted extract is verbatim in a source it
   * cites.
   */
  public boolean passed() {
    return (!claims.isEmpty() || abstained)
        && invalidCitations.isEmpty()
        && claims.stream().allMatch(c -> c.verdict() == Verdict.SUPPORTED)
        && !Boolean.FALSE.equals(abstentionCorrect)
        && quotes.stream().noneMatch(QuoteCheck::misquote);
  }
}
