package dev.ctxpack.chunk;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.token.Tokenizer;
import java.util.List;
import java.util.Locale;

/** Chunkers by name, as the CLI's {@code --chunker} takes them. */
public final class Chunkers {
  private Chunkers() {}

  public static List<String> names() {
    return List.of("token", "recursive", "sentence", "sentence-window", "semantic", "passage");
  }

  /**
   * The chunker called {@code name}. {@code overlap} applies to {@code token} and {@code recursive};
   * {@code semantic} needs an embedder (see the other overload) and is refused here.
   */
  public static Chunker byName(String name, Tokenizer tokenizer, int maxTokens, double overlap) {
    return byName(name, tokenizer, maxTokens, overlap, null);
  }

  /** As above; {@code embedder} (may be null for the others) measures topic shifts for {@code semantic}. */
  public static Chunker byName(String name, Tokenizer tokenizer, int maxTokens, double overlap, Embedder embedder) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "token", "fixed", "fixed-token" -> new TokenChunker(tokenizer, maxTokens, overlap);
      case "recursive" -> new RecursiveChunker(tokenizer, maxTokens, overlap);
      case "sentence" -> new SentenceChunker(tokenizer, maxTokens);
      case "sentence-window" -> new SentenceWindowChunker(tokenizer, maxTokens, SentenceWindowChunker.DEFAULT_WINDOW);
      case "passage" -> new PassageChunker(tokenizer, maxTokens, PassageChunker.DEFAULT_WORDS);
      case "semantic" -> {
        if (embedder == null) {
          throw new IllegalArgumentException("chunker 'semantic' needs an embedder (it measures topic shifts)");
        }
        yield new SemanticChunker(tokenizer, embedder, maxTokens);
      }
      default -> throw new IllegalArgumentException(
          "unknown chunker '" + name + "': use one of " + names());
    };
  }
}
