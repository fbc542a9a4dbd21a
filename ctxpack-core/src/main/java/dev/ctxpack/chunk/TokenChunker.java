package dev.ctxpack.chunk;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.EncodedText;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Fixed-size chunks measured in exact tokens, cut at sentence boundaries where possible, with
 * overlap. Sentences longer than the maximum are cut between words, and words longer than the
 * maximum at token boundaries. The next chunk starts at the earliest sentence (or word) whose
 * tail of the previous chunk fits in the overlap, so neighbouring chunks share whole sentences;
 * where the overlap would leave no room for new text it shrinks, so no chunk lies inside its
 * predecessor.
 *
 * <p>Default: 300 tokens, 15 % overlap. The maximum is hard: every chunk's text is counted exactly.
 */
public final class TokenChunker implements Chunker {
  public static final int DEFAULT_MAX_TOKENS = 300;
  public static final double DEFAULT_OVERLAP = 0.15;
  /** A chunk must be able to hold any single code point (at most 4 bytes, so 4 byte-level tokens). */
  public static final int MIN_MAX_TOKENS = 8;
  /** Texts up to this many chars per allowed token are first tried as a single chunk. */
  private static final int FAST_PATH_CHARS_PER_TOKEN = 6;

  private final Tokenizer tokenizer;
  private final int maxTokens;
  private final double overlap;
  private final SentenceSegmenter segmenter = new SentenceSegmenter();

  public TokenChunker(Tokenizer tokenizer, int maxTokens, double overlap) {
    this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    this.maxTokens = checkMaxTokens(maxTokens);
    this.overlap = checkOverlap(overlap);
  }

  /** {@code maxTokens}, if a chunker can keep it as its hard maximum; every chunker checks with this. */
  static int checkMaxTokens(int maxTokens) {
    if (maxTokens < MIN_MAX_TOKENS) {
      throw new IllegalArgumentException("chunk tokens must be >= " + MIN_MAX_TOKENS + ", was " + maxTokens);
    }
    return maxTokens;
  }

  /** {@code overlap}, if it is a fraction of the maximum in [0, 0.5). */
  static double checkOverlap(double overlap) {
    if (!(overlap >= 0 && overlap < 0.5)) {
      throw new IllegalArgumentException("overlap must be in [0, 0.5), was " + overlap);
    }
    return overlap;
  }

  @Override
  public String name() {
    return "token";
  }

  @Override
  public int maxTokens() {
    return maxTokens;
  }

  /**
   * The overlap fraction. The whole text is encoded once and candidate chunks are counted from
   * that encoding ({@link EncodedText}): the counts stay exact at about the cost of one encoding.
   */
  public double overlap() {
    return overlap;
  }

  @Override
  public String signature() {
    return name() + ":" + maxTokens + ":" + overlap;
  }

  @Override
  public List<Chunk> chunk(Document doc, List<SectionMark> sections) {
    String text = doc.text();
    EncodedText encoded = EncodedText.of(tokenizer, text);
    // Fast path: a text that plausibly fits is counted once and, if it fits, is one chunk (the
    // same span the general path would give: first to last non-space character).
    if (text.length() <= (long) maxTokens * FAST_PATH_CHARS_PER_TOKEN) {
      int start = 0;
      int end = text.length();
      while (start < end && SentenceSegmenter.isSpace(text.charAt(start))) start++;
      while (end > start && SentenceSegmenter.isSpace(text.charAt(end - 1))) end--;
      if (start == end) return List.of();
      int n = encoded.count(start, end);
      if (n <= maxTokens) {
        return List.of(new Chunk(Chunker.chunkId(doc.id(), 0), doc.id(), new Span(start, end), text.substring(start, end),
            Chunker.sectionAt(sections, start), 0, n));
      }
    }
    List<Integer> counts = new ArrayList<>();
    List<Span> units = TextUnits.fit(encoded, segmenter.split(text, doc.language()), maxTokens, counts);
    List<Chunk> chunks = new ArrayList<>();
    int n = units.size();
    if (n == 0) return chunks;
    int overlapTokens = (int) Math.floor(maxTokens * overlap);
    int s = 0;
    int startChar = units.get(0).start();
    int firstCount = counts.get(0);
    int covered = 0; // units [0, covered) are in the chunks so far
    while (true) {
      // Grow by the sum of unit counts, then correct with the exact count of the chunk text.
      int e = s;
      int estimate = 0;
      while (e < n && (e == s || estimate + counts.get(e) <= maxTokens)) {
        estimate += e == s ? firstCount : counts.get(e);
        e++;
      }
      int exact = encoded.count(startChar, units.get(e - 1).end());
      while (exact > maxTokens && e > s + 1) {
        e--;
        exact = encoded.count(startChar, units.get(e - 1).end());
      }
      if (e <= covered) {
        // The overlap left no room for a new unit (the separators between units cost tokens the
        // estimate does not see): give up its first unit rather than repeat text already chunked.
        s++;
        startChar = units.get(s).start();
        firstCount = counts.get(s);
        continue;
      }
      covered = e;
      chunks.add(new Chunk(
          Chunker.chunkId(doc.id(), chunks.size()),
          doc.id(),
          new Span(startChar, units.get(e - 1).end()),
          text.substring(startChar, units.get(e - 1).end()),
          Chunker.sectionAt(sections, startChar),
          0,
          exact));
      if (e >= n) break;
      // Next start: the earliest whole unit after s whose tail of this chunk fits the overlap...
      int k = e;
      int sum = 0;
      while (overlapTokens > 0 && k - 1 > s && sum + counts.get(k - 1) <= overlapTokens) {
        sum += counts.get(k - 1);
        k--;
      }
      if (k < e) {
        s = k;
        startChar = units.get(k).start();
        firstCount = counts.get(k);
        continue;
      }
      // ...else the trailing words of the last unit, if they fit beside the next unit.
      int tailStart = overlapTokens > 0 ? wordTail(encoded, units.get(e - 1), startChar, overlapTokens) : -1;
      if (tailStart >= 0) {
        int tailCount = encoded.count(tailStart, units.get(e - 1).end());
        if (tailCount + counts.get(e) <= maxTokens) {
          s = e - 1;
          startChar = tailStart;
          firstCount = tailCount;
          continue;
        }
      }
      s = e;
      startChar = units.get(e).start();
      firstCount = counts.get(e);
    }
    return chunks;
  }

  /**
   * The start of the longest run of trailing words of {@code unit} that fits in {@code budget}
   * tokens and starts after {@code after}, or -1 when not even the last word fits.
   */
  private static int wordTail(EncodedText encoded, Span unit, int after, int budget) {
    List<Span> words = TextUnits.words(encoded.text(), unit);
    int best = -1;
    for (int j = words.size() - 1; j >= 1; j--) {
      int ws = words.get(j).start();
      if (ws <= after) break;
      if (encoded.upperBound(ws, unit.end()) > budget && encoded.count(ws, unit.end()) > budget) break;
      best = ws;
    }
    return best;
  }
}
