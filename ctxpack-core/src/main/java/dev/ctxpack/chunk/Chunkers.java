package dev.ctxpack.chunk;

import dev.ctxpack.token.Tokenizer;
import java.util.List;
import java.util.Locale;

/** Chunkers by name, as the CLI's {@code --chunker} takes them. */
public final class Chunkers {
  private Chunkers() {}

  public static List<String> names() {
    return List.of("token", "sentence");
  }

  public static Chunker byName(String name, Tokenizer tokenizer, int maxTokens, double overlap) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "token", "fixed", "fixed-token" -> new TokenChunker(tokenizer, maxTokens, overlap);
      case "sentence" -> new SentenceChunker(tokenizer, maxTokens);
      default -> throw new IllegalArgumentException(
          "unknown chunker '" + name + "': use one of " + names());
    };
  }
}
