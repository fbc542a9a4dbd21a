package dev.ctxpack.index;

import java.util.List;

/**
 * What ingestion found about a document's place in its corpus, stored with it (ctxpack 0.1).
 * {@code signature} is the document's MinHash signature ({@link dev.ctxpack.similarity.MinHasher}) and
 * {@code bandKeys} its LSH band keys ({@link dev.ctxpack.similarity.LshIndex#bandKey}), kept so that a
 * document ingested later is still compared with this one; {@code nearDuplicateOf} is the id of
 * the document this one nearly repeats (empty if none), with the estimated Jaccard {@code
 * similarity}; {@code fileTime} is the source file's last-modified time in epoch milliseconds (0
 * when unknown), which tells old versions from new ones when the metadata has no date; {@code
 * chunkKeys} holds each chunk's {@link dev.ctxpack.similarity.Boilerplate#key}, in chunk order, computed
 * once at ingestion (empty: the index computes them). Marks never enter the document's content hash.
 */
public record CorpusMarks(
    int[] signature, List<String> bandKeys, String nearDuplicateOf, double similarity, long fileTime, List<String> chunkKeys) {
  /** No signature, no mark. */
  public static final CorpusMarks NONE = new CorpusMarks(null, List.of(), "", 0, 0);

  /** Marks whose chunk keys the index computes. */
  public CorpusMarks(int[] signature, List<String> bandKeys, String nearDuplicateOf, double similarity, long fileTime) {
    this(signature, bandKeys, nearDuplicateOf, similarity, fileTime, List.of());
  }

  public CorpusMarks {
    bandKeys = bandKeys == null ? List.of() : List.copyOf(bandKeys);
    chunkKeys = chunkKeys == null ? List.of() : List.copyOf(chunkKeys);
    nearDuplicateOf = nearDuplicateOf == null ? "" : nearDuplicateOf;
    if (!(similarity >= 0 && similarity <= 1)) throw new IllegalArgumentException("similarity must be in [0, 1], was " + similarity);
  }

  /** Whether the document is marked as nearly repeating another. */
  public boolean nearDuplicate() {
    return !nearDuplicateOf.isEmpty();
  }
}
