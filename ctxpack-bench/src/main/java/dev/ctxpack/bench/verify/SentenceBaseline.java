package dev.ctxpack.bench.verify;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.SentenceSegmenter;
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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A baseline verifier: each source is segmented into sentences ({@link SentenceSegmenter}, the
 * source's language detected), each claim's best sentence among its valid cited sources is found by
 * a score, and the claim is {@code supported} when that score is at least a threshold, else {@code
 * unsupported}. Never {@code contradicted} or {@code partial}. Cited IDs that name no source are
 * reported as invalid; a claim citing only such IDs is {@code unsupported}, one citing nothing
 * {@code uncited}. No abstention judgement ({@code abstentionCorrect} is {@code null}).
 */
public abstract class SentenceBaseline implements Verifier {
  private static final SentenceSegmenter SEGMENTER = new SentenceSegmenter();
  private static final LanguageDetector DETECTOR = new LanguageDetector();

  private final String name;
  private final double threshold;

  protected SentenceBaseline(String name, double threshold) {
    this.name = name;
    this.threshold = threshold;
  }

  public String name() {
    return name;
  }

  public double threshold() {
    return threshold;
  }

  /** One sentence of a source: the source's index in the request and the sentence's span in its text. */
  public record SourceSentence(int source, String sourceId, Span span, String text) {}

  /** The request's sentences, all sources, in order. */
  public static List<SourceSentence> sentences(List<VerifySource> sources) {
    List<SourceSentence> out = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      VerifySource s = sources.get(i);
      Language language = DETECTOR.detect(s.text());
      for (Span sp : SEGMENTER.split(s.text(), language)) out.add(new SourceSentence(i, s.id(), sp, sp.of(s.text())));
    }
    return out;
  }

  /**
   * The score of every sentence of {@code sentences} for {@code claim}, higher is better (the
   * decision compares the best one with the threshold). {@code sentences} are all the request's, so
   * a scorer can draw statistics from them.
   */
  protected abstract double[] scores(String claim, List<SourceSentence> sentences);

  /** The best sentence among those of {@code cited} sources and its score; {@code null} when there is none. */
  public Best best(String claim, List<SourceSentence> sentences, java.util.Set<Integer> cited) {
    return best(scores(claim, sentences), sentences, cited);
  }

  private static Best best(double[] s, List<SourceSentence> sentences, java.util.Set<Integer> cited) {
    int best = -1;
    for (int i = 0; i < s.length; i++) {
      if (!cited.contains(sentences.get(i).source())) continue;
      if (best < 0 || s[i] > s[best]) best = i;
    }
    return best < 0 ? null : new Best(sentences.get(best), s[best]);
  }

  /** A claim's best sentence and its score. */
  public record Best(SourceSentence sentence, double score) {}

  /** The best score of {@code claim} over its valid cited sources, or NaN when it cites none (for fitting the threshold). */
  public double score(List<VerifySource> sources, Claim claim) {
    Map<String, Integer> index = index(sources);
    java.util.Set<Integer> cited = new java.util.TreeSet<>();
    for (String id : claim.citations()) if (index.containsKey(id)) cited.add(index.get(id));
    if (cited.isEmpty()) return Double.NaN;
    Best b = best(claim.text(), sentences(sources), cited);
    return b == null ? Double.NaN : b.score();
  }

  @Override
  public Verification verify(String query, List<VerifySource> sources, Answer answer) {
    Map<String, Integer> index = index(sources);
    List<SourceSentence> sentences = sentences(sources);
    LinkedHashSet<String> invalid = new LinkedHashSet<>();
    List<ClaimVerdict> verdicts = new ArrayList<>();
    int citations = 0;
    int supportingCitations = 0;
    int supportedClaims = 0;
    for (int c = 0; c < answer.claims().size(); c++) {
      Claim claim = answer.claims().get(c);
      List<CitationCheck> checks = new ArrayList<>();
      java.util.Set<Integer> cited = new java.util.TreeSet<>();
      Evidence best = null;
      double bestScore = Double.NEGATIVE_INFINITY;
      double[] scores = claim.citations().isEmpty() ? new double[0] : scores(claim.text(), sentences);
      for (String id : claim.citations()) {
        citations++;
        Integer i = index.get(id);
        if (i == null) {
          invalid.add(id);
          checks.add(new CitationCheck(id, false, Verdict.UNSUPPORTED, null));
          continue;
        }
        cited.add(i);
        Best b = best(scores, sentences, java.util.Set.of(i));
        Evidence e = b == null ? null : evidence(b);
        Verdict v = b != null && b.score() >= threshold ? Verdict.SUPPORTED : Verdict.UNSUPPORTED;
        if (v == Verdict.SUPPORTED) supportingCitations++;
        checks.add(new CitationCheck(id, true, v, e));
        if (b != null && b.score() > bestScore) {
          bestScore = b.score();
          best = e;
        }
      }
      Verdict verdict;
      String reason;
      if (claim.citations().isEmpty()) {
        verdict = Verdict.UNCITED;
        reason = "cites nothing";
      } else if (cited.isEmpty()) {
        verdict = Verdict.UNSUPPORTED;
        reason = "every cited ID names no given source";
      } else if (best != null && bestScore >= threshold) {
        verdict = Verdict.SUPPORTED;
        reason = String.format(Locale.ROOT, "%s %.3f >= %.3f", name, bestScore, threshold);
      } else {
        verdict = Verdict.UNSUPPORTED;
        reason = String.format(Locale.ROOT, "%s %.3f < %.3f", name, best == null ? Double.NaN : bestScore, threshold);
      }
      if (verdict == Verdict.SUPPORTED) supportedClaims++;
      verdicts.add(new ClaimVerdict(c, claim, verdict, best, checks, List.of(), List.of(), reason));
    }
    double precision = citations == 0 ? 1 : (double) supportingCitations / citations;
    double recall = answer.claims().isEmpty() ? 1 : (double) supportedClaims / answer.claims().size();
    return new Verification(verdicts, List.copyOf(invalid), precision, recall, answer.abstained(), null, "");
  }

  private static Evidence evidence(Best b) {
    SourceSentence s = b.sentence();
    return new Evidence(s.sourceId(), s.span().start(), s.span().end(), s.text(), Math.max(0, Math.min(1, b.score())));
  }

  private static Map<String, Integer> index(List<VerifySource> sources) {
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < sources.size(); i++) index.putIfAbsent(sources.get(i).id(), i);
    return index;
  }
}
