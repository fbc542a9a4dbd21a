package dev.ctxpack.token;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingResult;
import com.knuddels.jtokkit.api.EncodingType;

/** A {@link Tokenizer} backed by JTokkit, exact for OpenAI's BPE encodings. */
public final class JTokkitTokenizer implements Tokenizer {
  private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

  private final Encoding encoding;

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

  @Override
  public String toString() {
    return "JTokkitTokenizer[" + name() + "]";
  }
}
