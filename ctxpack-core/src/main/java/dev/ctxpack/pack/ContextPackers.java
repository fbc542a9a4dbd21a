package dev.ctxpack.pack;

import dev.ctxpack.compress.IndexSentenceVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.retrieve.Fusion;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.retrieve.RrfFusion;
import dev.ctxpack.retrieve.SentenceWindowRetriever;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.token.Tokenizers;

/**
 * The packer ctxpack ships: what {@code ctxpack pack}, {@code ctxpack serve} and {@code ctxpack
 * assemble} build, and what a library user gets with the same defaults.
 *
 * <pre>{@code
 * ContextPacker packer = ContextPackers.standard(index, embedder).build();
 * ContextPackage p = packer.pack("What does caffeine do?", PackOptions.defaults());
 * }</pre>
 *
 * The builder it returns can still replace any stage ({@code .reranker(null)}, {@code .dedup(...)},
 * {@code .orderer(...)}...).
 */
public final class ContextPackers {
  /** At most this many sentences a request embeds on the fly for compression (those the index has no vector for). */
  public static final int MAX_EMBEDDED_SENTENCES = 32;

  private ContextPackers() {}

  /** {@link #standard(SearchableIndex, Embedder, Fusion, int)} with reciprocal rank fusion (k = 60) and hits not widened. */
  public static PackStages.Builder standard(SearchableIndex index, Embedder embedder) {
    return standard(index, embedder, new RrfFusion(), 0);
  }

  /**
   * The shipped stages over {@code index}: hybrid retrieval fused by {@code fusion} ({@code embedder}
   * null: BM25 only), each hit widened to {@code window} sentences each side of the stored document
   * (0: not widened; for indexes cut one sentence per chunk), the conservative and strict dedup
   * cascade, the fitted feature reranker, the index's vectors for the semantic dedup level, MMR and
   * topic order (for the languages the embedder reads), and the sentence vectors stored at ingestion
   * for compression (a few missing ones embedded on the fly; an index without them is scored
   * lexically).
   */
  public static PackStages.Builder standard(SearchableIndex index, Embedder embedder, Fusion fusion, int window) {
    if (window < 0) throw new IllegalArgumentException("window must be >= 0, was " + window);
    Retriever retriever = new HybridRetriever(index, embedder, fusion);
    if (window > 0) retriever = new SentenceWindowRetriever(retriever, index, Tokenizers.defaultTokenizer(), window);
    PackStages.Builder b = DefaultContextPacker.builder().retriever(retriever).reranker(FeatureReranker.defaults());
    if (embedder != null) {
      b.vectors(PassageVectors.fromIndex(index, embedder.languages()));
      b.sentenceVectors(new IndexSentenceVectors(index, embedder, MAX_EMBEDDED_SENTENCES));
    }
    return b;
  }
}
