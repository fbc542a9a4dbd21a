package dev.ctxpack.token;

import java.util.Objects;

/**
 * A text encoded once, so that the exact token count of any of its spans costs a few words of
 * encoding rather than the whole span. Chunkers count many overlapping candidate spans; re-encoding
 * each would make the tokenizer run several times over every character.
 *
 * <p>How it stays exact: a GPT-style BPE tokenizer first cuts text into pieces with a regular
 * expression and encodes each piece alone. No piece holds a letter followed by a plain space, so
 * every offset {@code p} with a letter at {@code p - 1} and {@code ' '} at {@code p} is a piece
 * boundary of any text that contains both chars, and the pieces after it do not depend on what came
 * before it. The count of {@code [start, end)} is therefore the count of its head up to the first such
 * boundary, plus the whole-text tokens between the first and the last boundary, plus the count of its
 * tail from the last boundary — the head and tail are encoded alone (usually one word each). A span
 * without two such boundaries is simply encoded. Pieces never end inside a char, so byte offsets of
 * tokens at these boundaries always fall between chars.
 *
 * <p>For a tokenizer this class cannot see into (not a {@link JTokkitTokenizer}) every count encodes
 * the span. Not thread-safe; cheap to create per text.
 */
public final class EncodedText {
  /** Boundaries further than this from a span's edge are not looked for: the span is encoded instead. */
  private static final int SEARCH = 256;

  private final Tokenizer tokenizer;
  private final String text;
  /** tokensBefore[c]: the whole-text tokens that end at or before char c (valid at boundaries). */
  private final int[] tokensBefore;

  private EncodedText(Tokenizer tokenizer, String text, int[] tokensBefore) {
    this.tokenizer = tokenizer;
    this.text = text;
    this.tokensBefore = tokensBefore;
  }

  /** Encodes {@code text} once with {@code tokenizer}. */
  public static EncodedText of(Tokenizer tokenizer, String text) {
    Objects.requireNonNull(tokenizer, "tokenizer");
    Objects.requireNonNull(text, "text");
    if (!(tokenizer instanceof JTokkitTokenizer jt) || text.isEmpty()) {
      return new EncodedText(tokenizer, text, null);
    }
    int[] byteLengths = jt.tokenByteLengths(text);
    int n = text.length();
    int[] before = new int[n + 1];
    int token = 0;
    long tokenEnd = byteLengths.length > 0 ? byteLengths[0] : Long.MAX_VALUE;
    long bytes = 0;
    for (int c = 0; c < n; ) {
      char ch = text.charAt(c);
      int width;
      int chars = 1;
      if (ch < 0x80) width = 1;
      else if (ch < 0x800) width = 2;
      else if (Character.isHighSurrogate(ch) && c + 1 < n && Character.isLowSurrogate(text.charAt(c + 1))) {
        width = 4;
        chars = 2;
      } else if (Character.isSurrogate(ch)) {
        width = 1; // a lone surrogate is encoded as '?'
      } else width = 3;
      bytes += width;
      while (token < byteLengths.length && tokenEnd <= bytes) {
        token++;
        if (token < byteLengths.length) tokenEnd += byteLengths[token];
      }
      for (int k = 0; k < chars; k++) before[c + k + 1] = token;
      c += chars;
    }
    long sum = 0;
    for (int len : byteLengths) sum += len;
    if (sum != bytes) {
      // The encoder saw other bytes than this walk (an encoding this class does not know): count plainly.
      return new EncodedText(tokenizer, text, null);
    }
    return new EncodedText(tokenizer, text, before);
  }

  public String text() {
    return text;
  }

  public Tokenizer tokenizer() {
    return tokenizer;
  }

  /** The exact token count of {@code text.substring(start, end)}. */
  public int count(int start, int end) {
    if (start >= end) return 0;
    if (tokensBefore == null || end - start < 16) return tokenizer.count(text.substring(start, end));
    int head = firstBoundary(start + 1, Math.min(end, start + SEARCH));
    if (head < 0) return tokenizer.count(text.substring(start, end));
    int tail = lastBoundary(Math.max(head, end - SEARCH), end);
    if (tail < 0 || tail <= head) return tokenizer.count(text.substring(start, end));
    return tokenizer.count(text.substring(start, head)) + (tokensBefore[tail] - tokensBefore[head])
        + tokenizer.count(text.substring(tail, end));
  }

  /**
   * A number no smaller than {@link #count}, cheaply: the whole-text tokens between the span's first
   * and last boundary plus the UTF-8 bytes of its head and tail (no token is shorter than a byte).
   * Usually within a few tokens of the count; when it is at most a maximum, the span surely fits.
   */
  public int upperBound(int start, int end) {
    if (start >= end) return 0;
    if (tokensBefore == null) return count(start, end);
    int head = end - start < 16 ? -1 : firstBoundary(start + 1, Math.min(end, start + SEARCH));
    int tail = head < 0 ? -1 : lastBoundary(Math.max(head, end - SEARCH), end);
    if (tail < 0 || tail <= head) return utf8Length(start, end);
    return utf8Length(start, head) + (tokensBefore[tail] - tokensBefore[head]) + utf8Length(tail, end);
  }

  private int utf8Length(int start, int end) {
    int n = 0;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
    }
    return n;
  }

  /**
   * A cheap estimate of {@link #count}: the whole-text tokens that end inside the span (exact in the
   * middle, off by a token or two at the edges). Without a whole-text encoding it is the exact count.
   */
  public int estimate(int start, int end) {
    if (start >= end) return 0;
    if (tokensBefore == null) return count(start, end);
    return Math.max(1, tokensBefore[end] - tokensBefore[start]);
  }

  /**
   * An offset in {@code (start, end]} near where {@code maxTokens} whole-text tokens from {@code
   * start} end, never inside a surrogate pair; the caller checks the exact count and corrects. Only
   * a first guess: {@link #count} is what is exact.
   */
  public int guessEnd(int start, int end, int maxTokens) {
    if (tokensBefore == null) return Math.min(end, start + 4 * maxTokens);
    int target = tokensBefore[start] + maxTokens;
    int lo = start + 1;
    int hi = end;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (tokensBefore[mid] <= target) lo = mid;
      else hi = mid - 1;
    }
    if (lo < text.length() && lo > 0 && Character.isHighSurrogate(text.charAt(lo - 1))
        && Character.isLowSurrogate(text.charAt(lo))) {
      lo = lo - 1 > start ? lo - 1 : lo + 1;
    }
    return Math.min(lo, end);
  }

  private boolean isBoundary(int p) {
    return p > 0 && p < text.length() && text.charAt(p) == ' ' && Character.isLetter(text.charAt(p - 1));
  }

  private int firstBoundary(int from, int to) {
    for (int p = from; p <= to; p++) if (isBoundary(p)) return p;
    return -1;
  }

  private int lastBoundary(int from, int to) {
    for (int p = to; p >= from; p--) if (isBoundary(p)) return p;
    return -1;
  }
}
