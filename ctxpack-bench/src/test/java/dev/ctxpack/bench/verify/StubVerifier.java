package dev.ctxpack.bench.verify;

import dev.ctxpack.text.Terms;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.CitationCheck;
import dev.ctxpack.verify.Claim;
import dev.ctxpack.verify.ClaimVerdict;
import dev.ctxpack.verify.Evidence;
import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.Verifier;
import dev.ctxpack.verify.VerifySource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A trivial stand-in for ctxpack's verifier, for trying the evaluation harness before {@code
 * EvidenceVerifier} lands (test sources only; its figures are not ctxpack's). Per claim, the best
 * sentence of its valid cited sources by the share of the claim's content terms it holds: a number
 * of the claim missing from it while it holds another number, or a negation word on one side only,
 * with a share of 0.8 or more → contradicted; share ≥ 0.95 → supported; ≥ 0.5 → partial; else
 * unsupported. Abstaining is right when no source sentence holds 60 % of the query's content terms.
 * Run: {@code java -cp ctxpack-bench/target/ctxpack-bench.jar:ctxpack-bench/target/test-classes
 * -Dctxpack.verify.verifier=dev.ctxpack.bench.verify.StubVerifier dev.ctxpack.bench.EvalRunner verify}.
 */
public final class StubVerifier implements Verifier {
  private static final Set<String> NEGATIONS = Set.of("not", "no", "never", "nao", "nunca", "nem");

  @Override
  public Verification verify(String query, List<VerifySource> sources, Answer answer) {
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < sources.size(); i++) index.putIfAbsent(sources.get(i).id(), i);
    List<SentenceBaseline.SourceSentence> sentences = SentenceBaseline.sentences(sources);
    LinkedHashSet<String> invalid = new LinkedHashSet<>();
    List<ClaimVerdict> out = new ArrayList<>();
    int supported = 0;
    for (int c = 0; c < answer.claims().size(); c++) {
      Claim claim = answer.claims().get(c);
      List<CitationCheck> checks = new ArrayList<>();
      Set<Integer> cited = new HashSet<>();
      for (String id : claim.citations()) {
        if (index.containsKey(id)) {
          cited.add(index.get(id));
          checks.add(new CitationCheck(id, true, Verdict.UNSUPPORTED, null));
        } else {
          invalid.add(id);
          checks.add(new CitationCheck(id, false, Verdict.UNSUPPORTED, null));
        }
      }
      List<String> terms = terms(claim.text());
      SentenceBaseline.SourceSentence best = null;
      double share = -1;
      for (SentenceBaseline.SourceSentence s : sentences) {
        if (!cited.contains(s.source())) continue;
        double x = share(terms, new HashSet<>(terms(s.text())));
        if (x > share) {
          share = x;
          best = s;
        }
      }
      Verdict v;
      if (claim.citations().isEmpty()) v = Verdict.UNCITED;
      else if (best == null) v = Verdict.UNSUPPORTED;
      else if (share >= 0.8 && (numberClash(terms, terms(best.text())) || negated(terms) != negated(terms(best.text())))) v = Verdict.CONTRADICTED;
      else if (share >= 0.95) v = Verdict.SUPPORTED;
      else if (share >= 0.5) v = Verdict.PARTIAL;
      else v = Verdict.UNSUPPORTED;
      if (v == Verdict.SUPPORTED) supported++;
      Evidence e = best == null ? null : new Evidence(best.sourceId(), best.span().start(), best.span().end(), best.text(), Math.max(0, share));
      out.add(new ClaimVerdict(c, claim, v, e, checks, List.of(), List.of(), "stub share " + share));
    }
    Boolean abstentionCorrect = null;
    if (query != null) {
      List<String> q = terms(query);
      boolean answerable = false;
      for (SentenceBaseline.SourceSentence s : sentences) if (share(q, new HashSet<>(terms(s.text()))) >= 0.6) answerable = true;
      abstentionCorrect = answer.abstained() != answerable;
    }
    double recall = answer.claims().isEmpty() ? 1 : (double) supported / answer.claims().size();
    return new Verification(out, List.copyOf(invalid), recall, recall, answer.abstained(), abstentionCorrect, "");
  }

  private static List<String> terms(String text) {
    List<String> out = new ArrayList<>();
    Terms.scan(text, (t, start) -> {
      String s = t.toString();
      if (NEGATIONS.contains(s) || !Terms.STOP_WORDS.contains(s)) out.add(s);
    });
    return out;
  }

  private static double share(List<String> terms, Set<String> in) {
    if (terms.isEmpty()) return 0;
    int k = 0;
    for (String t : terms) if (in.contains(t) || NEGATIONS.contains(t)) k++;
    return (double) k / terms.size();
  }

  private static boolean negated(List<String> terms) {
    for (String t : terms) if (NEGATIONS.contains(t)) return true;
    return false;
  }

  private static boolean numberClash(List<String> claim, List<String> sentence) {
    Set<String> s = new HashSet<>(sentence);
    boolean sentenceHasNumber = sentence.stream().anyMatch(t -> Character.isDigit(t.charAt(0)));
    for (String t : claim) if (Character.isDigit(t.charAt(0)) && !s.contains(t) && sentenceHasNumber) return true;
    return false;
  }
}
