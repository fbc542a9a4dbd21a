package dev.ctxpack.bench.pipeline;

import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.retrieve.Fusion;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Experimental, for investigation only: what the dense signal gains when it is not limited to the
 * first 128 word pieces of each chunk (all-MiniLM-L6-v2-q's tokenizer truncates there, and a
 * 300-token chunk is ~330 word pieces). A second index holds the same corpus cut into small
 * windows (e.g. 100 tokens, each embedded with its title); a window hit counts for the main
 * index's chunk it overlaps most, at the window's rank (max-pooling over a chunk's windows). BM25
 * and packing keep the main index's chunks. This approximates storing several vectors per chunk.
 */
public final class WindowedDense {
  private final CtxpackPipeline main;
  private final CtxpackPipeline windows;
  private final Chunker mainChunker;
  private final Map<String, List<Chunk>> chunksByDoc = new ConcurrentHashMap<>();

  public WindowedDense(CtxpackPipeline main, CtxpackPipeline windows, int mainChunkTokens) {
    this.main = main;
    this.windows = windows;
    this.mainChunker = new TokenChunker(Tokenizers.defaultTokenizer(), mainChunkTokens, CtxpackPipeline.OVERLAP);
  }

  /** The main index's chunks ranked by their best window, at most {@code k}. */
  List<Candidate> dense(String query, int k) throws IOException {
    int fetch = Math.min(RetrievalOptions.MAX_K, 3 * k);
    List<Candidate> hits = windows.index().searchDense(windows.embedder().embed(query), fetch);
    Map<String, Candidate> pooled = new LinkedHashMap<>();
    for (Candidate w : hits) {
      Chunk best = mainChunkFor(w.chunk());
      pooled.putIfAbsent(best.id(), new Candidate(best, w.doc(), w.scores()));
      if (pooled.size() >= k) break;
    }
    return new ArrayList<>(pooled.values());
  }

  private Chunk mainChunkFor(Chunk window) {
    List<Chunk> chunks = chunksByDoc.computeIfAbsent(window.docId(), id -> {
      try {
        Document d = main.index().document(id).orElseThrow(() -> new IllegalStateException("document " + id + " missing"));
        return mainChunker.chunk(d);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    Chunk best = chunks.get(0);
    int bestOverlap = Integer.MIN_VALUE;
    for (Chunk c : chunks) {
      int overlap = Math.min(c.span().end(), window.span().end()) - Math.max(c.span().start(), window.span().start());
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = c;
      }
    }
    return best;
  }

  public Ranker denseRanker(String label) {
    return Ranker.of(label, (query, depth) -> {
      return DocRankings.fromChunks(dense(query, depth));
    });
  }

  /** BM25 from the main index and windowed dense, fused per chunk by {@code fusion}. */
  public Ranker hybridRanker(Fusion fusion, String label) {
    return Ranker.of(label, (query, depth) -> {
      int k = Math.min(RetrievalOptions.MAX_K, depth);
      List<Candidate> sparse = main.index().searchSparse(query, k);
      return DocRankings.fromChunks(fusion.fuse(List.of(sparse, dense(query, k)), k));
    });
  }
}
