package dev.ctxpack.chunk;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.EncodedText;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Chunks that end where the topic changes, with a hard minimum and maximum of tokens (the semantic
 * splitters of LangChain and LlamaIndex have no maximum, so one long stretch on one topic becomes
 * one huge chunk).
 *
 * <ol>
 *   <li>sentences (the segmenter, in the document's language); a sentence over the maximum is cut
 *       between words;
 *   <li>each sentence is embedded once; across each gap between sentences, the mean vector of the
 *       {@code 1 + buffer} sentences before it is compared with that of the {@code 1 + buffer} after it
 *       (buffer 1 by default, as LlamaIndex's {@code buffer_size}, but the two groups do not share
 *       sentences, so the jump is sharpest exactly at the gap) by cosine distance;
 *   <li>a breakpoint is where the distance exceeds the {@code percentile}-th percentile of the
 *       document's distances (95 by default); section marks and Markdown headings are breakpoints too;
 *   <li>a stretch between breakpoints under {@code minTokens} is joined to its neighbour across the
 *       weaker breakpoint (the smaller distance), when the joined stretch fits the maximum;
 *   <li>a stretch over the maximum is packed like {@link RecursiveChunker}'s pieces: full chunks
 *       end at the strongest boundary (paragraph, line, sentence) of their second half; when that
 *       leaves the last chunk under the minimum, the stretch is packed again to a smaller target
 *       (down to an even share), so its chunks come out balanced.
 * </ol>
 *
 * <p>The minimum holds except where a section (or the document) is shorter than it, or where a
 * short stretch's neighbours are too full to take it in and no balanced packing reaches it.
 *
 * <ol>
 * </ol>
 *
 * <p>When the embedder was not trained for the document's language ({@link Embedder#languages()};
 * the default MiniLM is English-only), distances would be noise: the document is cut by {@link
 * RecursiveChunker} without overlap instead (structure, not topic). Without any sentence boundary
 * to choose from, likewise. Deterministic for a deterministic embedder.
 */
public final class SemanticChunker implements Chunker {
  public static final int DEFAULT_BUFFER = 1;
  public static final double DEFAULT_PERCENTILE = 95;

  private final Tokenizer tokenizer;
  private final Embedder embedder;
  private final int minTokens;
  private final int maxTokens;
  private final int buffer;
  private final double percentile;
  private final SentenceSegmenter segmenter = new SentenceSegmenter();
  private final RecursiveChunker fallback;

  public SemanticChunker(Tokenizer tokenizer, Embedder embedder, int minTokens, int maxTokens, int buffer, double percentile) {
    this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    TokenChunker.checkMaxTokens(maxTokens);
    if (minTokens < 0 || minTokens > maxTokens) {
      throw new IllegalArgumentException("minimum tokens must be in [0, " + maxTokens + "], was " + minTokens);
    }
    if (buffer < 0) throw new IllegalArgumentException("buffer must be >= 0, was " + buffer);
    if (!(percentile > 0 && percentile < 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100), was " + percentile);
    }
    this.minTokens = minTokens;
    this.maxTokens = maxTokens;
    this.buffer = buffer;
    this.percentile = percentile;
    this.fallback = new RecursiveChunker(tokenizer, maxTokens, 0);
  }

  /** Minimum a quarter of the maximum, buffer 1, 95th percentile. */
  public SemanticChunker(Tokenizer tokenizer, Embedder embedder, int maxTokens) {
    this(tokenizer, embedder, maxTokens / 4, maxTokens, DEFAULT_BUFFER, DEFAULT_PERCENTILE);
  }

  @Override
  public String name() {
    return "semantic";
  }

  @Override
  public int maxTokens() {
    return maxTokens;
  }

  public int minTokens() {
    return minTokens;
  }

  @Override
  public String signature() {
    return name() + ":" + maxTokens + ":min" + minTokens + ":b" + buffer + ":p" + percentile + ":" + embedder.id();
  }

  @Override
  public List<Chunk> chunk(Document doc, List<SectionMark> sections) {
    if (!embedder.languages().isEmpty() && !embedder.languages().contains(doc.language())) {
      return fallback.chunk(doc, sections);
    }
    String text = doc.text();
    EncodedText encoded = EncodedText.of(tokenizer, text);
    List<Integer> sectionStarts = RecursiveChunker.sectionStarts(text, sections);
    // 1. Sentences, each labelled with the strength of the boundary before it.
    List<Span> sentences = new ArrayList<>();
    List<Integer> strengths = new ArrayList<>();
    for (int si = 0; si < sectionStarts.size(); si++) {
      int from = sectionStarts.get(si);
      int to = si + 1 < sectionStarts.size() ? sectionStarts.get(si + 1) : text.length();
      boolean first = true;
      for (Span s : segmenter.split(text.substring(from, to), doc.language())) {
        Span abs = new Span(from + s.start(), from + s.end());
        sentences.add(abs);
        strengths.add(first ? RecursiveChunker.SECTION : structure(text, sentences.size() > 1 ? sentences.get(sentences.size() - 2).end() : 0, abs.start()));
        first = false;
      }
    }
    int n = sentences.size();
    if (n < 3) return fallback.chunk(doc, sections);
    // 2. Distances across each gap: the mean vector of the 1 + buffer sentences before it against
    // that of the 1 + buffer after it (each sentence embedded once).
    List<String> sentenceTexts = new ArrayList<>(n);
    for (Span s : sentences) sentenceTexts.add(s.of(text));
    List<float[]> vectors = Embedder.embedLeniently(embedder, sentenceTexts);
    double[] distance = new double[n]; // distance[i]: across the gap before sentence i; distance[0] unused
    for (int i = 1; i < n; i++) {
      float[] left = mean(vectors, Math.max(0, i - 1 - buffer), i);
      float[] right = mean(vectors, i, Math.min(n, i + 1 + buffer));
      distance[i] = left == null || right == null ? 0 : 1 - Embedder.dot(left, right);
    }
    double threshold = percentile(Arrays.copyOfRange(distance, 1, n), percentile);
    // 3. Breakpoints: topic jumps and sections.
    boolean[] breakBefore = new boolean[n];
    for (int i = 1; i < n; i++) {
      breakBefore[i] = strengths.get(i) == RecursiveChunker.SECTION || distance[i] > threshold;
    }
    // 4. Stretches under the minimum join a neighbour across the weaker breakpoint, if it fits.
    joinSmallStretches(encoded, sentences, strengths, distance, breakBefore);
    // 5. Each stretch between breakpoints: its pieces (sentences cut to fit) packed to the maximum,
    // balanced so that the last chunk of a long stretch is not left under the minimum.
    List<Pieces.Packed> packed = new ArrayList<>();
    int a = 0;
    while (a < n) {
      int b = a + 1;
      while (b < n && !breakBefore[b]) b++;
      Pieces pieces = new Pieces();
      for (int i = a; i < b; i++) {
        Span s = sentences.get(i);
        int before = i == a ? RecursiveChunker.SECTION : strengths.get(i);
        List<Integer> counts = new ArrayList<>();
        List<Span> parts = TextUnits.fit(encoded, List.of(s), maxTokens, counts);
        for (int k = 0; k < parts.size(); k++) {
          pieces.add(parts.get(k).start(), parts.get(k).end(), counts.get(k), k == 0 ? before : RecursiveChunker.WORD);
        }
      }
      packed.addAll(balanced(encoded, pieces));
      a = b;
    }
    return Pieces.toChunks(doc, sections, packed);
  }

  /**
   * The stretch packed to the maximum; if that leaves its last chunk under the minimum, packed again
   * to smaller targets (never below an even share of the stretch) and the first packing whose last
   * chunk reaches the minimum, with no more chunks, is kept.
   */
  private List<Pieces.Packed> balanced(EncodedText encoded, Pieces pieces) {
    List<Pieces.Packed> best = pieces.pack(encoded, maxTokens, 0, RecursiveChunker.SECTION);
    if (best.size() < 2 || best.get(best.size() - 1).tokens() >= minTokens) return best;
    int total = 0;
    for (Pieces.Packed p : best) total += p.tokens();
    int even = (total + best.size() - 1) / best.size();
    for (int target = maxTokens - Math.max(1, (maxTokens - even) / 8); target >= even && target >= TokenChunker.MIN_MAX_TOKENS;
        target -= Math.max(1, (maxTokens - even) / 8)) {
      List<Pieces.Packed> tried = pieces.pack(encoded, target, 0, RecursiveChunker.SECTION);
      if (tried.size() <= best.size() && tried.get(tried.size() - 1).tokens() >= minTokens) return tried;
    }
    return best;
  }

  /** The unit-length mean of vectors {@code [from, to)}, skipping missing ones; null if none. */
  private static float[] mean(List<float[]> vectors, int from, int to) {
    float[] sum = null;
    for (int k = from; k < to; k++) {
      float[] v = vectors.get(k);
      if (v == null) continue;
      if (sum == null) sum = new float[v.length];
      for (int d = 0; d < v.length; d++) sum[d] += v[d];
    }
    return sum == null ? null : Embedder.normalize(sum);
  }

  /** Paragraph, line or sentence: what separates two neighbouring sentences. */
  private static int structure(String text, int prevEnd, int start) {
    int newlines = 0;
    for (int k = prevEnd; k < start; k++) if (text.charAt(k) == '\n') newlines++;
    return newlines >= 2 ? RecursiveChunker.PARAGRAPH : newlines == 1 ? RecursiveChunker.LINE : RecursiveChunker.SENTENCE;
  }

  private void joinSmallStretches(EncodedText encoded, List<Span> sentences, List<Integer> strengths,
      double[] distance, boolean[] breakBefore) {
    int n = sentences.size();
    boolean changed = true;
    while (changed) {
      changed = false;
      int a = 0;
      while (a < n) {
        int b = a + 1;
        while (b < n && !breakBefore[b]) b++;
        int tokens = encoded.count(sentences.get(a).start(), sentences.get(b - 1).end());
        if (tokens < minTokens) {
          // Join across the softer side: never a section; else the smaller distance, if it fits.
          boolean canLeft = a > 0 && strengths.get(a) != RecursiveChunker.SECTION;
          boolean canRight = b < n && strengths.get(b) != RecursiveChunker.SECTION;
          int prevStart = canLeft ? stretchStart(breakBefore, a - 1) : -1;
          int nextEnd = canRight ? stretchEnd(breakBefore, b) : -1;
          boolean leftFits = canLeft && encoded.count(sentences.get(prevStart).start(), sentences.get(b - 1).end()) <= maxTokens;
          boolean rightFits = canRight && encoded.count(sentences.get(a).start(), sentences.get(nextEnd - 1).end()) <= maxTokens;
          if (leftFits && (!rightFits || distance[a] <= distance[b])) {
            breakBefore[a] = false;
            changed = true;
          } else if (rightFits) {
            breakBefore[b] = false;
            changed = true;
          }
        }
        a = b;
      }
    }
  }

  private static int stretchStart(boolean[] breakBefore, int i) {
    while (i > 0 && !breakBefore[i]) i--;
    return i;
  }

  private static int stretchEnd(boolean[] breakBefore, int i) {
    int e = i + 1;
    while (e < breakBefore.length && !breakBefore[e]) e++;
    return e;
  }

  /** The {@code p}-th percentile by linear interpolation between closest ranks (as NumPy's default). */
  static double percentile(double[] values, double p) {
    if (values.length == 0) return Double.POSITIVE_INFINITY;
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double rank = p / 100 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
  }
}
