package dev.ctxpack.bench.pipeline;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Trace;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.Fusion;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.Tokenizers;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * ctxpack's real pipeline over one corpus file: {@link Ingestor} with the default chunker ({@code
 * TokenChunker(o200k_base, 300, 0.15)}) and the given embedder into a {@link LuceneIndex}, searched
 * by {@link HybridRetriever}. Chunk results become document rankings by {@link DocRankings}.
 */
public final class CtxpackPipeline implements Closeable {
  /** The default chunk size; {@code --chunk-tokens} changes it for experiments. */
  public static final int CHUNK_TOKENS = 300;
  public static final double OVERLAP = 0.15;

  private final LuceneIndex index;
  private final Embedder embedder;
  private final int chunkTokens;

  private CtxpackPipeline(LuceneIndex index, Embedder embedder, int chunkTokens) {
    this.index = index;
    this.embedder = embedder;
    this.chunkTokens = chunkTokens;
  }

  /** Opens (or creates) the index at {@code indexDir}; {@link #ingest} fills it. */
  public static CtxpackPipeline open(Path indexDir, Embedder embedder, int chunkTokens) throws IOException {
    return new CtxpackPipeline(LuceneIndex.open(indexDir), Objects.requireNonNull(embedder, "embedder"), chunkTokens);
  }

  /** The ingest options of the runs: the token chunker (o200k_base, {@code chunkTokens}, 15 % overlap). */
  public static IngestOptions options(Embedder embedderOrNull, Language languageOrNull, int chunkTokens) {
    IngestOptions o = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), chunkTokens, OVERLAP), embedderOrNull);
    return languageOrNull == null ? o : o.withLanguage(languageOrNull);
  }

  /** Ingests {@code corpus} with embeddings, timed. */
  public IngestResult ingest(Path corpus, Language languageOrNull) throws IOException {
    return run(index, corpus, options(embedder, languageOrNull, chunkTokens), "full (embeddings)");
  }

  /** Ingests {@code corpus} without embeddings into a fresh index at {@code dir}, timed; the index is closed after. */
  public static IngestResult ingestNoEmbed(Path corpus, Path dir, Language languageOrNull, int chunkTokens)
      throws IOException {
    try (LuceneIndex scratch = LuceneIndex.open(dir)) {
      return run(scratch, corpus, options(null, languageOrNull, chunkTokens), "--no-embed");
    }
  }

  private static IngestResult run(Index index, Path corpus, IngestOptions options, String variant) throws IOException {
    long t0 = System.nanoTime();
    IngestSummary s = new Ingestor(index, Loaders.defaults(), options, null).ingest(List.of(corpus));
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (!s.failed().isEmpty()) {
      throw new IOException("ingest of " + corpus + " failed for " + s.failed().size() + " inputs, first: " + s.failed().get(0));
    }
    return new IngestResult("ctxpack", variant, s.added() + s.updated() + s.unchanged(), s.chunks(),
        Files.size(corpus), seconds, null);
  }

  public Index.Stats stats() throws IOException {
    return index.stats();
  }

  public LuceneIndex index() {
    return index;
  }

  public Embedder embedder() {
    return embedder;
  }

  /**
   * A ranker for {@code mode}: {@code k = depth} chunks; each signal fetches {@code signalDepth}
   * candidates, or {@code depth} when {@code signalDepth} is 0.
   */
  public Ranker ranker(RetrievalMode mode, Fusion fusion, int signalDepth, String label) {
    HybridRetriever retriever = new HybridRetriever(index, embedder, fusion);
    return Ranker.of(label, (query, depth) -> {
      int perSignal = Math.min(RetrievalOptions.MAX_K, signalDepth > 0 ? signalDepth : depth);
      RetrievalOptions o = new RetrievalOptions(mode, Math.min(depth, RetrievalOptions.MAX_K), perSignal, perSignal);
      return DocRankings.fromChunks(retriever.retrieve(query, o, new Trace()));
    });
  }

  /**
   * Hybrid retrieval as {@link #ranker} runs it, then {@code reranker} reorders the first {@code
   * rerankDepth} chunks; the chunks after them keep their fused order.
   */
  public Ranker rerankRanker(Fusion fusion, int signalDepth, Reranker reranker, int rerankDepth, String label) {
    HybridRetriever retriever = new HybridRetriever(index, embedder, fusion);
    return Ranker.of(label, (query, depth) -> {
      int perSignal = Math.min(RetrievalOptions.MAX_K, signalDepth > 0 ? signalDepth : depth);
      RetrievalOptions o = new RetrievalOptions(RetrievalMode.HYBRID, Math.min(depth, RetrievalOptions.MAX_K), perSignal, perSignal);
      return DocRankings.fromChunks(rerankHead(query, retriever.retrieve(query, o, new Trace()), reranker, rerankDepth));
    });
  }

  /** {@code reranker} applied to the first {@code depth} of {@code chunks}, the rest appended as they were. */
  public static List<Candidate> rerankHead(String query, List<Candidate> chunks, Reranker reranker, int depth)
      throws IOException {
    if (chunks.size() <= depth) return reranker.rerank(query, chunks);
    List<Candidate> out = new ArrayList<>(reranker.rerank(query, chunks.subList(0, depth)));
    out.addAll(chunks.subList(depth, chunks.size()));
    return out;
  }

  /** {@code k} candidates of {@code mode}, each signal fetching {@code perSignal} (hybrid fuses with {@code fusion}). */
  public List<Candidate> candidates(String query, RetrievalMode mode, Fusion fusion, int k, int perSignal) throws IOException {
    return new HybridRetriever(index, embedder, fusion)
        .retrieve(query, new RetrievalOptions(mode, k, perSignal, perSignal), new Trace());
  }

  /**
   * Experimental, for investigation only: hybrid retrieval fused per <em>document</em> instead of per
   * chunk. Each signal's chunk list is first collapsed to documents (a document keeps its best
   * chunk, at that chunk's rank), then {@code fusion} combines the document lists, so a document
   * that BM25 finds by one chunk and the dense signal by another gets both contributions. Uses the
   * index and the core fusion as they are; {@code HybridRetriever} fuses by chunk id.
   */
  public Ranker docFusionRanker(Fusion fusion, int signalDepth, String label) {
    return Ranker.of(label, (query, depth) -> {
      int perSignal = Math.min(RetrievalOptions.MAX_K, signalDepth > 0 ? signalDepth : depth);
      List<Candidate> sparse = bestChunkPerDoc(index.searchSparse(query, perSignal));
      List<Candidate> dense = bestChunkPerDoc(index.searchDense(embedder.embed(query), perSignal));
      return DocRankings.fromChunks(fusion.fuse(List.of(sparse, dense), depth));
    });
  }

  /** Keeps each document's first (best) chunk, re-identified by the document id so fusion merges per document. */
  static List<Candidate> bestChunkPerDoc(List<Candidate> chunks) {
    Map<String, Candidate> best = new LinkedHashMap<>();
    for (Candidate c : chunks) {
      Chunk k = c.chunk();
      best.putIfAbsent(k.docId(), new Candidate(
          new Chunk(k.docId(), k.docId(), k.span(), k.text(), k.section(), k.page(), k.tokens()), c.doc(), c.scores()));
    }
    return new ArrayList<>(best.values());
  }

  @Override
  public void close() throws IOException {
    index.close();
  }
}
