package dev.ctxpack.similarity;

import java.util.Arrays;

/**
 * Locality-sensitive hashing over {@link MinHasher} signatures: each signature is cut into {@code
 * bands} bands of {@code rows} positions, and two items become candidates when all positions of at
 * least one band agree. Two items of Jaccard similarity {@code J} are candidates with probability
 * {@code 1 - (1 - J^rows)^bands}; with the default 16 bands of 8 rows that is 0.95 at J = 0.8, 0.99
 * at 0.85 and 0.06 at 0.5. Candidates are then checked against a compact copy of each signature
 * (the low 8 bits of every position, corrected for chance agreement of 1/256), so {@link #query}
 * returns only items estimated at or above a similarity.
 *
 * <p>Memory is primitive arrays only, {@code 8·bands + hashes} bytes per item plus the bands'
 * open-addressing tables (two to four ints per distinct band key): about 400 bytes per item with
 * the defaults (407 MB for a million chunks, docs/BENCHMARKS.md). Items are numbered from 0 in the order they are added. Not thread-safe;
 * the same additions in the same order give the same answers.
 */
public final class LshIndex {
  /** Bands by default. */
  public static final int DEFAULT_BANDS = 16;
  /** Rows (signature positions) per band by default. */
  public static final int DEFAULT_ROWS = 8;

  private final int bands;
  private final int rows;
  private final int hashes;
  private int size;
  /** Band key of item i, band j at {@code i * bands + j}. */
  private int[] keys;
  /** Next item with the same key in the band, +1 (0 ends the chain), at {@code i * bands + j}. */
  private int[] next;
  /** The low 8 bits of each signature position of item i at {@code i * hashes + p}. */
  private byte[] sketches;
  /** Per band: open-addressing table of chain heads (item + 1; 0 is empty). */
  private int[][] heads;
  private int[] distinct;
  /** Marks items already reported in one query (query number), so each is checked once. */
  private int[] seenAt;
  private int queryNo;

  public LshIndex(int bands, int rows, int hashes) {
    if (bands < 1) throw new IllegalArgumentException("bands must be >= 1, was " + bands);
    if (rows < 1) throw new IllegalArgumentException("rows must be >= 1, was " + rows);
    if ((long) bands * rows > hashes) {
      throw new IllegalArgumentException("bands x rows (" + bands + " x " + rows + ") exceeds the signature's " + hashes + " positions");
    }
    this.bands = bands;
    this.rows = rows;
    this.hashes = hashes;
    int cap = 16;
    this.keys = new int[cap * bands];
    this.next = new int[cap * bands];
    this.sketches = new byte[cap * hashes];
    this.seenAt = new int[cap];
    this.heads = new int[bands][64];
    this.distinct = new int[bands];
  }

  /** {@value #DEFAULT_BANDS} bands of {@value #DEFAULT_ROWS} rows over signatures of {@code hasher}. */
  public static LshIndex forHasher(MinHasher hasher) {
    return new LshIndex(DEFAULT_BANDS, DEFAULT_ROWS, hasher.hashes());
  }

  public int size() {
    return size;
  }

  /** The similarity above which two items are candidates with probability one half: about {@code (1/bands)^(1/rows)}. */
  public double threshold() {
    return Math.pow(1.0 / bands, 1.0 / rows);
  }

  /** Adds a signature; returns its item number. */
  public int add(int[] signature) {
    check(signature);
    if (size == seenAt.length) grow();
    int id = size++;
    for (int p = 0; p < hashes; p++) sketches[id * hashes + p] = (byte) signature[p];
    for (int j = 0; j < bands; j++) {
      int key = bandKey(signature, j);
      keys[id * bands + j] = key;
      int[] table = heads[j];
      int slot = find(table, j, key);
      if (table[slot] == 0) {
        table[slot] = id + 1;
        next[id * bands + j] = 0;
        if (++distinct[j] * 2 > table.length) heads[j] = rehash(table, j);
      } else {
        next[id * bands + j] = table[slot];
        table[slot] = id + 1;
      }
    }
    return id;
  }

  /**
   * Items sharing at least one band with {@code signature} whose estimated similarity is at least
   * {@code minSimilarity}, in increasing item order.
   */
  public int[] query(int[] signature, double minSimilarity) {
    check(signature);
    byte[] sketch = new byte[hashes];
    for (int p = 0; p < hashes; p++) sketch[p] = (byte) signature[p];
    int qn = ++queryNo;
    if (qn == Integer.MAX_VALUE) {
      Arrays.fill(seenAt, 0);
      queryNo = qn = 1;
    }
    int[] out = new int[8];
    int n = 0;
    for (int j = 0; j < bands; j++) {
      int key = bandKey(signature, j);
      int[] table = heads[j];
      int slot = find(table, j, key);
      for (int e = table[slot]; e != 0; e = next[(e - 1) * bands + j]) {
        int item = e - 1;
        if (seenAt[item] == qn) continue;
        seenAt[item] = qn;
        if (similarity(item, sketch) >= minSimilarity) {
          if (n == out.length) out = Arrays.copyOf(out, n * 2);
          out[n++] = item;
        }
      }
    }
    int[] r = Arrays.copyOf(out, n);
    Arrays.sort(r);
    return r;
  }

  /** The similarity of item {@code item} and a signature, estimated from the item's 8-bit sketch. */
  public double similarity(int item, int[] signature) {
    byte[] sketch = new byte[hashes];
    for (int p = 0; p < hashes; p++) sketch[p] = (byte) signature[p];
    return similarity(item, sketch);
  }

  /** The similarity of two items, estimated from their sketches. */
  public double similarity(int x, int y) {
    int same = 0;
    for (int p = 0; p < hashes; p++) if (sketches[x * hashes + p] == sketches[y * hashes + p]) same++;
    return corrected(same);
  }

  private double similarity(int item, byte[] sketch) {
    int same = 0;
    int base = item * hashes;
    for (int p = 0; p < hashes; p++) if (sketches[base + p] == sketch[p]) same++;
    return corrected(same);
  }

  /** Two unrelated positions agree on their low 8 bits one time in 256: remove that from the rate. */
  private double corrected(int same) {
    double rate = same / (double) hashes;
    return Math.max(0, (rate - 1 / 256.0) / (1 - 1 / 256.0));
  }

  /** The key of band {@code j} of a signature: a 32-bit mix of its {@code rows} positions. */
  public int bandKey(int[] signature, int j) {
    long h = 0x9E3779B97F4A7C15L * (j + 1);
    for (int p = j * rows, end = p + rows; p < end; p++) h = MinHasher.mix(h ^ (signature[p] & 0xFFFFFFFFL));
    return (int) (h ^ (h >>> 32));
  }

  /** The slot of {@code key} in band {@code j}'s table: its chain head, or the empty slot where it goes. */
  private int find(int[] table, int j, int key) {
    int mask = table.length - 1;
    int slot = spread(key) & mask;
    while (table[slot] != 0 && keys[(table[slot] - 1) * bands + j] != key) slot = (slot + 1) & mask;
    return slot;
  }

  private static int spread(int key) {
    int h = key * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  private int[] rehash(int[] old, int j) {
    int[] table = new int[old.length * 2];
    int mask = table.length - 1;
    for (int head : old) {
      if (head == 0) continue;
      int key = keys[(head - 1) * bands + j];
      int slot = spread(key) & mask;
      while (table[slot] != 0) slot = (slot + 1) & mask;
      table[slot] = head;
    }
    return table;
  }

  private void grow() {
    int cap = seenAt.length * 2;
    keys = Arrays.copyOf(keys, cap * bands);
    next = Arrays.copyOf(next, cap * bands);
    sketches = Arrays.copyOf(sketches, cap * hashes);
    seenAt = Arrays.copyOf(seenAt, cap);
  }

  private void check(int[] signature) {
    if (signature.length != hashes) {
      throw new IllegalArgumentException("signature of " + signature.length + " positions, this index takes " + hashes);
    }
  }

  /** The bytes held by the arrays (what {@code 1M} items cost is in docs/BENCHMARKS.md). */
  public long bytes() {
    long b = 4L * keys.length + 4L * next.length + sketches.length + 4L * seenAt.length;
    for (int[] t : heads) b += 4L * t.length;
    return b;
  }
}
