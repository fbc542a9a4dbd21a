package dev.ctxpack.verify;

import dev.ctxpack.model.Deadline;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.RelevanceGate;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
 * <p>Each extract the answer quotes ({@link Quote}) is checked verbatim against the source it cites
 * ({@link QuoteCheck}): a misquote (a word changed, an extract from another given source, or from
 * none) is reported with the closest real span and fails the verification.
 *
 * <p>With a query, an abstention is judged by the compressor's sentence scorer (its lexical model):
 * abstaining is right when no source sentence is likely to answer the query. Vectors are computed
 * only for claims the lexical evidence leaves partial or unsupported, and the sources' sentences
 * only when such a claim needs them. Thread-safe; deterministic.
 *
 * <p>This class sequences the steps; the work is done by package-private parts: {@code
 * SourceSentences} analyses the sources once per call, {@code ClaimChecker} checks one claim and its
 * citations through {@code EvidenceSearch} (coverage by {@code Coverage}, key items by {@code
 * KeyItems}, conflicts by {@code Contradiction}), {@code Abstention} judges the abstention, and
 * {@code Feedback} words the result.
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
   * The relevance line at or above which the sources answer the query: {@code pack}'s default line
   * ({@link RelevanceGate#DEFAULT_LINE}), so that the verifier judges an
   * abstention as the packer judges its evidence ({@link Builder#minRelevance}).
   */
  public static final double DEFAULT_ANSWERABLE = RelevanceGate.DEFAULT_LINE;

  private final ExtractiveCompressor compressor;
  private final Embedder embedder;
  private final LanguageDetector detector = new LanguageDetector();
  private final ClaimChecker claims;
  private final Abstention abstention;
  private final double minRelevance;
  private final double minCoverage;

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
    this.compressor = ExtractiveCompressor.defaults(SentenceVectors.none()); // segmentation; its gate judges abstention
    this.claims = new ClaimChecker(new EvidenceSearch(b.support, b.partial, b.align, b.cosine), b.judge);
    // The packer's gate over the lexical model: with MiniLM's model the judgement is no better (FIT,
    // docs/BENCHMARKS.md) and would embed every source sentence for it.
    this.abstention = new Abstention(compressor, b.minRelevance, b.minCoverage);
    this.minRelevance = b.minRelevance;
    this.minCoverage = b.minCoverage;
  }

  /** A copy of {@code v} judging abstention against another line; the rest (embedder, vector cache, claims) shared. */
  private EvidenceVerifier(EvidenceVerifier v, double minRelevance, double minCoverage) {
    this.embedder = v.embedder;
    this.compressor = v.compressor;
    this.claims = v.claims;
    this.abstention = new Abstention(compressor, minRelevance, minCoverage);
    this.minRelevance = minRelevance;
    this.minCoverage = minCoverage;
  }

  /**
   * This verifier judging abstention against the line {@code minRelevance} and coverage {@code
   * minCoverage} ({@link Builder#minRelevance}, {@link Builder#minCoverage}); everything else,
   * including the cache of vectors, is shared with this one.
   */
  @Override
  public EvidenceVerifier withRelevance(double minRelevance, double minCoverage) {
    RelevanceGate.checkLine(minRelevance, "minRelevance");
    RelevanceGate.checkCoverage(minCoverage, "minCoverage");
    if (same(minRelevance, this.minRelevance) && same(minCoverage, this.minCoverage)) return this;
    return new EvidenceVerifier(this, minRelevance, minCoverage);
  }

  private static boolean same(double a, double b) {
    return Double.compare(a, b) == 0;
  }

  /** The embedder used for semantic support (behind the vector cache), or {@code null} when lexical only. */
  public Embedder embedder() {
    return embedder;
  }

  @Override
  public Verification verify(String query, List<VerifySource> sources, Answer answer) throws IOException {
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(answer, "answer");
    // 1. The sources, analysed once: sentences, terms, rarity, language.
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
    // 2. Lexical evidence first. A claim it settles (supported, contradicted, or citing no given
    // source) is final; the others — partial or unsupported, which a paraphrase can be — are
    // checked again with vectors, all their claims embedded in one batch: the model's cost is paid
    // only where it can change a verdict.
    List<Claim> claimList = answer.claims();
    ClaimVerdict[] out = new ClaimVerdict[claimList.size()];
    List<Integer> unsettled = new ArrayList<>();
    for (int i = 0; i < claimList.size(); i++) {
      Deadline.check();
      Claim c = claimList.get(i);
      for (String id : c.citations()) if (!byId.containsKey(id)) invalid.add(id);
      out[i] = claims.check(i + 1, c, byId, r, null);
      boolean cites = c.citations().stream().anyMatch(byId::containsKey);
      if (r.semantic && cites && (out[i].verdict() == Verdict.PARTIAL || out[i].verdict() == Verdict.UNSUPPORTED)) {
        unsettled.add(i);
      }
    }
    // 3. Semantic support for the claims left unsettled.
    if (!unsettled.isEmpty()) {
      List<String> texts = new ArrayList<>();
      for (int i : unsettled) texts.add(claimList.get(i).text());
      List<float[]> vectors = Embedder.embedLeniently(embedder, texts);
      for (int k = 0; k < unsettled.size(); k++) {
        Deadline.check();
        int i = unsettled.get(k);
        if (vectors.get(k) != null) out[i] = claims.check(i + 1, claimList.get(i), byId, r, vectors.get(k));
      }
    }
    // 4. Citation precision and recall.
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

    // 5. Quoted extracts, verbatim against the sources they cite.
    List<QuoteCheck> quotes = new ArrayList<>();
    if (!answer.quotes().isEmpty()) {
      List<Quotes.Folded> folded = new ArrayList<>();
      for (VerifySource s : sources) folded.add(Quotes.Folded.of(s.text()));
      for (Quote q : answer.quotes()) {
        Deadline.check();
        quotes.add(Quotes.check(q, sources, folded, byId));
      }
    }
    // 6. Abstention, with a query.
    Abstention.Judged judged = abstention.judge(query, r, answer.abstained());
    // 7. Feedback, in the answer's language.
    boolean pt = detector.detect(answer.text().isBlank() && !answer.claims().isEmpty()
        ? answer.claims().get(0).text() : answer.text()) == Language.PT;
    String feedback = Feedback.of(pt, verdicts, invalid, byId.keySet(), answer.abstained(), judged.correct(),
        judged.answeringSentence(), quotes);
    return new Verification(verdicts, List.copyOf(invalid), precision, recall, answer.abstained(), judged.correct(),
        feedback, quotes, answer.gap());
  }

  /** Options of an {@link EvidenceVerifier}. */
  public static final class Builder {
    private Embedder embedder;
    private double support = DEFAULT_SUPPORT;
    private double partial = DEFAULT_PARTIAL;
    private double align = DEFAULT_ALIGN;
    private double cosine = DEFAULT_COSINE;
    private double minRelevance = RelevanceGate.AUTO;
    private double minCoverage = RelevanceGate.AUTO;
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

    /**
     * The relevance line that judges an abstention, as {@code pack --min-relevance} reads it: the
     * sources answer the query when their best sentence (not noise, a repeat or off the query's
     * topic) is at least this likely to hold the answer; {@link
     * RelevanceGate#AUTO} (the default) for the packer's default line, 0 for
     * "any source answers".
     */
    public Builder minRelevance(double p) {
      this.minRelevance = RelevanceGate.checkLine(p, "minRelevance");
      return this;
    }

    /**
     * The coverage that lets sources whose best sentence is under the line (but at least {@link
     * RelevanceGate#COVERED_SHARE} of it) count as answering, as {@code pack
     * --min-coverage} reads it: {@link RelevanceGate#AUTO} (the default) for
     * the packer's default with the default line and none with a line set by hand, {@link
     * RelevanceGate#NO_COVER} for none, else a share in [0, 1].
     */
    public Builder minCoverage(double c) {
      this.minCoverage = RelevanceGate.checkCoverage(c, "minCoverage");
      return this;
    }

    /** The relevance line, in (0, 1]: {@link #minRelevance} under its earlier name. */
    @Deprecated
    public Builder answerable(double v) {
      return minRelevance(check(v, "answerable"));
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
