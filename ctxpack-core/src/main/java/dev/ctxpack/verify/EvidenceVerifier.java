package dev.ctxpack.verify;

import static dev.ctxpack.verify.VerifyText.stem;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The default {@link Verifier}: checks each claim against the sentences of the sources it cites.
 *
 * <p>How, per claim:
 *
 * <ol>
 *   <li>Cited IDs that name no given source are invalid; a claim that cites only such IDs is
 *       unsupported, one that cites nothing is uncited.
 *   <li><b>Lexical evidence.</b> The claim's content terms (folded, plural-free, matched on
 *       five-letter stems too: "located"/"location") are weighted by their rarity among the
 *       request's source sentences. The claim's coverage is measured on each sentence and each pair
 *       of adjacent sentences of the cited sources, and on the cited sources as a whole. Its key
 *       items (numbers, names written with a capital inside the sentence, month names) must each
 *       occur in a cited source.
 *   <li><b>Contradiction.</b> A cited sentence that states most of the claim but with a negation the
 *       claim lacks (or the reverse), with an opposite direction ("increases"/"decreases",
 *       "aumenta"/"reduz"), or with a different number where the claim's number is in no cited
 *       source, contradicts it.
 *   <li><b>Semantic support</b> (with an {@link Embedder}): the cosine between the claim and each
 *       cited sentence lets a paraphrase count as support and picks the evidence among sentences
 *       of equal coverage.
 *   <li><b>Clauses.</b> A claim made of clauses ("X, and Y", "X; Y", "X, e Y") is supported only
 *       when each clause is; when some are and some are not, it is partial.
 * </ol>
 *
 * <p>With a query, an abstention is judged by the compressor's sentence scorer (its lexical model):
 * abstaining is right when no source sentence is likely to answer the query. Vectors are computed
 * only for claims the lexical evidence leaves partial or unsupported, and the sources' sentences
 * only when such a claim needs them. Thread-safe; deterministic.
 */
public final class EvidenceVerifier implements Verifier {
  /**
   * Coverage of the claim's weighted terms by one window at or above which it supports the claim.
   * The defaults below were chosen on the FIT half of the evaluation (SciFact claims, citation errors
   * built from SQuAD and FaQuAD, abstention; docs/BENCHMARKS.md): the best three-class accuracy on
   * SciFact among the settings that keep every citation-error target on FIT.
   */
  public static final double DEFAULT_SUPPORT = 0.55;
  /** Texts whose vectors are kept between calls by default (see {@link Builder#vectorCache}). */
  public static final int DEFAULT_VECTOR_CACHE = 4096;
  /** Coverage by the cited sources below which nothing of the claim is supported (else partial). */
  public static final double DEFAULT_PARTIAL = 0.4;
  /** Coverage a sentence needs to count as stating the claim's subject, for contradiction. */
  public static final double DEFAULT_ALIGN = 0.6;
  /** Cosine (MiniLM) at or above which a sentence paraphrases the claim. */
  public static final double DEFAULT_COSINE = 0.65;
  /**
   * Probability (compressor's scorer) of the best source sentence at or above which the sources answer
   * the query; chosen on FIT for the best mean accuracy over answerable and unanswerable questions.
   */
  public static final double DEFAULT_ANSWERABLE = 0.15;

  private final ExtractiveCompressor compressor;
  private final Embedder embedder;
  private final LanguageDetector detector = new LanguageDetector();
  private final double support;
  private final double partial;
  private final double align;
  private final double cosine;
  private final double answerable;
  private final LlmJudge judge;

  /** Lexical only (no embedder), default thresholds. */
  public static EvidenceVerifier lexical() {
    return builder().build();
  }

  /** With {@code embedder} for semantic support (English text, for the MiniLM default), default thresholds. */
  public static EvidenceVerifier withEmbedder(Embedder embedder) {
    return builder().embedder(embedder).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  private EvidenceVerifier(Builder b) {
    // Sentence and claim vectors are kept between calls: verifying again against the same sources
    // (a regeneration loop over one package) embeds only what is new.
    this.embedder = b.embedder == null || b.vectorCache == 0 ? b.embedder
        : new dev.ctxpack.embed.CachingEmbedder(b.embedder, b.vectorCache);
    this.compressor = ExtractiveCompressor.defaults(SentenceVectors.none()); // segmentation; its lexical scorer judges abstention
    this.support = b.support;
    this.partial = b.partial;
    this.align = b.align;
    this.cosine = b.cosine;
    this.answerable = b.answerable;
    this.judge = b.judge;
  }

  /** The embedder used for semantic support (behind the vector cache), or {@code null} when lexical only. */
  public Embedder embedder() {
    return embedder;
  }

  @Override
  public Verification verify(String query, List<VerifySource> sources, Answer answer) throws IOException {
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(answer, "answer");
    Map<String, Integer> byId = new LinkedHashMap<>();
    List<CompressInput> inputs = new ArrayList<>();
    for (VerifySource s : sources) {
      if (byId.putIfAbsent(s.id(), byId.size()) != null) {
        throw new IllegalArgumentException("source id '" + s.id() + "' is given twice");
      }
      inputs.add(CompressInput.of(s.id(), s.text()));
    }
    SourceSentences r = new SourceSentences(inputs, compressor.sentences(inputs), answer.text(), detector, embedder);

    List<ClaimVerdict> verdicts = new ArrayList<>();
    LinkedHashSet<String> invalid = new LinkedHashSet<>();
    int citations = 0;
    int precise = 0;
    int recalled = 0;
    // Lexical evidence first. A claim it settles (supported, contradicted, or citing no given
    // source) is final; the others — partial or unsupported, which a paraphrase can be — are
    // checked again with vectors, all their claims embedded in one batch: the model's cost is paid
    // only where it can change a verdict.
    List<Claim> claims = answer.claims();
    ClaimVerdict[] out = new ClaimVerdict[claims.size()];
    List<Integer> unsettled = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      Claim c = claims.get(i);
      for (String id : c.citations()) if (!byId.containsKey(id)) invalid.add(id);
      out[i] = check(i + 1, c, byId, r, null);
      boolean cites = c.citations().stream().anyMatch(byId::containsKey);
      if (r.semantic && cites && (out[i].verdict() == Verdict.PARTIAL || out[i].verdict() == Verdict.UNSUPPORTED)) {
        unsettled.add(i);
      }
    }
    if (!unsettled.isEmpty()) {
      List<String> texts = new ArrayList<>();
      for (int i : unsettled) texts.add(claims.get(i).text());
      List<float[]> vectors = Embedder.embedLeniently(embedder, texts);
      for (int k = 0; k < unsettled.size(); k++) {
        int i = unsettled.get(k);
        if (vectors.get(k) != null) out[i] = check(i + 1, claims.get(i), byId, r, vectors.get(k));
      }
    }
    for (ClaimVerdict v : out) {
      verdicts.add(v);
      for (CitationCheck cc : v.checks()) {
        citations++;
        if (cc.supports()) precise++;
      }
      if (v.verdict() == Verdict.SUPPORTED) recalled++;
    }
    double precision = citations == 0 ? 1.0 : (double) precise / citations;
    double recall = verdicts.isEmpty() ? 1.0 : (double) recalled / verdicts.size();

    Boolean abstentionCorrect = null;
    String answeringSentence = null;
    if (query != null && !query.isBlank() && !inputs.isEmpty()) {
      // The compressor's scorer, lexical: as accurate here as with vectors on the FIT half (mean
      // accuracy over answerable and unanswerable questions 73.7 % against 74.0 %), without
      // embedding every source sentence for it.
      double[] p = compressor.scorer().score(query, inputs, r.sentences);
      int best = -1;
      for (int i = 0; i < p.length; i++) if (best < 0 || p[i] > p[best]) best = i;
      boolean answerableHere = best >= 0 && p[best] >= answerable;
      if (answerableHere) {
        Sentence s = r.sentences.get(best);
        answeringSentence = "[" + inputs.get(s.input()).id() + "] \"" + Feedback.clip(s.text()) + "\"";
      }
      abstentionCorrect = answer.abstained() != answerableHere;
    }
    boolean pt = detector.detect(answer.text().isBlank() && !answer.claims().isEmpty()
        ? answer.claims().get(0).text() : answer.text()) == Language.PT;
    String feedback = Feedback.of(pt, verdicts, invalid, byId.keySet(), answer.abstained(), abstentionCorrect,
        answeringSentence);
    return new Verification(verdicts, List.copyOf(invalid), precision, recall, answer.abstained(), abstentionCorrect,
        feedback);
  }

  /** How much closer than a conflicting sentence an agreeing one must state the claim to outweigh it. */
  private static final double CONFLICT_MARGIN = 0.1;

  private ClaimVerdict check(int index, Claim c, Map<String, Integer> byId, SourceSentences r, float[] claimVector)
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
        Judgement j = judge(ct, List.of(i), r, claimVector);
        checks.add(new CitationCheck(id, true, j.verdict, j.evidence));
      }
    }
    Judgement j;
    if (cited.isEmpty()) {
      // Nothing valid to check against: judge against all sources only to suggest one.
      j = new Judgement(c.citations().isEmpty() ? Verdict.UNCITED : Verdict.UNSUPPORTED, null, List.of(),
          c.citations().isEmpty() ? "cites no source" : "cites only IDs that name no given source");
    } else {
      j = judge(ct, cited, r, claimVector);
      if (judge != null) j = askJudge(c.text(), ct, cited, r, j);
    }
    List<String> better = new ArrayList<>();
    if (j.verdict != Verdict.SUPPORTED) {
      List<double[]> scored = new ArrayList<>();
      for (int i = 0; i < r.inputs.size(); i++) {
        if (cited.contains(i)) continue;
        // A source whose words cover too little of the claim cannot support it lexically; without
        // a claim vector that settles it before any sentence is looked at.
        if (claimVector == null && sourceCoverage(ct, r, i) < support) continue;
        Judgement alt = judge(ct, List.of(i), r, claimVector);
        if (alt.verdict == Verdict.SUPPORTED) scored.add(new double[] {i, alt.evidence == null ? 0 : alt.evidence.score()});
      }
      scored.sort((a, b) -> a[1] != b[1] ? Double.compare(b[1], a[1]) : Double.compare(a[0], b[0]));
      for (double[] s : scored) better.add(r.inputs.get((int) s[0]).id());
    }
    return new ClaimVerdict(index, c, j.verdict, j.evidence, checks, j.missing, better, j.reason);
  }

  /** The LLM judge's verdict over the best sentences of the cited sources, replacing the lexical one. */
  private Judgement askJudge(String claim, ClaimTerms ct, List<Integer> cited, SourceSentences r, Judgement lexical)
      throws IOException {
    List<double[]> ranked = new ArrayList<>();
    for (int input : cited) {
      for (int s : r.bySource.get(input)) ranked.add(new double[] {s, coverage(ct, r, List.of(s))});
    }
    ranked.sort((a, b) -> a[1] != b[1] ? Double.compare(b[1], a[1]) : Double.compare(a[0], b[0]));
    List<Evidence> shown = new ArrayList<>();
    if (lexical.evidence != null) shown.add(lexical.evidence);
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
      return new Judgement(lexical.verdict, lexical.evidence, lexical.missing,
          lexical.reason + " (the judge " + judge.id() + " gave no readable verdict)");
    }
    return new Judgement(v, lexical.evidence, lexical.missing, "judge " + judge.id() + ": " + v.wireName()
        + "; lexical: " + lexical.verdict.wireName() + " (" + lexical.reason + ")");
  }


  private record Judgement(Verdict verdict, Evidence evidence, List<String> missing, String reason) {}

  /** What the sources {@code cited} (together) say about the claim. */
  private Judgement judge(ClaimTerms ct, List<Integer> cited, SourceSentences r, float[] claimVector) {
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
          double cov = coverage(ct, r, ss.subList(a, a + len));
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
        double cov = coverage(ct, r, List.of(s));
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
      double cc = clauseCoverage(clause, r, union, unionStems);
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

  /** Coverage by a semantic match, on the lexical scale: {@link #cosine} maps to {@link #support}. */
  private double semantic(double cos) {
    if (cos <= 0) return 0;
    return cos >= cosine ? support + (cos - cosine) : cos / cosine * support * 0.8;
  }

  /** The claim's weighted coverage by the words of source {@code input} as a whole (an upper bound of any window's). */
  private static double sourceCoverage(ClaimTerms ct, SourceSentences r, int input) {
    Set<String> words = r.sourceTerms(input);
    Set<String> stems = r.sourceStems(input);
    double total = 0;
    double hit = 0;
    for (int i = 0; i < ct.terms().size(); i++) {
      total += ct.weights()[i];
      String t = ct.terms().get(i);
      if (words.contains(t) || stems.contains(stem(t))) hit += ct.weights()[i];
    }
    return total == 0 ? 0 : hit / total;
  }

  private double coverage(ClaimTerms ct, SourceSentences r, List<Integer> window) {
    double total = 0;
    double hit = 0;
    for (int i = 0; i < ct.terms().size(); i++) {
      String t = ct.terms().get(i);
      double w = ct.weights()[i];
      total += w;
      String st = stem(t);
      for (int s : window) {
        if (r.terms.get(s).contains(t) || r.stems.get(s).contains(st)) {
          hit += w;
          break;
        }
      }
    }
    return total == 0 ? 0 : hit / total;
  }

  private static double clauseCoverage(List<String> clause, SourceSentences r, Set<String> union, Set<String> unionStems) {
    double total = 0;
    double hit = 0;
    for (String t : clause) {
      double w = r.idf(t);
      total += w;
      if (union.contains(t) || unionStems.contains(stem(t))) hit += w;
    }
    return total == 0 ? 1 : hit / total;
  }

  /** Options of an {@link EvidenceVerifier}. */
  public static final class Builder {
    private Embedder embedder;
    private double support = DEFAULT_SUPPORT;
    private double partial = DEFAULT_PARTIAL;
    private double align = DEFAULT_ALIGN;
    private double cosine = DEFAULT_COSINE;
    private double answerable = DEFAULT_ANSWERABLE;
    private LlmJudge judge;
    private int vectorCache = DEFAULT_VECTOR_CACHE;

    /**
     * How many texts' vectors (source sentences, claims) are kept between calls, least recently used
     * out first; 0 keeps none. Default {@value #DEFAULT_VECTOR_CACHE} (about 6 MB with MiniLM).
     */
    public Builder vectorCache(int entries) {
      if (entries < 0) throw new IllegalArgumentException("vectorCache must be >= 0, was " + entries);
      this.vectorCache = entries;
      return this;
    }

    /** An LLM judge whose verdict replaces the lexical one for claims with valid citations; off by default. */
    public Builder judge(LlmJudge j) {
      this.judge = j;
      return this;
    }

    /** Embedder for semantic support and for the answerability scorer; {@code null} for lexical only. */
    public Builder embedder(Embedder e) {
      this.embedder = e;
      return this;
    }

    public Builder support(double v) {
      this.support = check(v, "support");
      return this;
    }

    public Builder partial(double v) {
      this.partial = check(v, "partial");
      return this;
    }

    public Builder align(double v) {
      this.align = check(v, "align");
      return this;
    }

    public Builder cosine(double v) {
      this.cosine = check(v, "cosine");
      return this;
    }

    public Builder answerable(double v) {
      this.answerable = check(v, "answerable");
      return this;
    }

    private static double check(double v, String name) {
      if (!(v > 0 && v <= 1)) throw new IllegalArgumentException(name + " must be in (0, 1], was " + v);
      return v;
    }

    public EvidenceVerifier build() {
      return new EvidenceVerifier(this);
    }
  }
}
