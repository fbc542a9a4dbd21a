package dev.ctxpack.dedup;

import java.util.Arrays;

/**
 * Which kept passages hold a shingle: an open-addressing table of shingle hashes, each with a
 * chain of (passage) entries, in primitive arrays so that counting shared shingles allocates
 * nothing per shingle.
 */
final class ShingleIndex {
  private long[] keys;
  private int[] heads; // entry index + 1; 0 = empty slot
  private int used;
  private int[] entryPassage;
  private int[] entryNext; // entry index + 1; 0 = end
  private int entries;

  ShingleIndex() {
    this(512);
  }

  /** Sized for about {@code expected} shingles, so that adding them grows nothing. */
  ShingleIndex(int expected) {
    int entriesCap = Math.max(512, expected);
    int slots = Integer.highestOneBit(Math.max(1024, 2 * entriesCap) - 1) << 1; // at most half full
    keys = new long[slots];
    heads = new int[slots];
    entryPassage = new int[entriesCap];
    entryNext = new int[entriesCap];
  }

  void add(long[] shingles, int passage) {
    for (long s : shingles) {
      if ((used + 1) * 2 > keys.length) grow();
      int slot = slot(keys, heads, s);
      if (heads[slot] == 0) {
        keys[slot] = s;
        used++;
      }
      if (entries == entryPassage.length) {
        entryPassage = Arrays.copyOf(entryPassage, entries * 2);
        entryNext = Arrays.copyOf(entryNext, entries * 2);
      }
      entryPassage[entries] = passage;
      entryNext[entries] = heads[slot];
      heads[slot] = ++entries;
    }
  }

  /** Adds to {@code counts[p]} the number of {@code shingles} passage {@code p} holds. */
  void count(long[] shingles, int[] counts) {
    for (long s : shingles) {
      int slot = slot(keys, heads, s);
      for (int e = heads[slot]; e != 0; e = entryNext[e - 1]) counts[entryPassage[e - 1]]++;
    }
  }

  private static int slot(long[] keys, int[] heads, long s) {
    int mask = keys.length - 1;
    int i = (int) (s ^ (s >>> 32)) & mask;
    while (heads[i] != 0 && keys[i] != s) i = (i + 1) & mask;
    return i;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldHeads = heads;
    keys = new long[oldKeys.length * 2];
    heads = new int[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldHeads[i] == 0) continue;
      int slot = slot(keys, heads, oldKeys[i]);
      keys[slot] = oldKeys[i];
      heads[slot] = oldHeads[i];
    }
  }
}
