package dev.ctxpack.app;

import dev.ctxpack.assemble.Assembler;
import dev.ctxpack.assemble.DefaultHistoryCompactor;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.lucene.HybridToolRanker;
import dev.ctxpack.onnx.Embedders;
import dev.ctxpack.onnx.Rerankers;
import dev.ctxpack.pack.ContextPacker;
import dev.ctxpack.pack.ContextPackers;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.StageListener;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.Fusion;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.Retriever;
import dev.ctxpack.retrieve.SentenceWindowRetriever;
import dev.ctxpack.token.Tokenizers;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.LlmJudge;
import dev.ctxpack.verify.Verifier;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wires the library's components by spec, the same way for the command line and the service: the
 * embedders (one model per spec per process), indexes, retrievers, rerankers, the shipped packer,
 * the compressor, the verifier and the window assembler. A bad spec is a {@link UsageException}
 * naming the option it came from.
 */
public final class Components {
  private Components() {}

  /** The models by spec: loaded once per process and shared (they are thread-safe). */
  private static final ConcurrentHashMap<String, Embedder> MODELS = new ConcurrentHashMap<>();

  /**
   * The embedder {@code spec} names, with a cache of its own over the process's one instance of the
   * model: each caller's cache holds only the texts it embedded (the service gives each tenant its
   * own, so no tenant's timings tell what another embedded).
   */
  public static Embedder embedder(String spec) {
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
  public static Embedder searchEmbedder(SearchableIndex index, String spec) throws IOException {
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
  public static Index openExisting(IndexSpec spec) throws IOException {
    return Indexes.openExisting(spec);
  }

  /** Hybrid retrieval over {@code index} ({@code embedder} null: BM25 only), fused by {@code fusion}. */
  public static HybridRetriever retriever(SearchableIndex index, Embedder embedder, Fusion fusion) {
    return new HybridRetriever(index, embedder, fusion);
  }

  /**
   * {@code retriever} with each hit widened to {@code window} sentences each side, read from the
   * stored document ({@code --window}; for indexes cut by {@code sentence-window}); itself when 0.
   */
  public static Retriever windowed(Retriever retriever, SearchableIndex index, int window) {
    if (window < 0) throw new UsageException("--window must be >= 0, was " + window);
    return window == 0 ? retriever : new SentenceWindowRetriever(retriever, index, Tokenizers.defaultTokenizer(), window);
  }

  /** {@code features} (the default), {@code none} (null), or a {@link Rerankers} spec ({@code http:...}, {@code onnx:...}). */
  public static Reranker reranker(String spec) {
    String s = spec == null ? "features" : spec.strip();
    if (s.equals("none")) return null;
    if (s.equals("features")) return FeatureReranker.defaults();
    try {
      return Rerankers.byName(s);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--reranker: " + e.getMessage() + " (or: features, none)");
    }
  }

  /**
   * The shipped packer ({@link ContextPackers#standard}) over {@code index}: hybrid retrieval fused by
   * {@code fusion}, each hit widened by {@code window} sentences (0: not widened), the dedup cascade
   * with {@code beforeRerank} and {@code afterRerank}, {@code reranker} (null: none), telling {@code
   * stages} the time of each stage of every request.
   */
  public static DefaultContextPacker packer(SearchableIndex index, Embedder embedder, Fusion fusion,
      DedupOptions beforeRerank, DedupOptions afterRerank, Reranker reranker, int window, StageListener stages) {
    if (window < 0) throw new UsageException("--window must be >= 0, was " + window);
    return ContextPackers.standard(index, embedder, fusion, window)
        .dedup(beforeRerank, afterRerank)
        .reranker(reranker).stageListener(stages).build();
  }

  /**
   * The shipped packer with its defaults (what {@code ctxpack pack} builds with no options):
   * reciprocal rank fusion (k = 60), hits not widened, the conservative and strict dedup cascade,
   * the feature reranker.
   */
  public static DefaultContextPacker packer(SearchableIndex index, Embedder embedder, StageListener stages) {
    return ContextPackers.standard(index, embedder).stageListener(stages).build();
  }

  /**
   * The ingestion options of {@code ctxpack ingest} with no flags, embedding with {@code embedder}
   * (null: none): token chunks of at most 300 tokens overlapping by 15 %, the language detected,
   * vectors in windows of about 100 tokens, sentence vectors stored, the default load limits and
   * cleaning. {@code POST /v1/documents} ingests with these.
   */
  public static IngestOptions ingestOptions(Embedder embedder) {
    return IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), TokenChunker.DEFAULT_MAX_TOKENS,
        TokenChunker.DEFAULT_OVERLAP), embedder);
  }

  /** The extractive compressor, its sentence vectors embedded on the fly by {@code embedderSpec} ({@code none}: lexical only). */
  public static ExtractiveCompressor compressor(String embedderSpec) {
    SentenceVectors vectors = embedderSpec.equals("none") ? SentenceVectors.none()
        : SentenceVectors.embedder(embedder(embedderSpec));
    return ExtractiveCompressor.defaults(vectors);
  }

  /**
   * The evidence verifier: semantic support of English claims by {@code embedderSpec} ({@code none}:
   * lexical only), and {@code judge} (null: none) for claims with valid citations.
   */
  public static Verifier verifier(String embedderSpec, LlmClient judge) {
    EvidenceVerifier.Builder b = EvidenceVerifier.builder();
    if (!embedderSpec.equals("none")) b.embedder(embedder(embedderSpec));
    if (judge != null) b.judge(new LlmJudge(judge));
    return b.build();
  }

  /**
   * The one place the CLI and the service build an assembler: {@code packer} (null: no evidence),
   * {@code embedder} (null: few-shot by shared terms, tools by BM25 alone) and {@code memories}
   * (null: none), with tools ranked by {@link HybridToolRanker} and the history fitted by {@link
   * DefaultHistoryCompactor}: old tool results pruned, older turns summarised by {@code llm} (null:
   * extractively, which is also the fallback when the model fails).
   */
  public static Assembler assembler(Embedder embedder, ContextPacker packer, MemoryStore memories, LlmClient llm) {
    return Assembler.builder().embedder(embedder).packer(packer).toolRanker(new HybridToolRanker(embedder))
        .historyCompactor(DefaultHistoryCompactor.builder().llm(llm).build()).memoryStore(memories).build();
  }
}
