package dev.ctxpack.token;

import java.util.Objects;

/**
 * A text encoded once, so that the exact token count of any of its spans costs a few words of
 * encoding rather than the whole span. Chunkers count many overlapping candidate spans; re-encoding
 * each would make the tokenizer run several times over every character.
 *
 * <p>How it stays exact: a GPT-style BPE tokenizer first cuts text into pieces with a regular
 * expression and encodes each piece alone. No piece holds a word, number or punctuation char followed
 * by a plain space, so every offset {@code p} with such a char at {@code p - 1} and {@code ' '} at
 * {@code p} is a piece boundary of any text that contains both chars ({@link
 * JTokkitTokenizer#isPieceBoundary}), and the pieces after it do not depend on what came
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
  /**
   * tokenEnds[k]: the first char offset at or after which whole-text token k has ended (a token
   * that ends inside a char's UTF-8 bytes ends at the next char). Non-decreasing; null when the
   * text is counted plainly. The tokens that end at or before char c are the entries {@code <= c}.
   */
  private final int[] tokenEnds;

  private EncodedText(Tokenizer tokenizer, String text, int[] tokenEnds) {
    this.tokenizer = tokenizer;
    this.text = text;
    this.tokenEnds = tokenEnds;
  }

  /** Encodes {@code text} once with {@code tokenizer}. */
  public static EncodedText of(Tokenizer tokenizer, String text) {
    Objects.requireNonNull(tokenizer, "tokenizer");
    Objects.requireNonNull(text, "text");
    if (!(tokenizer instanceof JTokkitTokenizer jt) || text.isEmpty()) {
      return new EncodedText(tokenizer, text, null);
    }
    int[] ends = jt.tokenByteLengths(text); // turned in place into char offsets below
    int n = text.length();
    long bytes = 0;
    long tokenEnd = 0;
    int c = 0;
    for (int k = 0; k < ends.length; k++) {
      tokenEnd += ends[k];
      while (bytes < tokenEnd && c < n) {
        char ch = text.charAt(c);
        if (ch < 0x80) {
          bytes++;
          c++;
        } else if (ch < 0x800) {
          bytes += 2;
          c++;
        } else if (Character.isHighSurrogate(ch) && c + 1 < n && Character.isLowSurrogate(text.charAt(c + 1))) {
          bytes += 4;
          c += 2;
        } else if (Character.isSurrogate(ch)) {
          bytes++; // a lone surrogate is encoded as '?'
          c++;
        } else {
          bytes += 3;
          c++;
        }
      }
      ends[k] = c;
    }
    if (bytes != tokenEnd || c != n) {
      // The encoder saw other bytes than this walk (an encoding this class does not know): count plainly.
      return new EncodedText(tokenizer, text, null);
    }
    return new EncodedText(tokenizer, text, ends);
  }

  /** The whole-text tokens that end at or before char {@code c} (valid as a count at boundaries). */
  private int tokensBefore(int c) {
    int lo = 0;
    int hi = tokenEnds.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (tokenEnds[mid] <= c) lo = mid + 1;
      else hi = mid;
    }
    return lo;
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
    if (tokenEnds == null) return tokenizer.count(text.substring(start, end));
    // The text's own start and end are piece boundaries too: a span reaching either needs no encoding there.
    if (start == 0 && end == text.length()) return tokenEnds.length;
    if (end - start < 16) return tokenizer.count(text.substring(start, end));
    int head = start == 0 ? 0 : firstBoundary(start + 1, Math.min(end, start + SEARCH));
    if (head < 0) return tokenizer.count(text.substring(start, end));
    int tail = end == text.length() ? end : lastBoundary(Math.max(head, end - SEARCH), end);
    if (tail < 0 || tail < head || (tail == head && head != start && tail != end)) {
      return tokenizer.count(text.substring(start, end));
    }
    return (head == start ? 0 : tokenizer.count(text.substring(start, head))) + (tokensBefore(tail) - tokensBefore(head))
        + (tail == end ? 0 : tokenizer.count(text.substring(tail, end)));
  }

  /**
   * A number no smaller than {@link #count}, cheaply: the whole-text tokens between the span's first
   * and last boundary plus the UTF-8 bytes of its head and tail (no token is shorter than a byte).
   * Usually within a few tokens of the count; when it is at most a maximum, the span surely fits.
   */
  public int upperBound(int start, int end) {
    if (start >= end) return 0;
    if (tokenEnds == null) return count(start, end);
    int head = end - start < 16 ? -1 : firstBoundary(start + 1, Math.min(end, start + SEARCH));
    int tail = head < 0 ? -1 : lastBoundary(Math.max(head, end - SEARCH), end);
    if (tail < 0 || tail <= head) return utf8Length(start, end);
    return utf8Length(start, head) + (tokensBefore(tail) - tokensBefore(head)) + utf8Length(tail, end);
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
    if (tokenEnds == null) return count(start, end);
    return Math.max(1, tokensBefore(end) - tokensBefore(start));
  }

  /**
   * An offset in {@code (start, end]} near where {@code maxTokens} whole-text tokens from {@code
   * start} end, never inside a surrogate pair; the caller checks the exact count and corrects. Only
   * a first guess: {@link #count} is what is exact.
   */
  public int guessEnd(int start, int end, int maxTokens) {
    if (tokenEnds == null) return Math.min(end, start + 4 * maxTokens);
    // The last offset whose tokens-before stay within the target: just before token number target ends.
    long target = (long) tokensBefore(start) + maxTokens;
    int lo = target < tokenEnds.length ? tokenEnds[(int) target] - 1 : text.length();
    lo = Math.max(start + 1, Math.min(lo, end));
    if (lo < text.length() && lo > 0 && Character.isHighSurrogate(text.charAt(lo - 1))
        && Character.isLowSurrogate(text.charAt(lo))) {
      lo = lo - 1 > start ? lo - 1 : lo + 1;
    }
    return Math.min(lo, end);
  }

  private boolean isBoundary(int p) {
    return JTokkitTokenizer.isPieceBoundary(text, p);
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
