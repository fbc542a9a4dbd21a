package dev.ctxpack.dedup;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.similarity.Guard;
import dev.ctxpack.similarity.Words;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Deadline;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Passage.Piece;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import dev.ctxpack.model.WorkLimitException;
import dev.ctxpack.text.Decimals;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.TextNormalizer;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The dedup cascade: the cheapest detector first, merge instead of silently dropping, guard the
 * exceptions, report everything. Passages are taken best score first (ties by id) and each level
 * runs over the whole list in turn:
 *
 * <ol>
 *   <li><b>exact</b> — same {@link TextNormalizer#identityForm} (NFKC, case and whitespace folded):
 *       the copy is dropped and its sources are cited with the kept passage;
 *   <li><b>near</b> — Jaccard of {@code shingle}-word shingles at least {@code nearJaccard}, or
 *       the smaller passage's shingles contained in the larger at least {@code nearContainment}
 *       (punctuation, case and whitespace ignored): merged into the better copy, keeping its text
 *       plus every sentence only the other copy has, all sources kept;
 *   <li><b>overlap</b> — chunks of the same document whose offsets overlap or touch: stitched into
 *       one piece covering their union, so both edges survive;
 *   <li><b>semantic</b> — cosine of {@link PassageVectors} at least {@code semanticCosine}: grouped,
 *       never deleted: rendered once with every member's distinct sentences, shared sentences once.
 * </ol>
 *
 * At near and semantic, the {@link Guard} keeps apart passages that state one thing with a different
 * negation, number, date or condition; each such pair is a {@code keep} decision in the trace.
 * Stitching is not guarded: it only joins text of one document at its own offsets. Every piece of
 * every output passage is verbatim text of its document at its recorded span.
 *
 * <p>The work of a call is bounded by {@link #withMaxComparisons}: the sentence pairs the guard
 * compares (a pair of look-alike passages costs the product of their sentence counts), counted as
 * the cascade goes; the call that would pass the cap throws {@link WorkLimitException}. The loops
 * check {@link Deadline} between passages and before each guarded pair, so a call whose thread is
 * interrupted or past its deadline stops with {@link dev.ctxpack.model.WorkCancelledException}.
 *
 * <p>Thread-safe if its {@link PassageVectors} are: each call works on its own state.
 */
public final class CascadeDeduplicator implements Deduplicator {
  private static final Comparator<Passage> BEST_FIRST =
      Comparator.comparingDouble(Passage::score).reversed().thenComparing(Passage::id);

  private final DedupOptions options;
  private final Guard guard;
  private final Guard semanticGuard;
  private final LanguageDetector languageDetector = new LanguageDetector();
  private final long maxComparisons;
  private final String limitHint;
  private final DedupMemory memory;

  public CascadeDeduplicator(DedupOptions options) {
    this(options, Long.MAX_VALUE, "", null);
  }

  private CascadeDeduplicator(DedupOptions options, long maxComparisons, String limitHint, DedupMemory memory) {
    this.options = Objects.requireNonNull(options, "options");
    this.memory = memory;
    this.guard = new Guard(options.alignMin(), false);
    this.semanticGuard = new Guard(options.semanticAlignMin(), true);
    if (maxComparisons < 1) throw new IllegalArgumentException("maxComparisons must be >= 1, was " + maxComparisons);
    this.maxComparisons = maxComparisons;
    this.limitHint = Objects.requireNonNull(limitHint, "limitHint");
  }

  /**
   * The same cascade, refusing a call whose guard would compare more than {@code max} sentence
   * pairs ({@link WorkLimitException}, its message ending with {@code hint} in parentheses when
   * not empty, e.g. the option that sets the cap).
   */
  public CascadeDeduplicator withMaxComparisons(long max, String hint) {
    return new CascadeDeduplicator(options, max, hint, memory);
  }

  /** The same cascade, remembering what it reads of each text in {@code memory} (same merges, same trace). */
  public CascadeDeduplicator withMemory(DedupMemory memory) {
    return new CascadeDeduplicator(options, maxComparisons, limitHint, Objects.requireNonNull(memory, "memory"));
  }

  /** The cap of {@link #withMaxComparisons}; {@link Long#MAX_VALUE} when none. */
  public long maxComparisons() {
    return maxComparisons;
  }

  public DedupOptions options() {
    return options;
  }

  @Override
  public String describe() {
    return options.describe();
  }

  @Override
  public Deduplication dedup(List<Passage> ranked, Tokenizer tokenizer, PassageVectors vectors, Trace trace)
      throws IOException {
    Run run = new Run(Objects.requireNonNull(tokenizer, "tokenizer"), vectors == null ? PassageVectors.none() : vectors,
        trace);
    List<Work> items = new ArrayList<>(ranked.size());
    for (Passage p : ranked.stream().sorted(BEST_FIRST).toList()) items.add(new Work(p, run.tokenizer));
    if (options.levels().contains(DedupLevel.EXACT)) items = run.exact(items);
    if (options.levels().contains(DedupLevel.NEAR)) items = run.near(items);
    if (options.levels().contains(DedupLevel.OVERLAP)) items = run.overlap(items);
    if (options.levels().contains(DedupLevel.SEMANTIC)) items = run.semantic(items);
    List<Passage> out = new ArrayList<>(items.size());
    for (Work w : items) out.add(w.toPassage());
    return new Deduplication(out, run.keptApart);
  }

  /** One call's state: how it counts, the vectors it compares, its trace and the pairs it kept apart. */
  private final class Run {
    private final Tokenizer tokenizer;
    private final PassageVectors vectors;
    private final Trace trace;
    private final List<KeptApart> keptApart = new ArrayList<>();
    /** Sentence pairs the guard has compared so far. */
    private long comparisons;

    Run(Tokenizer tokenizer, PassageVectors vectors, Trace trace) {
      this.tokenizer = tokenizer;
      this.vectors = vectors;
      this.trace = trace;
    }

    // ---- exact ----

    private List<Work> exact(List<Work> items) {
      Map<Object, Work> byHash = new LinkedHashMap<>();
      for (Work w : items) {
        Work kept = byHash.putIfAbsent(w.read().key(), w);
        if (kept == null) continue;
        kept.sources.addAll(w.sources);
        trace.add(new Decision(Stage.DEDUP, DedupLevel.EXACT.action(), "exact:normalized-text",
            List.of(w.id), kept.id, w.tokens(), "same text as " + kept.id + " after normalisation; "
                + docsOf(w) + " cited with the kept passage", 1.0));
      }
      return new ArrayList<>(byHash.values());
    }

    // ---- near ----

    private List<Work> near(List<Work> items) {
      String rule = "near:jaccard>=" + fmt(options.nearJaccard());
      String containmentRule = "near:containment>=" + fmt(options.nearContainment());
      List<Work> kept = new ArrayList<>();
      List<long[]> keptShingles = new ArrayList<>();
      List<long[]> shingles = new ArrayList<>(items.size());
      int total = 0;
      for (Work w : items) {
        long[] sh = w.read().shingles();
        shingles.add(sh);
        total += sh.length;
      }
      ShingleIndex index = new ShingleIndex(total);
      int[] shared = new int[items.size()];
      for (int wi = 0; wi < items.size(); wi++) {
        Work w = items.get(wi);
        Deadline.check();
        long[] sh = shingles.get(wi);
        List<double[]> matches = new ArrayList<>();
        index.count(sh, shared);
        for (int i = 0; i < kept.size(); i++) {
          int inter = shared[i];
          if (inter == 0) continue;
          shared[i] = 0;
          long[] other = keptShingles.get(i);
          double j = inter / (double) (other.length + sh.length - inter);
          double c = inter / (double) Math.max(1, Math.min(other.length, sh.length));
          if (j >= options.nearJaccard()) {
            matches.add(new double[] {j, i, 0});
          } else if (c >= options.nearContainment()) {
            matches.add(new double[] {c, i, 1});
          }
        }
        matches.sort((a, b) -> a[0] != b[0] ? Double.compare(b[0], a[0]) : Double.compare(a[1], b[1]));
        Work into = null;
        for (double[] m : matches) {
          Work p = kept.get((int) m[1]);
          if (guarded(p, w, guard, DedupLevel.NEAR, m[0])) continue;
          into = p;
          boolean byJaccard = m[2] == 0;
          absorb(p, w, DedupLevel.NEAR, byJaccard ? rule : containmentRule, m[0], "near copy of " + p.id + " ("
              + (byJaccard ? "jaccard " : "shingle containment ") + fmt(m[0]) + ")");
          break;
        }
        if (into == null) {
          index.add(sh, kept.size());
          kept.add(w);
          keptShingles.add(sh);
        }
      }
      return kept;
    }

    // ---- overlap ----

    private List<Work> overlap(List<Work> items) {
      List<Work> kept = new ArrayList<>();
      Map<String, List<Work>> byDoc = new HashMap<>();
      for (Work w : items) {
        List<Work> sameDoc = byDoc.computeIfAbsent(w.lead().docId(), d -> new ArrayList<>());
        Work into = null;
        for (Work p : sameDoc) {
          if (p.lead().span().overlapsOrTouches(w.lead().span())) {
            if (consistent(p.lead(), w.lead())) {
              into = p;
              break;
            }
            String why = "offsets overlap " + p.id + " in " + p.lead().docId() + " but the texts differ there; not stitched";
            trace.add(new Decision(Stage.DEDUP, Action.KEEP, "overlap:texts-disagree", List.of(w.id), p.id, 0, why, Double.NaN));
            keptApart.add(new KeptApart(w.id, p.id, DedupLevel.OVERLAP, Difference.TEXTS_DISAGREE, Double.NaN, why));
          }
        }
        if (into == null) {
          kept.add(w);
          sameDoc.add(w);
          continue;
        }
        stitch(into, w);
        // The union may now reach other kept passages of the document: absorb them too.
        boolean grew = true;
        while (grew) {
          grew = false;
          for (Work other : sameDoc) {
            if (other != into && into.lead().span().overlapsOrTouches(other.lead().span())
                && consistent(into.lead(), other.lead())) {
              stitch(into, other);
              sameDoc.remove(other);
              kept.remove(other);
              grew = true;
              break;
            }
          }
        }
      }
      return kept;
    }

    private void stitch(Work into, Work w) {
      Piece a = into.lead();
      Piece b = w.lead();
      Piece union = union(a, b);
      into.pieces.set(0, union);
      into.pieces.addAll(w.pieces.subList(1, w.pieces.size()));
      into.sources.addAll(w.sources);
      into.invalidate();
      // Saved: the overlap, which would otherwise be rendered twice.
      int os = Math.max(a.span().start(), b.span().start());
      int oe = Math.min(a.span().end(), b.span().end());
      int saved = oe > os ? tokens(a.text().substring(os - a.span().start(), oe - a.span().start())) : 0;
      trace.add(new Decision(Stage.DEDUP, DedupLevel.OVERLAP.action(), "overlap:same-document-offsets",
          List.of(w.id), into.id, Math.max(0, saved), "overlaps or touches " + into.id + " in " + a.docId() + ": ["
              + a.span().start() + ", " + a.span().end() + ") + [" + b.span().start() + ", " + b.span().end()
              + ") stitched into [" + union.span().start() + ", " + union.span().end() + "), both edges kept",
          overlapRatio(a.span(), b.span())));
    }

    static boolean consistent(Piece a, Piece b) {
      int s = Math.max(a.span().start(), b.span().start());
      int e = Math.min(a.span().end(), b.span().end());
      if (e <= s) return true;
      return a.text().regionMatches(s - a.span().start(), b.text(), s - b.span().start(), e - s);
    }

    static Piece union(Piece a, Piece b) {
      if (b.span().start() < a.span().start()) return union(b, a);
      String text = b.span().end() > a.span().end() ? a.text() + b.text().substring(a.span().end() - b.span().start()) : a.text();
      return new Piece(a.docId(), new Span(a.span().start(), Math.max(a.span().end(), b.span().end())), text);
    }

    private static double overlapRatio(Span a, Span b) {
      int inter = Math.max(0, Math.min(a.end(), b.end()) - Math.max(a.start(), b.start()));
      int min = Math.min(a.length(), b.length());
      return min == 0 ? 0 : inter / (double) min;
    }

    // ---- semantic ----

    private List<Work> semantic(List<Work> items) throws IOException {
      List<Passage> current = new ArrayList<>(items.size());
      for (Work w : items) current.add(w.toPassage());
      Map<String, float[]> vecs = vectors.vectors(current);
      if (vecs.isEmpty()) return items;
      String rule = "semantic:cosine>=" + fmt(options.semanticCosine());
      List<Work> kept = new ArrayList<>();
      for (Work w : items) {
        Deadline.check();
        float[] v = vecs.get(w.id);
        Work into = null;
        if (v != null) {
          List<double[]> matches = new ArrayList<>();
          for (int i = 0; i < kept.size(); i++) {
            float[] u = vecs.get(kept.get(i).id);
            if (u == null || u.length != v.length) continue;
            double cos = dot(u, v);
            if (cos >= options.semanticCosine()) matches.add(new double[] {cos, i});
          }
          matches.sort((a, b) -> a[0] != b[0] ? Double.compare(b[0], a[0]) : Double.compare(a[1], b[1]));
          for (double[] m : matches) {
            Work p = kept.get((int) m[1]);
            if (guarded(p, w, semanticGuard, DedupLevel.SEMANTIC, m[0])) continue;
            into = p;
            absorb(p, w, DedupLevel.SEMANTIC, rule, m[0], "says the same as " + p.id + " (cosine " + fmt(m[0]) + ")");
            break;
          }
        }
        if (into == null) kept.add(w);
      }
      return kept;
    }

    // ---- shared ----

    private boolean guarded(Work p, Work w, Guard g, DedupLevel level, double similarity) {
      if (!options.guard()) return false;
      Deadline.check();
      List<Guard.Sentence> a = p.plainSentences();
      List<Guard.Sentence> b = w.plainSentences();
      comparisons += (long) Math.max(1, a.size()) * Math.max(1, b.size());
      if (comparisons > maxComparisons) {
        throw new WorkLimitException("sentence comparisons between look-alike passages", comparisons, maxComparisons, true,
            limitHint);
      }
      Optional<Guard.Conflict> c = g.check(a, b);
      if (c.isEmpty()) return false;
      trace.add(new Decision(Stage.DEDUP, Action.KEEP, level.key() + ":" + c.get().rule(), List.of(w.id), p.id, 0,
          level.key() + " match of " + p.id + " (" + fmt(similarity) + ") kept apart by the guard: " + c.get().detail(),
          similarity));
      keptApart.add(new KeptApart(w.id, p.id, level, Difference.ofGuard(c.get().kind()), similarity, c.get().detail()));
      return true;
    }

    /** Merges or groups {@code w} into {@code p}: {@code w}'s sentences that {@code p} lacks become pieces. */
    private void absorb(Work p, Work w, DedupLevel level, String rule, double similarity, String why) {
      // A sentence is new unless the passage (or a sentence already added) covers it: punctuation
      // and sentence cuts never make a sentence new, a negation or number around it always does.
      List<Guard.Sentence> have = new ArrayList<>(p.plainSentences());
      List<Piece> added = new ArrayList<>();
      for (Located s : w.sentences()) {
        if (Guard.covered(s.sentence(), have)) continue;
        have.add(s.sentence());
        Piece from = w.pieces.get(s.piece());
        Span sp = s.sentence().span();
        added.add(new Piece(from.docId(), new Span(from.span().start() + sp.start(), from.span().start() + sp.end()),
            sp.of(from.text())));
      }
      int addedTokens = 0;
      for (Piece a : added) addedTokens += tokens(Passage.GAP + a.text());
      p.pieces.addAll(added);
      p.sources.addAll(w.sources);
      p.invalidate();
      trace.add(new Decision(Stage.DEDUP, level.action(), rule, List.of(w.id), p.id,
          Math.max(0, w.tokens() - addedTokens), why + "; " + added.size() + " sentence(s) only it has kept, "
              + docsOf(w) + " cited", similarity));
    }

    private int tokens(String text) {
      return tokenizer.count(text);
    }

  }

  private static String docsOf(Work w) {
    Set<String> docs = new java.util.TreeSet<>();
    for (Candidate c : w.sources) docs.add(c.doc().id());
    return String.join(", ", docs);
  }

  /** Dot product with four independent float accumulators (unit vectors: the cosine). */
  static double dot(float[] a, float[] b) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int i = 0;
    for (; i + 3 < a.length; i += 4) {
      s0 += a[i] * b[i];
      s1 += a[i + 1] * b[i + 1];
      s2 += a[i + 2] * b[i + 2];
      s3 += a[i + 3] * b[i + 3];
    }
    for (; i < a.length; i++) s0 += a[i] * b[i];
    return (double) s0 + s1 + s2 + s3;
  }

  static String fmt(double d) {
    return Decimals.fixed(d, 2);
  }

  /** A sentence of a passage and the index of the piece it lies in (offsets relative to the piece). */
  record Located(int piece, Guard.Sentence sentence) {}

  /** A passage being built by the cascade. */
  private final class Work {
    final String id;
    final List<Piece> pieces;
    final List<Candidate> sources;
    final double score;
    final Language language;
    private String text;
    private DedupMemory.Read read;
    private int tokens = -1;
    private List<Located> sentences;
    private final Tokenizer tokenizer;

    Work(Passage p, Tokenizer tokenizer) {
      this.tokenizer = tokenizer;
      this.id = p.id();
      this.pieces = new ArrayList<>(p.pieces());
      this.sources = new ArrayList<>(p.sources());
      this.score = p.score();
      this.text = p.text();
      Language l = p.primary().doc().language();
      this.language = l == Language.UNKNOWN ? languageDetector.detect(p.text()) : l;
    }

    Piece lead() {
      return pieces.get(0);
    }

    String text() {
      if (text == null) text = Passage.join(pieces);
      return text;
    }

    /** What the exact and near levels read of the text, computed once (or remembered, with a {@link DedupMemory}). */
    DedupMemory.Read read() {
      if (read == null) read = DedupMemory.read(memory, text(), options.levels().contains(DedupLevel.NEAR) ? options.shingle() : 0);
      return read;
    }

    void invalidate() {
      text = null;
      read = null;
      tokens = -1;
      sentences = null;
    }

    /** Tokens of the text: the chunk's own count when the passage is still just that chunk. */
    int tokens() {
      if (tokens < 0) {
        var lead = sources.get(0).chunk();
        tokens = pieces.size() == 1 && lead.tokens() > 0 && lead.text().equals(text()) ? lead.tokens() : tokenizer.count(text());
      }
      return tokens;
    }

    List<Located> sentences() {
      if (sentences == null) {
        List<Located> out = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
          for (Guard.Sentence s : guard.sentences(pieces.get(i).text(), language)) out.add(new Located(i, s));
        }
        sentences = out;
      }
      return sentences;
    }

    List<Guard.Sentence> plainSentences() {
      return sentences().stream().map(Located::sentence).toList();
    }

    Passage toPassage() {
      return Passage.of(id, pieces, sources, score);
    }
  }
}
