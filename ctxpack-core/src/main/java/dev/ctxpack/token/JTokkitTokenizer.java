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

  @Override
  public int count(String text) {
    return text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
  }

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
    IntArrayList ids = encoding.encodeOrdinary(text);
    int[] out = new int[ids.size()];
    for (int i = 0; i < out.length; i++) out[i] = byteLength(ids.get(i));
    return out;
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
