package dev.ctxpack.text;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What was computed for a text, remembered by the text's content and bounded by the characters of
 * the texts it holds: when one more would pass {@code maxChars}, the memory is emptied and starts
 * again (cheaper than keeping an order of use, and a working set that fits is kept whole). The
 * memory belongs to its owner: whoever holds the instance sees what it reveals about the texts
 * read before. Thread-safe; a value computed twice by two threads at once is kept once.
 *
 * @param <V> what is remembered of a text (immutable, since every caller gets the same instance)
 */
public final class TextMemory<V> {
  private final long maxChars;
  private final ConcurrentHashMap<String, V> values = new ConcurrentHashMap<>();
  private final AtomicLong chars = new AtomicLong();

  /** A memory of at most {@code maxChars} characters of texts in all. */
  public TextMemory(long maxChars) {
    if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be > 0, was " + maxChars);
    this.maxChars = maxChars;
  }

  /** What is remembered of {@code text}, or null. */
  public V get(String text) {
    return values.get(text);
  }

  /** Remembers {@code value} for {@code text}, emptying the memory first when {@code text} would pass its bound. */
  public void put(String text, V value) {
    int n = text.length();
    if (chars.get() + n > maxChars) {
      values.clear();
      chars.set(0);
    }
    if (values.putIfAbsent(text, value) == null) chars.addAndGet(n);
  }

  /** How many texts are remembered now. */
  public int size() {
    return values.size();
  }
}
