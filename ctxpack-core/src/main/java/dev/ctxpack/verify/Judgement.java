package dev.ctxpack.verify;

import java.util.List;

/**
 * What the checks conclude about one claim against some sources, before it becomes a {@link
 * ClaimVerdict}: the verdict, the evidence window (or {@code null}), what no cited source holds as
 * the claim writes it, and the reason the feedback quotes.
 */
record Judgement(Verdict verdict, Evidence evidence, List<String> missing, String reason) {}
