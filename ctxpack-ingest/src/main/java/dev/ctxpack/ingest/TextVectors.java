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

  private final Embedder embedder;
  private final List<String> texts;
  private final BitSet windows;
  private final List<float[]> vectors;
  private final Missing[] missing;
  private final Set<IntBuffer> seen = new HashSet<>();

  /**
   * The vectors of {@code texts}, none embedded yet ({@link #embedBatch}); {@code windows} marks the
   * texts embedded as windows (the others are sentences only).
   */
  TextVectors(Embedder embedder, List<String> texts, BitSet windows) {
    this.embedder = embedder;
    this.texts = texts;
    this.windows = windows;
    this.vectors = new ArrayList<>(texts.size());
    this.missing = new Missing[texts.size()];
  }

  /**
   * Embeds {@code texts} in batches, in order, telling {@code progress} how many are done after
   * each; {@code windows} marks the texts embedded as windows (the others are sentences only).
   */
  static TextVectors embed(Embedder embedder, List<String> texts, BitSet windows, IntConsumer progress) {
    TextVectors v = new TextVectors(embedder, texts, windows);
    if (texts.isEmpty()) progress.accept(0);
    while (v.done() < texts.size()) {
      v.embedBatch(texts.size());
      progress.accept(v.done());
    }
    return v;
  }

  /** How many texts, from the first, have been embedded (or judged to get no vector). */
  int done() {
    return vectors.size();
  }

  /**
   * Embeds the next batch of at most {@value #EMBED_BATCH} texts, not beyond text {@code need}: the
   * ones the model can read are sent to it, and a window whose vector repeats an earlier window's
   * is marked. Texts are taken in order, so the marks do not depend on how the batches fall.
   */
  void embedBatch(int need) {
    int from = vectors.size();
    int to = Math.min(Math.min(need, texts.size()), from + EMBED_BATCH);
    if (to <= from) return;
    double[] share = java.util.stream.IntStream.range(from, to).parallel()
        .mapToDouble(i -> embedder.readableShare(texts.get(i))).toArray();
    List<Integer> readable = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      if (share[i - from] < MIN_READABLE_SHARE) missing[i] = Missing.UNREADABLE;
      else readable.add(i);
    }
    List<float[]> got = readable.isEmpty() ? List.of()
        : Embedder.embedLeniently(embedder, readable.stream().map(texts::get).toList());
    for (int i = from; i < to; i++) vectors.add(null);
    for (int j = 0; j < readable.size(); j++) {
      int i = readable.get(j);
      vectors.set(i, got.get(j));
      if (got.get(j) == null) missing[i] = Missing.REJECTED;
    }
    for (int i = from; i < to; i++) {
      float[] v = vectors.get(i);
      if (windows.get(i) && v != null && !seen.add(key(v))) missing[i] = Missing.SAME_VECTOR;
    }
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
