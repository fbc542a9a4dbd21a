package dev.ctxpack.verify;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One claim's {@link ClaimVerdict}: each citation checked alone (invalid IDs unsupported), the
 * cited sources judged together by the {@link EvidenceSearch} (or, with an {@link LlmJudge}, by the
 * judge over their best sentences), and for a claim they do not support the other given sources
 * that would. {@link EvidenceVerifier#verify} runs it per claim, lexically first and again with the
 * claim's vector where that can change the verdict. Thread-safe.
 */
final class ClaimChecker {
  private final EvidenceSearch search;
  private final LlmJudge judge;

  ClaimChecker(EvidenceSearch search, LlmJudge judge) {
    this.search = search;
    this.judge = judge;
  }

  ClaimVerdict check(int index, Claim c, Map<String, Integer> byId, SourceSentences r, float[] claimVector)
      throws IOException {
    List<Integer> cited = new ArrayList<>();
    for (String id : c.citations()) {
      Integer i = byId.get(id);
      if (i != null && !cited.contains(i)) cited.add(i);
    }
    ClaimTerms ct = ClaimTerms.of(c.text(), r);

    List<CitationCheck> checks = new ArrayList<>();
    for (String id : c.citations()) {
      Integer i = byId.get(id);
      if (i == null) {
        checks.add(new CitationCheck(id, false, Verdict.UNSUPPORTED, null));
      } else {
        Judgement j = search.judge(ct, List.of(i), r, claimVector);
        checks.add(new CitationCheck(id, true, j.verdict(), j.evidence()));
      }
    }
    Judgement j;
    if (cited.isEmpty()) {
      // Nothing valid to check against: judge against all sources only to suggest one.
      j = new Judgement(c.citations().isEmpty() ? Verdict.UNCITED : Verdict.UNSUPPORTED, null, List.of(),
          c.citations().isEmpty() ? "cites no source" : "cites only IDs that name no given source");
    } else {
      j = search.judge(ct, cited, r, claimVector);
      if (judge != null) j = askJudge(c.text(), ct, cited, r, j);
    }
    List<String> better = new ArrayList<>();
    if (j.verdict() != Verdict.SUPPORTED) {
      List<double[]> scored = new ArrayList<>();
      for (int i = 0; i < r.inputs.size(); i++) {
        if (cited.contains(i)) continue;
        // A source whose words cover too little of the claim cannot support it lexically; without
        // a claim vector that settles it before any sentence is looked at.
        if (claimVector == null && Coverage.ofSource(ct, r, i) < search.support()) continue;
        Judgement alt = search.judge(ct, List.of(i), r, claimVector);
        if (alt.verdict() == Verdict.SUPPORTED) {
          scored.add(new double[] {i, alt.evidence() == null ? 0 : alt.evidence().score()});
        }
      }
      scored.sort((a, b) -> a[1] != b[1] ? Double.compare(b[1], a[1]) : Double.compare(a[0], b[0]));
      for (double[] s : scored) better.add(r.inputs.get((int) s[0]).id());
    }
    return new ClaimVerdict(index, c, j.verdict(), j.evidence(), checks, j.missing(), better, j.reason());
  }

  /** The LLM judge's verdict over the best sentences of the cited sources, replacing the lexical one. */
  private Judgement askJudge(String claim, ClaimTerms ct, List<Integer> cited, SourceSentences r, Judgement lexical)
      throws IOException {
    List<double[]> ranked = new ArrayList<>();
    for (int input : cited) {
      for (int s : r.bySource.get(input)) ranked.add(new double[] {s, Coverage.of(ct, r, List.of(s))});
    }
    ranked.sort((a, b) -> a[1] != b[1] ? Double.compare(b[1], a[1]) : Double.compare(a[0], b[0]));
    List<Evidence> shown = new ArrayList<>();
    if (lexical.evidence() != null) shown.add(lexical.evidence());
    for (double[] x : ranked) {
      if (shown.size() >= 4) break;
      int s = (int) x[0];
      Evidence e = r.evidence(r.sentences.get(s).input(), s, s, x[1]);
      boolean inside = false;
      for (Evidence o : shown) inside |= o.source().equals(e.source()) && o.start() <= e.start() && e.end() <= o.end();
      if (!inside) shown.add(e);
    }
    shown.sort((a, b) -> a.source().equals(b.source()) ? Integer.compare(a.start(), b.start()) : 0);
    Verdict v = judge.judge(claim, shown);
    if (v == null) {
      return new Judgement(lexical.verdict(), lexical.evidence(), lexical.missing(),
          lexical.reason() + " (the judge " + judge.id() + " gave no readable verdict)");
    }
    return new Judgement(v, lexical.evidence(), lexical.missing(), "judge " + judge.id() + ": " + v.wireName()
        + "; lexical: " + lexical.verdict().wireName() + " (" + lexical.reason() + ")");
  }
}
