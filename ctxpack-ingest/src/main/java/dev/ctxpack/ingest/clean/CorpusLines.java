package dev.ctxpack.ingest.clean;

import dev.ctxpack.ingest.LoadedDocument;
import dev.ctxpack.text.TextNormalizer;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * How many documents of a corpus each short line occurs in: the statistics the corpus pass of
 * cleaning gathers before any document is cleaned. Only 64-bit hashes of line keys are kept, in an
 * open-addressing table of at most {@code maxKeys} entries, so memory is bounded (16 bytes a line
 * at most twice over) whatever the corpus size: when the table is full, the lines seen in the
 * fewest documents are forgotten (lossy counting), which can only under-count, never remove more.
 * A line counts once per document however often it occurs there. Thread-safe.
 */
public final class CorpusLines {
  /** About 50 MB of table at most. */
  public static final int DEFAULT_MAX_KEYS = 1 << 21;
  private final CleanOptions options;
  private final int maxKeys;
  private long[] keys = new long[1 << 12];
  private int[] counts = new int[1 << 12];
  private int size;
  private int documents;

  public CorpusLines(CleanOptions options) {
    this(options, DEFAULT_MAX_KEYS);
  }

  public CorpusLines(CleanOptions options, int maxKeys) {
    this.options = Objects.requireNonNull(options, "options");
    if (maxKeys < 16) throw new IllegalArgumentException("maxKeys must be >= 16, was " + maxKeys);
    this.maxKeys = maxKeys;
  }

  /** Counts the distinct short lines of one document. */
  public void add(LoadedDocument doc) {
    Set<Long> distinct = keysOf(doc.text());
    synchronized (this) {
      documents++;
      for (long k : distinct) increment(k);
    }
  }

  /** The distinct line hashes of a text that repetition could remove (outside fenced code). */
  Set<Long> keysOf(String text) {
    String t = TextNormalizer.storageForm(text);
    Set<Long> distinct = new HashSet<>();
    boolean fenced = false;
    int pos = 0;
    while (pos <= t.length()) {
      int nl = t.indexOf('\n', pos);
      int end = nl < 0 ? t.length() : nl;
      String raw = t.substring(pos, end);
      if (Lines.fence(raw)) {
        fenced = !fenced;
      } else if (!fenced && end - pos <= 4 * options.maxLineChars()) {
        String key = Lines.key(raw);
        if (Lines.repeatable(raw, key, options.maxLineChars())) distinct.add(Lines.hash(key));
      }
      if (nl < 0) break;
      pos = nl + 1;
    }
    return distinct;
  }

  public synchronized int documents() {
    return documents;
  }

  /** Whether enough documents were counted for any line to be judged across the corpus. */
  public synchronized boolean active() {
    return documents >= options.repeatedMinCorpus();
  }

  /** Documents a line must occur in to be corpus boilerplate. */
  public synchronized int threshold() {
    return Math.max(options.repeatedMinDocs(), (int) Math.ceil(options.repeatedMinShare() * documents));
  }

  /** Whether the line with key {@code key} (see {@link Lines#key}) is corpus boilerplate. */
  synchronized boolean frequent(String key) {
    return active() && count(Lines.hash(key)) >= threshold();
  }

  /** How many distinct lines are corpus boilerplate now. */
  public synchronized int frequentLines() {
    if (!active()) return 0;
    int t = threshold();
    int n = 0;
    for (int i = 0; i < keys.length; i++) if (keys[i] != 0 && counts[i] >= t) n++;
    return n;
  }

  private int count(long hash) {
    long k = hash == 0 ? 1 : hash;
    int mask = keys.length - 1;
    for (int i = (int) (k ^ (k >>> 32)) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == 0) return 0;
      if (keys[i] == k) return counts[i];
    }
  }

  private void increment(long hash) {
    long k = hash == 0 ? 1 : hash;
    int mask = keys.length - 1;
    for (int i = (int) (k ^ (k >>> 32)) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == k) {
        counts[i]++;
        return;
      }
      if (keys[i] == 0) {
        keys[i] = k;
        counts[i] = 1;
        size++;
        if (size * 2 > keys.length) grow();
        return;
      }
    }
  }

  /** Doubles the table, or when it holds {@code maxKeys} lines forgets the rarest until half are left. */
  private void grow() {
    long[] oldKeys = keys;
    int[] oldCounts = counts;
    int capacity = keys.length;
    int below = 0;
    if (size >= maxKeys) {
      while (size > maxKeys / 2) {
        below++;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) if (oldKeys[i] != 0 && oldCounts[i] > below) size++;
      }
    } else {
      capacity *= 2;
    }
    keys = new long[capacity];
    counts = new int[capacity];
    size = 0;
    int mask = capacity - 1;
    for (int j = 0; j < oldKeys.length; j++) {
      long k = oldKeys[j];
      if (k == 0 || oldCounts[j] <= below) continue;
      int i = (int) (k ^ (k >>> 32)) & mask;
      while (keys[i] != 0) i = (i + 1) & mask;
      keys[i] = k;
      counts[i] = oldCounts[j];
      size++;
    }
  }
}
