package dev.ctxpack.token;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingResult;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;

/** A {@link Tokenizer} backed by JTokkit, exact for OpenAI's BPE encodings. */
public final class JTokkitTokenizer implements Tokenizer {
  private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

  private final Encoding encoding;
  /** Byte length by token id, filled lazily (0 = not yet known; no token is empty). */
  private final int[] byteLengths = new int[1 << 18];

  private JTokkitTokenizer(Encoding encoding) {
    this.encoding = encoding;
  }

  public static JTokkitTokenizer of(EncodingType type) {
    return new JTokkitTokenizer(REGISTRY.getEncoding(type));
  }

  @Override
  public String name() {
    return encoding.getName();
  }

  /**
   * The ordinary encoding's token count. A plain space after a word, number or punctuation is a
   * piece boundary of the BPE pre-tokenizer ({@link #isPieceBoundary}), so the count is the sum of
   * the counts of the segments between such boundaries; the short ones, mostly one word with its
   * leading space, are encoded once and remembered. Exact: the same number as encoding the whole
   * text.
   */
  @Override
  public int count(String text) {
    int n = text.length();
    if (n == 0) return 0;
    int total = 0;
    int from = 0;
    int hash = text.charAt(0); // String.hashCode of text[from, p), kept as p moves on
    for (int p = 1; p <= n; p++) {
      char c = p < n ? text.charAt(p) : 0;
      if (p < n && !isPieceBoundary(text, p, c)) {
        hash = 31 * hash + c;
        continue;
      }
      if (p - from > CACHED_SEGMENT_CHARS) {
        total += encoding.countTokensOrdinary(text.substring(from, p));
      } else {
        int known = counts.get(text, from, p, hash); // no substring for a segment seen before
        if (known < 0) {
          encodedSegments.increment();
          known = encoding.countTokensOrdinary(text.substring(from, p));
          counts.put(text, from, p, hash, known);
        }
        total += known;
      }
      from = p;
      hash = c;
    }
    return total;
  }

  /** The counts of the short segments {@link #count} has met (its own table: counts only). */
  private final SegmentCounts counts = new SegmentCounts();

  @Override
  public Truncation truncate(String text, int maxTokens) {
    if (maxTokens < 0) throw new IllegalArgumentException("maxTokens must be >= 0, was " + maxTokens);
    if (text.isEmpty()) return new Truncation("", 0, false);
    if (maxTokens == 0) return new Truncation("", 0, true);
    EncodingResult r = encoding.encodeOrdinary(text, maxTokens);
    if (!r.isTruncated()) return new Truncation(text, r.getTokens().size(), false);
    int end = Math.min(text.length(), Math.max(0, r.getLastProcessedCharacterIndex() + 1));
    // The encoder reports where it stopped; re-tokenizing a prefix can merge differently, so verify.
    while (end > 0) {
      if (end < text.length()
          && Character.isHighSurrogate(text.charAt(end - 1))
          && Character.isLowSurrogate(text.charAt(end))) {
        end--;
        continue;
      }
      String prefix = text.substring(0, end);
      int n = count(prefix);
      if (n <= maxTokens) return new Truncation(prefix, n, true);
      end--;
    }
    return new Truncation("", 0, true);
  }

  /**
   * The UTF-8 byte length of each token of {@code text}'s ordinary encoding, in order; their sum is
   * the byte length of {@code text} (a lone surrogate counting as the one byte of {@code '?'}).
   */
  int[] tokenByteLengths(String text) {
    // A plain space after a word, number or punctuation is a piece boundary of the BPE pre-tokenizer
    // (isPieceBoundary), so the text is encoded segment by segment between such boundaries, and the
    // segments, mostly single words with their leading space, are encoded once and remembered.
    int n = text.length();
    int[] out = new int[Math.max(16, n / 3)];
    int size = 0;
    int from = 0;
    for (int p = 1; p <= n; p++) {
      if (p < n && !isPieceBoundary(text, p)) continue;
      int[] lengths = segmentByteLengths(text, from, p);
      if (size + lengths.length > out.length) out = java.util.Arrays.copyOf(out, Math.max(out.length * 2, size + lengths.length));
      System.arraycopy(lengths, 0, out, size, lengths.length);
      size += lengths.length;
      from = p;
    }
    return java.util.Arrays.copyOf(out, size);
  }

  /**
   * Whether {@code p} is a piece boundary of the GPT-style pre-tokenizer (o200k and cl100k) in any
   * text: a plain space at {@code p} after a letter, a digit or printable ASCII punctuation at {@code
   * p - 1}. No piece of their expressions holds such a pair: a word piece may begin with one
   * non-letter (a space among them) but never ends in a space, a number or punctuation piece never
   * takes a following space, and the whitespace pieces hold only whitespace. The expressions look
   * ahead but never behind, so the pieces after {@code p} do not depend on the text before it.
   * Characters Unicode counts as spaces (no-break, ideographic) are left out: a run of them with the
   * space is one whitespace piece.
   */
  static boolean isPieceBoundary(String text, int p) {
    return p > 0 && p < text.length() && isPieceBoundary(text, p, text.charAt(p));
  }

  /** {@link #isPieceBoundary(String, int)} for {@code 0 < p < text.length()}, {@code at} being {@code text.charAt(p)}. */
  private static boolean isPieceBoundary(String text, int p, char at) {
    if (at != ' ') return false;
    char c = text.charAt(p - 1);
    return (c > ' ' && c < 0x7F) || Character.isLetterOrDigit(c);
  }

  /** Segments longer than this are encoded without being remembered. */
  private static final int CACHED_SEGMENT_CHARS = 48;
  /** The segment cache is emptied when it holds this many segments, so it stays under about 20 MB. */
  private static final int CACHED_SEGMENTS = 1 << 17;
  private final java.util.concurrent.ConcurrentHashMap<String, int[]> segments = new java.util.concurrent.ConcurrentHashMap<>();

  private int[] segmentByteLengths(String text, int from, int to) {
    String segment = text.substring(from, to);
    boolean cacheable = to - from <= CACHED_SEGMENT_CHARS;
    if (cacheable) {
      int[] known = segments.get(segment);
      if (known != null) return known;
    }
    return encodeSegment(segment, cacheable);
  }

  /** How many segments were encoded rather than found among the remembered ones (for tests). */
  private final java.util.concurrent.atomic.LongAdder encodedSegments = new java.util.concurrent.atomic.LongAdder();

  /** The byte length of each token of {@code segment}, remembered when {@code remember}. */
  private int[] encodeSegment(String segment, boolean remember) {
    encodedSegments.increment();
    IntArrayList ids = encoding.encodeOrdinary(segment);
    int[] lengths = new int[ids.size()];
    for (int i = 0; i < lengths.length; i++) lengths[i] = byteLength(ids.get(i));
    if (remember) {
      if (segments.size() >= CACHED_SEGMENTS) segments.clear();
      segments.put(segment, lengths);
    }
    return lengths;
  }


  /** How many segments this tokenizer has encoded rather than found remembered. */
  long encodedSegments() {
    return encodedSegments.sum();
  }

  /** Forgets the remembered segment encodings (for measurements that must start cold). */
  void clearSegmentCache() {
    segments.clear();
    counts.clear();
  }

  private int byteLength(int id) {
    if (id >= 0 && id < byteLengths.length) {
      int n = byteLengths[id];
      if (n == 0) {
        n = decodedLength(id);
        byteLengths[id] = n; // racy but idempotent: every thread writes the same value
      }
      return n;
    }
    return decodedLength(id);
  }

  private int decodedLength(int id) {
    IntArrayList one = new IntArrayList(1);
    one.add(id);
    return encoding.decodeBytes(one).length;
  }

  @Override
  public String toString() {
    return "JTokkitTokenizer[" + name() + "]";
  }
}
