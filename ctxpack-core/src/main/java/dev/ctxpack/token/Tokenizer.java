package dev.ctxpack.token;

/**
 * Counts and cuts text in the tokens of one model family. Special-token text such as
 * {@code <|endoftext|>} is counted as the plain text it is, never as a control token: documents can
 * contain it and must not be able to end a prompt.
 *
 * <p>Implementations are thread-safe.
 */
public interface Tokenizer {

  /** The encoding name, e.g. {@code o200k_base}. */
  String name();

  /** Exact number of tokens of {@code text}. */
  int count(String text);

  /**
   * The longest prefix of {@code text} that fits in {@code maxTokens}, cut at a token boundary and
   * never inside a surrogate pair. {@code maxTokens} must be >= 0.
   */
  Truncation truncate(String text, int maxTokens);

  /** The outcome of {@link #truncate}: the kept prefix, its exact token count, and where it stopped. */
  record Truncation(String text, int tokens, boolean truncated) {
    /** The char offset in the input where the kept prefix ends. */
    public int end() {
      return text.length();
    }
  }
}
