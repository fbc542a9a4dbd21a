/**
 * Answer verification: after the model answers, each claim is checked against the sources it was
 * given. {@link Answer} parses inline {@code [S1]} citations (or takes JSON claims); a {@link
 * Verifier} (by default {@link EvidenceVerifier}) checks that every cited ID exists, that the
 * claim's numbers, dates, names and key terms are in the cited source, that no cited sentence
 * negates it or gives another number, and finds the sentence that best supports it. The result,
 * {@link Verification}, holds a {@link Verdict} per claim, citation precision and recall, whether
 * the answer abstained (and whether it should have), and feedback a regeneration loop can send
 * back to the model. {@link EvidenceVerifier} only sequences the steps; the analysis of the sources
 * and claims, the search for evidence, the contradiction and key-item checks, the abstention
 * judgement and the feedback wording are package-private classes beside it.
 */
package dev.ctxpack.verify;
