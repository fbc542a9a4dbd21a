package dev.ctxpack.dedup;

import dev.ctxpack.similarity.Words;
import dev.ctxpack.text.TextMemory;
import dev.ctxpack.text.TextNormalizer;

/**
 * What the exact and near levels of a {@link CascadeDeduplicator} read of a text (its folded form,
 * its exact-level key, its shingles), remembered by the text's content and bounded by the characters
 * of the texts it holds ({@link TextMemory}). Cascades may share one ({@link
 * CascadeDeduplicator#withMemory}): a packer's two passes, before and after reranking, read the same
 * candidates, and the same chunks come back request after request. Thread-safe.
 */
public final class DedupMemory {
  private final TextMemory<Read> reads;

  /** A memory of the reads of at most {@code maxChars} characters of texts in all. */
  public DedupMemory(long maxChars) {
    this.reads = new TextMemory<>(maxChars);
  }

  /** How many texts' reads are remembered now. */
  public int size() {
    return reads.size();
  }

  /** A text's folded form, its exact-level key and its shingles of {@code shingle} words (none for 0). */
  record Read(String folded, Object key, int shingle, long[] shingles) {
    static Read of(String text, int shingle) {
      String folded = TextNormalizer.fold(text);
      return new Read(folded, TextNormalizer.collapsedKey(folded), shingle,
          shingle > 0 ? Words.shingleHashesOfFolded(folded, shingle) : null);
    }
  }

  /**
   * What the exact and near levels read of {@code text}, with shingles of {@code shingle} words (0:
   * none needed), from {@code memory} when it holds them (null: no memory), else read and remembered.
   */
  static Read read(DedupMemory memory, String text, int shingle) {
    Read r = memory == null ? null : memory.reads.get(text);
    if (r == null || (shingle > 0 && r.shingle() != shingle)) {
      r = Read.of(text, shingle);
      if (memory != null) memory.reads.put(text, r);
    }
    return r;
  }
}
