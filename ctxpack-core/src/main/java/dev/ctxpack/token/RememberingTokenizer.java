package dev.ctxpack.token;

import dev.ctxpack.text.TextMemory;
import java.util.Objects;

/**
 * A tokenizer that counts each whole text once and remembers its count by content: a pack counts
 * the same passage, block and sentence texts several times (a candidate's guarded block for
 * selection, its text and sentences for compression, the summary), and a service the same popular
 * chunks request after request; an assembler the same tool schemas and history turns turn after
 * turn. Counts are the delegate's, exactly; {@link #truncate} is the delegate's.
 *
 * <p>The memory belongs to this instance, so whoever owns it owns what it reveals: each packer
 * built by {@link dev.ctxpack.pack.PackStages.Builder} has its own, and so each collection of
 * {@code ctxpack serve} (a tenant's request is never faster because another tenant counted the
 * same text). Bounded: texts shorter than {@value #MIN_CHARS} characters (the look-up would cost
 * about as much) or longer than {@value #MAX_TEXT_CHARS} are counted directly, and the memory is
 * emptied when the texts it holds would pass its character limit. Thread-safe if the delegate is.
 *
 * <pre>{@code
 * Tokenizer tok = new RememberingTokenizer(Tokenizers.defaultTokenizer(), 4_000_000);
 * }</pre>
 */
public final class RememberingTokenizer implements Tokenizer {
  /** Shorter texts are counted directly. */
  public static final int MIN_CHARS = 32;
  /** Longer texts are counted directly (one of them would crowd out thousands of sentences). */
  public static final int MAX_TEXT_CHARS = 65_536;

  private final Tokenizer delegate;
  private final TextMemory<Integer> counts;

  /** Remembers the counts of {@code delegate} for texts holding at most {@code maxChars} characters in all. */
  public RememberingTokenizer(Tokenizer delegate, long maxChars) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    if (maxChars < MAX_TEXT_CHARS) throw new IllegalArgumentException("maxChars must be >= " + MAX_TEXT_CHARS + ", was " + maxChars);
    this.counts = new TextMemory<>(maxChars);
  }

  /** The tokenizer whose counts this one remembers. */
  public Tokenizer delegate() {
    return delegate;
  }

  /** How many texts' counts this tokenizer holds now. */
  public int rememberedTexts() {
    return counts.size();
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public int count(String text) {
    int n = text.length();
    if (n < MIN_CHARS || n > MAX_TEXT_CHARS) return delegate.count(text);
    Integer c = counts.get(text);
    if (c != null) return c;
    int count = delegate.count(text);
    counts.put(text, count);
    return count;
  }

  @Override
  public Truncation truncate(String text, int maxTokens) {
    return delegate.truncate(text, maxTokens);
  }
}
