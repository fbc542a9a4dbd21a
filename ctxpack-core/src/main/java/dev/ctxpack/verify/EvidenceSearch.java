package dev.ctxpack.verify;

import static dev.ctxpack.verify.VerifyText.stem;

import dev.ctxpack.embed.Embedder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the sources a claim cites say about it, together: the best evidence window (one sentence or
 * two adjacent ones of one cited source, by coverage and, with a claim vector, cosine), what no
 * cited source holds, whether an aligned cited sentence contradicts the claim ({@link
 * Contradiction}), and from these and the thresholds the {@link Judgement}: contradicted first,
 * then supported, partial or unsupported. {@link ClaimChecker} asks it once for the cited sources
 * together, once per citation, and once per other source when looking for better ones.
 * Thread-safe: it holds only the thresholds.
 */
final class EvidenceSearch {
  /** How much closer than a conflicting sentence an agreeing one must state the claim to outweigh it. */
  private static final double CONFLICT_MARGIN = 0.1;

  private final double support;
  private final double partial;
  private final double align;
  private final double cosine;

  EvidenceSearch(double support, double partial, double align, double cosine) {
    this.support = support;
    this.partial = partial;
    this.align = align;
    this.cosine = cosine;
  }

  /** Coverage at or above which one window supports the claim. */
  double support() {
    return support;
  }

  /** What the sources {@code cited} (together) say about the claim. */
  Judgement judge(ClaimTerms ct, List<Integer> cited, SourceSentences r, float[] claimVector) {
    double total = 0;
    for (double w : ct.weights()) total += w;
    if (ct.terms().isEmpty() || total == 0) {
      return new Judgement(Verdict.UNSUPPORTED, null, List.of(), "the claim has no content words to check");
    }
    float[][] vectors = claimVector != null ? r.vectors() : null;
    // Best window: one sentence or two adjacent ones of one cited source.
    double bestScore = -1;
    double bestCoverage = 0;
    double bestCosine = 0;
    int bestInput = -1;
    int bestFrom = -1;
    int bestTo = -1;
    for (int input : cited) {
      List<Integer> ss = r.bySource.get(input);
      for (int a = 0; a < ss.size(); a++) {
        for (int len = 1; len <= 2 && a + len <= ss.size(); len++) {
          double cov = Coverage.of(ct, r, ss.subList(a, a + len));
          double cos = 0;
          if (vectors != null) {
            for (int k = a; k < a + len; k++) {
              float[] v = vectors[ss.get(k)];
              if (v != null) cos = Math.max(cos, Embedder.dot(claimVector, v));
            }
          }
          // The verdict weighs the best coverage and the best cosine of any window; the evidence is
          // the window where the two agree most (with vectors, their mean; without, the coverage).
          // A pair must add to be preferred over its better sentence.
          bestCoverage = Math.max(bestCoverage, cov);
          bestCosine = Math.max(bestCosine, cos);
          double score = (vectors != null ? (cov + semantic(cos)) / 2 : cov) - (len - 1) * 0.02;
          if (score > bestScore + 1e-12) {
            bestScore = score;
            bestInput = input;
            bestFrom = ss.get(a);
            bestTo = ss.get(a + len - 1);
          }
        }
      }
    }
    if (bestInput < 0) return new Judgement(Verdict.UNSUPPORTED, null, List.of(), "the cited sources are empty");

    // What no cited source contains.
    Set<String> union = new HashSet<>();
    Set<String> unionStems = new HashSet<>();
    StringBuilder folded = new StringBuilder();
    for (int input : cited) {
      union.addAll(r.sourceTerms(input));
      folded.append(r.folded(input));
    }
    for (String t : union) unionStems.add(stem(t));
    double covered = 0;
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < ct.terms().size(); i++) {
      String t = ct.terms().get(i);
      if (union.contains(t) || unionStems.contains(stem(t))) covered += ct.weights()[i];
    }
    double sourceCoverage = covered / total;
    String foldedAll = folded.toString();
    for (String k : ct.keys()) if (!KeyItems.containsKey(foldedAll, union, k)) missing.add(KeyItems.asWritten(k, ct.text()));
    for (int i = 0; i < ct.terms().size(); i++) {
      String t = ct.terms().get(i);
      if (!union.contains(t) && !unionStems.contains(stem(t)) && !missing.contains(t) && !ct.keys().contains(t)
          && !KeyItems.partOfMissingNumber(t, missing)) {
        missing.add(t);
      }
    }

    Evidence evidence = r.evidence(bestInput, bestFrom, bestTo, Math.max(bestCoverage, semantic(bestCosine)));

    // Contradiction: a cited sentence stating the claim's subject with the opposite polarity or
    // another number — unless another cited sentence states the claim at least as closely without
    // conflict (a source that says "X was not Y" and, verbatim as claimed, "X was Y" elsewhere).
    double bestAgreeing = 0;
    int conflictInput = -1;
    int conflictSentence = -1;
    double conflictAlign = 0;
    String conflictWhy = null;
    for (int input : cited) {
      for (int s : r.bySource.get(input)) {
        double cov = Coverage.of(ct, r, List.of(s));
        double cos = vectors != null && vectors[s] != null ? Embedder.dot(claimVector, vectors[s]) : 0;
        double a = Math.max(cov, semantic(cos));
        if (a < align) continue;
        String why = Contradiction.conflict(ct, r, s, union, foldedAll);
        if (why == null) {
          bestAgreeing = Math.max(bestAgreeing, a);
        } else if (a > conflictAlign) {
          conflictAlign = a;
          conflictInput = input;
          conflictSentence = s;
          conflictWhy = why;
        }
      }
    }
    if (conflictWhy != null && conflictAlign >= bestAgreeing - CONFLICT_MARGIN) {
      return new Judgement(Verdict.CONTRADICTED, r.evidence(conflictInput, conflictSentence, conflictSentence,
          conflictAlign), missing, conflictWhy);
    }

    boolean keysMissing = false;
    for (String k : ct.keys()) keysMissing |= !KeyItems.containsKey(foldedAll, union, k);
    double minClause = 1;
    double maxClause = 0;
    for (List<String> clause : ct.clauses()) {
      double cc = Coverage.ofClause(clause, r, union, unionStems);
      minClause = Math.min(minClause, cc);
      maxClause = Math.max(maxClause, cc);
    }
    boolean supported = Math.max(bestCoverage, semantic(bestCosine)) >= support && !keysMissing
        && (ct.clauses().size() < 2 || minClause >= partial);
    if (supported) {
      return new Judgement(Verdict.SUPPORTED, evidence, missing, "stated in [" + r.inputs.get(bestInput).id() + "]");
    }
    if (sourceCoverage >= partial || bestCoverage >= partial || ct.clauses().size() >= 2 && maxClause >= support) {
      String why = keysMissing ? "no cited source contains " + Feedback.quoteList(KeyItems.missingKeys(ct, foldedAll, union))
          : ct.clauses().size() >= 2 && minClause < partial ? "one clause is in no cited source"
          : "the cited sources state only part of it";
      return new Judgement(Verdict.PARTIAL, evidence, missing, why);
    }
    return new Judgement(Verdict.UNSUPPORTED, evidence, missing, "no cited sentence states it");
  }

  /** Coverage by a semantic match, on the lexical scale: the {@code cosine} threshold maps to {@code support}. */
  private double semantic(double cos) {
    if (cos <= 0) return 0;
    return cos >= cosine ? support + (cos - cosine) : cos / cosine * support * 0.8;
  }
}
