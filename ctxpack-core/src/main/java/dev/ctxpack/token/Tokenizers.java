package dev.ctxpack.token;

import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;
import java.util.Locale;

/** The tokenizers ctxpack ships, by name. The default is {@code o200k_base}. */
public final class Tokenizers {
  public static final String DEFAULT = "o200k_base";
  private static final Tokenizer O200K = JTokkitTokenizer.of(EncodingType.O200K_BASE);
  private static final Tokenizer CL100K = JTokkitTokenizer.of(EncodingType.CL100K_BASE);

  private Tokenizers() {}

  public static Tokenizer defaultTokenizer() {
    return O200K;
  }

  /** {@code o200k_base} or {@code cl100k_base}; anything else is rejected with the names accepted. */
  public static Tokenizer byName(String name) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "o200k_base", "o200k" -> O200K;
      case "cl100k_base", "cl100k" -> CL100K;
      default -> throw new IllegalArgumentException(
          "unknown tokenizer '" + name + "': use one of " + names());
    };
  }

  /**
   * Forgets what the shipped tokenizers remember between texts (the encodings of short segments that
   * {@link EncodedText} reuses): for measurements that must see a cold start. Counts never change.
   */
  public static void clearCaches() {
    ((JTokkitTokenizer) O200K).clearSegmentCache();
    ((JTokkitTokenizer) CL100K).clearSegmentCache();
  }

  public static List<String> names() {
    return List.of("o200k_base", "cl100k_base");
  }
}
