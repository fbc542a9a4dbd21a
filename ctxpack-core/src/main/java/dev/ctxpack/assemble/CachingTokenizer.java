package dev.ctxpack.assemble;

import dev.ctxpack.token.Tokenizer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Remembers the counts of longer texts (tool schemas, history turns, examples) that come back
 * request after request, so a conversation's turns are counted once rather than at every turn.
 * Bounded: emptied when it holds {@value #MAX_ENTRIES} texts or {@value #MAX_CHARS} characters.
 * Counts are the delegate's, exactly.
 */
final class CachingTokenizer implements Tokenizer {
  static final int MAX_ENTRIES = 16_384;
  static final long MAX_CHARS = 8_000_000;
  /** Shorter texts are counted directly: the look-up would cost about as much. */
  static final int MIN_CHARS = 64;

  private final Tokenizer delegate;
  private final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
  private final AtomicLong chars = new AtomicLong();

  CachingTokenizer(Tokenizer delegate) {
    this.delegate = delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public int count(String text) {
    if (text.length() < MIN_CHARS) return delegate.count(text);
    Integer c = counts.get(text);
    if (c != null) return c;
    int n = delegate.count(text);
    if (counts.size() >= MAX_ENTRIES || chars.get() + text.length() > MAX_CHARS) {
      counts.clear();
      chars.set(0);
    }
    if (counts.putIfAbsent(text, n) == null) chars.addAndGet(text.length());
    return n;
  }

  @Override
  public Truncation truncate(String text, int maxTokens) {
    return delegate.truncate(text, maxTokens);
  }
}
