package dev.ctxpack.token;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The token counts of short text segments, by their characters, for {@link JTokkitTokenizer#count}:
 * an open-addressing table in two flat arrays, so a look-up reads one slot (the segment's hash,
 * length and count, and its characters when they fit in 8 bytes, else where they are) and, for a
 * longer segment, the characters themselves, where a map would
 * read a node, a key object, the key's array and a value object, each a likely cache miss in a table
 * of a hundred thousand segments. A segment is found only when its characters equal the region asked
 * for, so counts are exact.
 *
 * <p>Thread-safe: look-ups take no lock; an insert takes the table's lock, writes the characters and
 * the slot's position, then publishes the slot's first word with a release store, which a look-up
 * reads with an acquire load. The table grows by doubling up to {@link #MAX_SEGMENTS} segments (or
 * {@link #MAX_CHARS} characters) and is then replaced by an empty one; a look-up that still holds an
 * old table reads it safely, as nothing in it is ever overwritten.
 */
final class SegmentCounts {
  /** The most segments held before the table starts again empty (as the map it replaces). */
  static final int MAX_SEGMENTS = 1 << 17;
  /** The most characters held before the table starts again empty. */
  static final int MAX_CHARS = MAX_SEGMENTS * 16;
  /** The longest segment held. */
  static final int MAX_LENGTH = 0x7FFF;
  /** Set in a slot's length field when the segment's characters are in the slot itself ({@link #inline}). */
  private static final int INLINE = 0x8000;

  private static final int FIRST_SLOTS = 1 << 12;
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  /** One generation: slot {@code i} is {@code slots[2i]} (hash, length, count + 1; 0 when empty) and {@code slots[2i + 1]} (offset). */
  private static final class Table {
    final long[] slots;
    final int mask;
    final char[] chars;
    int used; // characters written, guarded by this
    int size; // segments held, guarded by this

    Table(int slotCount, char[] chars) {
      this.slots = new long[2 * slotCount];
      this.mask = slotCount - 1;
      this.chars = chars;
    }
  }

  private volatile Table table = new Table(FIRST_SLOTS, new char[FIRST_SLOTS * 4]);

  /** The count remembered for {@code text[from, to)}, whose {@link String#hashCode} is {@code hash}; -1 when none is. */
  int get(String text, int from, int to, int hash) {
    Table t = table;
    int length = to - from;
    boolean inline = inline(text, from, length);
    int key = inline ? length | INLINE : length;
    long packed = inline ? packed(text, from, length) : 0;
    long[] slots = t.slots;
    for (int i = start(hash, t.mask); ; i = (i + 1) & t.mask) {
      long head = (long) LONGS.getAcquire(slots, 2 * i);
      if (head == 0) return -1;
      if ((int) (head >>> 32) == hash && ((int) head >>> 16) == key
          && (inline ? slots[2 * i + 1] == packed : same(t.chars, (int) slots[2 * i + 1], text, from, length))) {
        return ((int) head & 0xFFFF) - 1;
      }
    }
  }

  /** Remembers {@code count} for {@code text[from, to)}, whose {@link String#hashCode} is {@code hash}. */
  void put(String text, int from, int to, int hash, int count) {
    int length = to - from;
    if (length > MAX_LENGTH || count < 0 || count >= 0xFFFF) return;
    boolean inline = inline(text, from, length);
    int key = inline ? length | INLINE : length;
    long packed = inline ? packed(text, from, length) : 0;
    synchronized (this) {
      Table t = table;
      if (2 * (t.size + 1) > t.mask + 1 || (!inline && t.used + length > t.chars.length)) {
        t = grown(t, inline ? 0 : length);
        table = t;
      }
      for (int i = start(hash, t.mask); ; i = (i + 1) & t.mask) {
        long head = t.slots[2 * i];
        if (head == 0) {
          if (inline) {
            t.slots[2 * i + 1] = packed;
          } else {
            text.getChars(from, to, t.chars, t.used);
            t.slots[2 * i + 1] = t.used;
            t.used += length;
          }
          LONGS.setRelease(t.slots, 2 * i, head(hash, key, count));
          t.size++;
          return;
        }
        if ((int) (head >>> 32) == hash && ((int) head >>> 16) == key
            && (inline ? t.slots[2 * i + 1] == packed : same(t.chars, (int) t.slots[2 * i + 1], text, from, length))) {
          return; // another thread put it first
        }
      }
    }
  }

  /**
   * Whether a segment is held in its slot instead of among the characters: at most 8 characters,
   * each at most U+00FF (most words with their leading space), one byte each in the slot's second word.
   */
  private static boolean inline(String text, int from, int length) {
    if (length > 8) return false;
    for (int k = 0; k < length; k++) if (text.charAt(from + k) > 0xFF) return false;
    return true;
  }

  /** The characters of an {@link #inline} segment, one byte each, the first in the lowest byte. */
  private static long packed(String text, int from, int length) {
    long v = 0;
    for (int k = length - 1; k >= 0; k--) v = (v << 8) | text.charAt(from + k);
    return v;
  }

  /** How many segments the table holds now. */
  synchronized int size() {
    return table.size;
  }

  /** Forgets every segment. */
  synchronized void clear() {
    table = new Table(FIRST_SLOTS, new char[FIRST_SLOTS * 4]);
  }

  /** A table with room for one more segment of {@code length}: {@code t} doubled, or an empty one once at the bounds. */
  private static Table grown(Table t, int length) {
    int slotCount = t.mask + 1;
    boolean fewSlots = 2 * (t.size + 1) > slotCount;
    if ((fewSlots && slotCount >= 2 * MAX_SEGMENTS) || t.used + length > MAX_CHARS) {
      return new Table(FIRST_SLOTS, new char[Math.max(FIRST_SLOTS * 4, length)]);
    }
    int chars = t.chars.length;
    while (t.used + length > chars) chars *= 2;
    Table g = new Table(fewSlots ? 2 * slotCount : slotCount, Arrays.copyOf(t.chars, Math.min(chars, MAX_CHARS)));
    for (int s = 0; s < slotCount; s++) {
      long head = t.slots[2 * s];
      if (head == 0) continue;
      for (int i = start((int) (head >>> 32), g.mask); ; i = (i + 1) & g.mask) {
        if (g.slots[2 * i] == 0) {
          g.slots[2 * i] = head;
          g.slots[2 * i + 1] = t.slots[2 * s + 1];
          break;
        }
      }
    }
    g.used = t.used;
    g.size = t.size;
    return g;
  }

  private static long head(int hash, int key, int count) {
    return ((long) hash << 32) | ((long) key << 16) | (count + 1);
  }

  /** The first slot to probe: the hash's bits spread, as String hashes of short words cluster. */
  private static int start(int hash, int mask) {
    int h = hash * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  private static boolean same(char[] chars, int offset, String text, int from, int length) {
    for (int k = 0; k < length; k++) {
      if (chars[offset + k] != text.charAt(from + k)) return false;
    }
    return true;
  }
}
