package dev.ctxpack.ingest;

import dev.ctxpack.embed.Embedder;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The vectors of one file's texts to embed (its chunks' windows and sentences), and why a text has
 * none. A text gets no vector, and its chunk stays searchable by BM25 alone, when:
 *
 * <ul>
 *   <li>{@link Missing#UNREADABLE}: the model cannot read it: fewer than {@link #MIN_READABLE_SHARE}
 *       of its word pieces are known to the model's tokenizer ({@link Embedder#readableShare}), as
 *       with a word over the tokenizer's word limit (a minified asset, a hash dump). Such texts are
 *       not sent to the model at all;
 *   <li>{@link Missing#REJECTED}: the model refused it (a text it reduces to nothing, such as
 *       zero-width characters only);
 *   <li>{@link Missing#SAME_VECTOR} (windows only): its vector equals, to four decimals in every
 *       component, the vector of another, earlier window text of the same file, so the model did not
 *       tell the two apart. The first keeps the vector and the others go without: identical vectors
 *       say nothing the first one does not, and many of them trap the approximate (HNSW) search of
 *       the vector graph among themselves. A sentence keeps such a vector (sentence vectors are not
 *       in the graph).
 * </ul>
 */
final class TextVectors {
  /** Texts with a smaller share of word pieces the model knows get no vector. */
  static final double MIN_READABLE_SHARE = 0.5;
  private static final int EMBED_BATCH = 256;
  private static final double KEY_SCALE = 1e4;

  /** Why a text has no vector; {@link #key} names the reason in the ingest summary. */
  enum Missing {
    UNREADABLE("unreadable"), REJECTED("rejected"), SAME_VECTOR("sameVector");

    final String key;

    Missing(String key) {
      this.key = key;
    }
  }

  private final List<float[]> vectors;
  private final Missing[] missing;

  private TextVectors(List<float[]> vectors, Missing[] missing) {
    this.vectors = vectors;
    this.missing = missing;
  }

  /**
   * Embeds {@code texts} in batches, in order, telling {@code progress} how many are done after
   * each; {@code windows} marks the texts embedded as windows (the others are sentences only).
   */
  static TextVectors embed(Embedder embedder, List<String> texts, BitSet windows, IntConsumer progress) {
    int n = texts.size();
    Missing[] missing = new Missing[n];
    double[] share = java.util.stream.IntStream.range(0, n).parallel()
        .mapToDouble(i -> embedder.readableShare(texts.get(i))).toArray();
    List<Integer> readable = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (share[i] < MIN_READABLE_SHARE) missing[i] = Missing.UNREADABLE;
      else readable.add(i);
    }
    List<float[]> vectors = new ArrayList<>(java.util.Collections.nCopies(n, (float[]) null));
    for (int from = 0; from < readable.size(); from += EMBED_BATCH) {
      List<Integer> batch = readable.subList(from, Math.min(readable.size(), from + EMBED_BATCH));
      List<float[]> got = Embedder.embedLeniently(embedder, batch.stream().map(texts::get).toList());
      for (int j = 0; j < batch.size(); j++) {
        int i = batch.get(j);
        vectors.set(i, got.get(j));
        if (got.get(j) == null) missing[i] = Missing.REJECTED;
      }
      progress.accept(n - readable.size() + from + batch.size());
    }
    if (readable.isEmpty()) progress.accept(n);
    Set<IntBuffer> seen = new HashSet<>();
    for (int i = windows.nextSetBit(0); i >= 0 && i < n; i = windows.nextSetBit(i + 1)) {
      float[] v = vectors.get(i);
      if (v != null && !seen.add(key(v))) missing[i] = Missing.SAME_VECTOR;
    }
    return new TextVectors(vectors, missing);
  }

  /** The vector of text {@code i} as a window, or null. */
  float[] window(int i) {
    return missing[i] == null ? vectors.get(i) : null;
  }

  /** The vector of text {@code i} as a sentence, or null. */
  float[] sentence(int i) {
    return vectors.get(i);
  }

  /** Why text {@code i} has no vector as a window; null when it has one. */
  Missing missing(int i) {
    return missing[i];
  }

  /**
   * Counts the chunks left with no vector at all (BM25 only), each under the reason of its first
   * window without one.
   */
  static final class Tally {
    private final java.util.Map<List<Integer>, Missing> lost = new java.util.HashMap<>();
    private final Set<List<Integer>> kept = new HashSet<>();

    /** Window of chunk {@code chunk} of document {@code doc} has a vector ({@code why} null) or not. */
    void window(int doc, int chunk, Missing why) {
      if (why == null) kept.add(List.of(doc, chunk));
      else lost.putIfAbsent(List.of(doc, chunk), why);
    }

    /** Adds the counts to {@code counts}, by {@link Missing#key}. */
    void addTo(java.util.Map<String, Integer> counts) {
      lost.forEach((chunk, why) -> {
        if (!kept.contains(chunk)) counts.merge(why.key, 1, Integer::sum);
      });
    }
  }

  private static IntBuffer key(float[] v) {
    int[] k = new int[v.length];
    for (int i = 0; i < v.length; i++) k[i] = (int) Math.round(v[i] * KEY_SCALE);
    return IntBuffer.wrap(k);
  }
}
