package dev.ctxpack.app;

import dev.ctxpack.compress.IndexSentenceVectors;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.onnx.Rerankers;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.similarity.PassageVectors;

import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.onnx.Embedders;
import dev.ctxpack.pack.ContextPackers;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.retrieve.Fusion;
import dev.ctxpack.retrieve.HybridRetriever;
import java.io.IOException;

/** Wires the library's components for one CLI invocation. */
final class Components {
  private Components() {}

  /** The models by spec: loaded once per process and shared (they are thread-safe). */
  private static final java.util.concurrent.ConcurrentHashMap<String, Embedder> MODELS = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The embedder {@code spec} names, with a cache of its own over the process's one instance of the
   * model: each caller's cache holds only the texts it embedded (the service gives each tenant its
   * own, so no tenant's timings tell what another embedded).
   */
  static Embedder embedder(String spec) {
    Embedder model = MODELS.get(spec);
    if (model == null) {
      // Built outside the map's lock (a model loads for a second or more); a racing twin is dropped.
      Embedder built = Embedders.byName(spec);
      model = MODELS.putIfAbsent(spec, built);
      if (model == null) model = built;
    }
    return new CachingEmbedder(model, 4096);
  }

  /**
   * The embedder for searching {@code index}: null when the index holds no vectors (nothing is
   * loaded then); an error when the index was built with another embedder.
   */
  static Embedder searchEmbedder(SearchableIndex index, String spec) throws IOException {
    SearchableIndex.Stats stats = index.stats();
    if (stats.vectors() == 0) return null;
    Embedder e = embedder(spec);
    String have = stats.embedderId().orElse("");
    if (!have.isEmpty() && !have.equals(e.id())) {
      throw new UsageException("the index was embedded with " + have + " but --embedder gives " + e.id()
          + ": pass the same --embedder as at ingest");
    }
    return e;
  }

  /** The existing index {@code spec} names, through its backend's provider ({@link Indexes}). */
  static Index openExisting(IndexSpec spec) throws IOException {
    return Indexes.openExisting(spec);
  }

  static HybridRetriever retriever(SearchableIndex index, Embedder embedder, Fusion fusion) {
    return new HybridRetriever(index, embedder, fusion);
  }

  /**
   * {@code retriever} with each hit widened to {@code window} sentences each side, read from the
   * stored document ({@code --window}; for indexes cut by {@code sentence-window}); itself when 0.
   */
  static dev.ctxpack.retrieve.Retriever windowed(dev.ctxpack.retrieve.Retriever retriever, SearchableIndex index, int window) {
    if (window < 0) throw new UsageException("--window must be >= 0, was " + window);
    return window == 0 ? retriever
        : new dev.ctxpack.retrieve.SentenceWindowRetriever(retriever, index, dev.ctxpack.token.Tokenizers.defaultTokenizer(), window);
  }

  /** {@code features} (default), {@code none}, or a {@link Rerankers} spec ({@code http:...}, {@code onnx:...}). */
  static Reranker reranker(String spec) {
    String s = spec == null ? "features" : spec.strip();
    if (s.equals("none")) return null;
    if (s.equals("features")) return FeatureReranker.defaults();
    try {
      return Rerankers.byName(s);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--reranker: " + e.getMessage() + " (or: features, none)");
    }
  }

  static DefaultContextPacker packer(SearchableIndex index, Embedder embedder, Fusion fusion, DedupFlags dedup) {
    return packer(index, embedder, fusion, dedup, FeatureReranker.defaults());
  }

  static DefaultContextPacker packer(SearchableIndex index, Embedder embedder, Fusion fusion, DedupFlags dedup, Reranker reranker) {
    return packer(index, embedder, fusion, dedup, reranker, 0);
  }

  /** As above, each retrieved chunk widened by {@code window} sentences each side (0: not widened). */
  static DefaultContextPacker packer(SearchableIndex index, Embedder embedder, Fusion fusion, DedupFlags dedup, Reranker reranker,
      int window) {
    return packer(index, embedder, fusion, dedup, reranker, window, dev.ctxpack.pack.StageListener.NONE);
  }

  /** As above, telling {@code stages} the time of each stage of every request: the shipped wiring with the CLI's flags. */
  static DefaultContextPacker packer(SearchableIndex index, Embedder embedder, Fusion fusion, DedupFlags dedup, Reranker reranker,
      int window, dev.ctxpack.pack.StageListener stages) {
    if (window < 0) throw new UsageException("--window must be >= 0, was " + window);
    return ContextPackers.standard(index, embedder, fusion, window)
        .dedup(dedup.apply(DedupOptions.conservative()), dedup.apply(DedupOptions.strict()))
        .reranker(reranker).stageListener(stages).build();
  }
}
