package dev.ctxpack.compress;

import dev.ctxpack.model.Deadline;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.text.Terms;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Query-aware extractive compression. One request runs:
 *
 * <ol>
 *   <li>split every part of every passage into sentences ({@link SentenceSegmenter});
 *   <li>flag noise ({@link Noise}: navigation, ads, metadata, boilerplate) and repeated sentences
 *       (the same sentence, by identity form, met earlier in the request): these are never kept;
 *   <li>score every sentence against the query ({@link SentenceScorer}, by default the fitted
 *       {@link FeatureSentenceScorer}); a sentence unrelated to the query (no query term in it or
 *       its neighbours while its passage has some elsewhere, and less than an even chance by the
 *       scorer) is never kept either;
 *   <li>keep the best sentences, highest score first, while they fit the budget (and score at
 *       least the threshold, when there is one, raised to a share of the best sentence's score with
 *       {@link CompressOptions#relative()}); a kept sentence that leans on the one before it
 *       ({@link Dependence}: a leading pronoun or connective) brings its predecessor along, and when
 *       the budget is left with room but no whole sentence fits, the best sentence left is cut to
 *       its best clause-aligned part that does; a request whose best sentence is under the threshold
 *       may still pass it when the passage holding that sentence covers enough of the query
 *       ({@link CompressOptions.Cover});
 *   <li>render each passage's kept spans in source order, joined by {@code " … "}, count the result
 *       exactly and, while it is over the budget, drop the weakest kept sentence;
 *   <li>report every sentence not kept with its reason and score.
 * </ol>
 *
 * Kept text is always the input's text at the recorded offsets. Deterministic; thread-safe if its
 * scorer is.
 *
 * <p>This class sequences the steps and reports the drops; package-private parts do the rest:
 * {@code SentenceFilter} flags what is never kept, {@code BudgetedSelector} chooses what fits (with
 * {@code ClauseCutter} for clause cuts) into a {@code Selection}, and {@code SpanRenderer} renders
 * and counts it.
 */
public final class ExtractiveCompressor implements Compressor {
  /** Characters of a passage read to tell its language. */
  static final int LANGUAGE_SAMPLE = 400;

  private final SentenceScorer scorer;
  private final Tokenizer tokenizer;
  private final SentenceSegmenter segmenter = new SentenceSegmenter();
  private final LanguageDetector languages = new LanguageDetector();
  private final SentenceFilter filter = new SentenceFilter();
  private final BudgetedSelector selector;
  private final SpanRenderer renderer;

  private ExtractiveCompressor(Builder b) {
    this.scorer = b.scorer;
    this.tokenizer = b.tokenizer;
    this.renderer = new SpanRenderer(tokenizer);
    this.selector = new BudgetedSelector(scorer, tokenizer, tokenizer.count(Passage.GAP), new ClauseCutter(tokenizer),
        renderer);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The fitted feature scorer over {@code vectors}, o200k_base. */
  public static ExtractiveCompressor defaults(SentenceVectors vectors) {
    return builder().scorer(FeatureSentenceScorer.defaults(vectors)).build();
  }

  public SentenceScorer scorer() {
    return scorer;
  }

  public Tokenizer tokenizer() {
    return tokenizer;
  }

  /** The sentences of {@code inputs}, passage by passage, part by part, in source order. */
  public List<Sentence> sentences(List<CompressInput> inputs) {
    List<Sentence> out = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      List<CompressInput.Part> parts = inputs.get(i).parts();
      // The passage's language picks the abbreviations that do not end a sentence; its opening
      // words tell it.
      String first = parts.get(0).text();
      Language language = languages.detect(first.length() > LANGUAGE_SAMPLE ? first.substring(0, LANGUAGE_SAMPLE) : first);
      for (int p = 0; p < parts.size(); p++) {
        String text = parts.get(p).text();
        int k = 0;
        for (Span s : segmenter.split(text, language)) {
          out.add(new Sentence(i, p, k++, s.start(), s.end(), text.substring(s.start(), s.end())));
        }
      }
    }
    return out;
  }

  @Override
  public Compression compress(String query, List<CompressInput> inputs, CompressOptions o) throws IOException {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("query must not be empty");
    Objects.requireNonNull(o, "options");
    Set<String> ids = new HashSet<>();
    for (CompressInput in : inputs) {
      if (!ids.add(in.id())) throw new IllegalArgumentException("passage id '" + in.id() + "' appears twice");
    }
    int tokensIn = 0;
    for (CompressInput in : inputs) tokensIn += tokenizer.count(joined(in));

    List<Sentence> sentences = sentences(inputs);
    Deadline.check();
    Read r = read(query, inputs, sentences);
    int n = sentences.size();
    DropReason[] flagged = r.flagged;
    double[] score = r.score;
    Deadline.check();
    int[] tokens = new int[n];
    for (int i = 0; i < n; i++) tokens[i] = tokenizer.count(sentences.get(i).text());
    Gate gate = gate(r, inputs, sentences, o);
    Compression.Coverage coverage = gate.coverage();
    double line = o.line(gate.best(), gate.covered());
    if (!Double.isNaN(line) && line != o.threshold()) o = o.withThreshold(line);

    Selection sel = selector.select(query, inputs, sentences, flagged, score, tokens, o);
    List<Compression.Compressed> passages = renderer.render(inputs, sentences, sel);
    if (o.budget() > 0) {
      while (SpanRenderer.total(passages) > o.budget() && sel.dropWeakest(score)) {
        Deadline.check();
        passages = renderer.render(inputs, sentences, sel);
      }
    }
    double onTopic = scorer.onTopic(query);
    return new Compression(passages, dropped(inputs, sentences, sel, flagged, score, tokens, onTopic, o.threshold(), r.hasTerm,
        r.queryTerms, r.anchored),
        tokensIn, SpanRenderer.total(passages), coverage);
  }

  /**
   * Whether a request's evidence clears the relevance gate of {@code o} (its {@link
   * CompressOptions#threshold()} with a {@link CompressOptions#relative()} line, and its {@link
   * CompressOptions.Cover}), judged exactly as {@link #compress} judges it: the best sentence that is
   * not noise, a repeat or off the query's topic, and, when it falls under the gate but at least the
   * cover's floor, its passage's coverage of the query. Nothing is selected or counted. This is the
   * one notion of "the sources answer this" that {@code pack}'s relevance line and {@code verify}'s
   * abstention judgement share.
   */
  public Gate gate(String query, List<CompressInput> inputs, CompressOptions o) throws IOException {
    return gate(query, inputs, sentences(inputs), o);
  }

  /** {@link #gate(String, List, CompressOptions)} over {@code sentences}, this compressor's {@link #sentences} of {@code inputs}. */
  public Gate gate(String query, List<CompressInput> inputs, List<Sentence> sentences, CompressOptions o) throws IOException {
    if (query == null || query.isBlank()) throw new IllegalArgumentException("query must not be empty");
    Objects.requireNonNull(o, "options");
    return gate(read(query, inputs, sentences), inputs, sentences, o);
  }

  /**
   * The gate's reading of one request: {@code best} the probability of the best eligible sentence
   * ({@code sentence}; NaN and null when none is), {@code coverage} the coverage read for it when it
   * fell under the gate (null when not read), and whether the evidence {@link #passed()}: with no
   * threshold (NaN) anything eligible passes; with one, the best sentence clears it, or its passage
   * covered the query enough ({@link #covered()}).
   */
  public record Gate(double best, Sentence sentence, Compression.Coverage coverage, boolean covered, double threshold) {
    public boolean passed() {
      if (sentence == null) return false;
      return Double.isNaN(threshold) || best >= threshold || covered;
    }
  }

  private Gate gate(Read r, List<CompressInput> inputs, List<Sentence> sentences, CompressOptions o) {
    double best = Double.NEGATIVE_INFINITY;
    int bestAt = -1;
    for (int i = 0; i < sentences.size(); i++) {
      if (r.flagged[i] == null && r.score[i] > best) {
        best = r.score[i];
        bestAt = i;
      }
    }
    // Under the gate, a request may still pass by its best passage's coverage of the query.
    Compression.Coverage coverage = null;
    if (bestAt >= 0 && o.relative() > 0 && best < o.threshold() && o.cover().consulted(best)) {
      int input = sentences.get(bestAt).input();
      coverage = new Compression.Coverage(inputs.get(input).id(), QueryCoverage.of(r.queryTerms, sentences, input));
    }
    boolean covered = coverage != null && coverage.share() >= o.cover().coverage();
    return new Gate(bestAt < 0 ? Double.NaN : best, bestAt < 0 ? null : sentences.get(bestAt), coverage, covered,
        o.threshold());
  }

  /** Every sentence's score and what is never kept (noise, repeats, off the query's topic). */
  private record Read(double[] score, DropReason[] flagged, Set<String> queryTerms, boolean[] hasTerm, boolean[] anchored) {}

  private Read read(String query, List<CompressInput> inputs, List<Sentence> sentences) throws IOException {
    int n = sentences.size();
    DropReason[] flagged = filter.noiseAndRepeats(sentences);
    double[] score = n == 0 ? new double[0] : scorer.score(query, inputs, sentences);
    if (score.length != n) {
      throw new IllegalStateException(scorer.id() + " returned " + score.length + " scores for " + n + " sentences");
    }
    // A sentence unrelated to the query is never kept, however much room is left.
    Set<String> queryTerms = SentenceFilter.queryTerms(query);
    Terms.Table queryTable = new Terms.Table(queryTerms);
    boolean[] hasTerm = new boolean[n];
    for (int i = 0; i < n; i++) {
      hasTerm[i] = !queryTerms.isEmpty() && SentenceFilter.hasTerm(sentences.get(i).text(), queryTable);
    }
    boolean[] anchored = new boolean[inputs.size()];
    for (int i = 0; i < n; i++) if (hasTerm[i]) anchored[sentences.get(i).input()] = true;
    for (int i = 0; i < n; i++) {
      if (flagged[i] == null && SentenceFilter.unrelated(i, sentences, hasTerm, queryTerms, score, anchored)) {
        flagged[i] = DropReason.OFF_TOPIC;
      }
    }
    return new Read(score, flagged, queryTerms, hasTerm, anchored);
  }

  private List<Compression.Dropped> dropped(List<CompressInput> inputs, List<Sentence> sentences, Selection sel,
      DropReason[] flagged, double[] score, int[] tokens, double onTopic, double line, boolean[] hasTerm,
      Set<String> queryTerms, boolean[] anchored) {
    List<Compression.Dropped> out = new ArrayList<>();
    for (int i = 0; i < sentences.size(); i++) {
      if (sel.kept[i]) continue;
      Sentence s = sentences.get(i);
      DropReason reason = flagged[i] != null ? flagged[i]
          : SentenceFilter.offTopic(i, sentences, hasTerm, queryTerms, score, onTopic, anchored) ? DropReason.OFF_TOPIC
          : score[i] < line ? DropReason.BELOW_RELEVANCE // false when there is no line (NaN)
          : DropReason.BUDGET;
      String id = inputs.get(s.input()).id();
      int[] cut = sel.cuts.get(i);
      if (cut != null) {
        if (cut[0] > s.start()) out.add(dropped(id, s, s.start(), cut[0], reason, score[i]));
        if (cut[1] < s.end()) out.add(dropped(id, s, cut[1], s.end(), reason, score[i]));
        continue;
      }
      out.add(new Compression.Dropped(id, new Compression.Span(s.part(), s.start(), s.end()), reason, score[i], tokens[i]));
    }
    return out;
  }

  /** The rest of a sentence cut at a clause, {@code [start, end)} of its part, counted alone. */
  private Compression.Dropped dropped(String id, Sentence s, int start, int end, DropReason reason, double score) {
    int tokens = tokenizer.count(s.text().substring(start - s.start(), end - s.start()));
    return new Compression.Dropped(id, new Compression.Span(s.part(), start, end), reason, score, tokens);
  }

  private static String joined(CompressInput in) {
    if (in.parts().size() == 1) return in.parts().get(0).text();
    StringBuilder sb = new StringBuilder();
    for (CompressInput.Part p : in.parts()) {
      if (sb.length() > 0) sb.append(Passage.GAP);
      sb.append(p.text());
    }
    return sb.toString();
  }

  /** Defaults: the fitted feature scorer without vectors, o200k_base. */
  public static final class Builder {
    private SentenceScorer scorer;
    private Tokenizer tokenizer = Tokenizers.defaultTokenizer();

    public Builder scorer(SentenceScorer s) {
      this.scorer = Objects.requireNonNull(s, "scorer");
      return this;
    }

    public Builder tokenizer(Tokenizer t) {
      this.tokenizer = Objects.requireNonNull(t, "tokenizer");
      return this;
    }

    public ExtractiveCompressor build() {
      if (scorer == null) scorer = FeatureSentenceScorer.defaults(SentenceVectors.none());
      return new ExtractiveCompressor(this);
    }
  }
}
