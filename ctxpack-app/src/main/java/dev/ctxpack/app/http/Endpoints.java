package dev.ctxpack.app.http;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.json.AssembleEndpoint;
import dev.ctxpack.app.json.CompressEndpoint;
import dev.ctxpack.app.json.DedupEndpoint;
import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.app.json.PackEndpoint;
import dev.ctxpack.app.json.SearchEndpoint;
import dev.ctxpack.app.json.VerifyEndpoint;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.pack.StageListener;
import dev.ctxpack.retrieve.RrfFusion;

/**
 * The work behind each route, built from library components ({@link Components}) and the JSON
 * functions of {@code dev.ctxpack.app.json}, with the defaults of the command each route answers
 * for: search with {@code k} 10, hybrid, reciprocal rank fusion and no reranker; pack with {@link
 * PackOptions#defaults()} over the shipped packer; compress, dedup and verify with no options but
 * the embedder, within the service's caps on work (dedup's sentence comparisons, the sentences of
 * compress and verify); documents ingested as {@code ctxpack ingest} does with no flags. Search and pack
 * tell the {@link Metrics} the time of each stage.
 */
final class Endpoints {
  private final String embedder;
  private final LlmClient llm;
  private final Metrics metrics;
  private final long maxDedupComparisons;
  private final int maxSentences;

  Endpoints(String embedder, LlmClient llm, Metrics metrics, long maxDedupComparisons, int maxSentences) {
    this.embedder = embedder;
    this.llm = llm;
    this.metrics = metrics;
    this.maxDedupComparisons = maxDedupComparisons;
    this.maxSentences = maxSentences;
  }

  /** {@code POST /v1/search} over {@code view}, embedding queries with {@code e} (null: BM25 only). */
  JsonEndpoint search(SearchableIndex view, Embedder e) {
    return SearchEndpoint.of(Components.retriever(view, e, new RrfFusion()), null, SearchEndpoint.DEFAULT_K,
        SearchEndpoint.DEFAULT_MODE, stages(Metrics.SEARCH));
  }

  /** {@code POST /v1/pack} over {@code view}: the request's {@code "execute"} calls the service's model. */
  JsonEndpoint pack(SearchableIndex view, Embedder e) {
    return PackEndpoint.of(Components.packer(view, e, stages(Metrics.PACK)), PackOptions.defaults(), llm, false);
  }

  /** {@code POST /v1/assemble}: evidence from {@code view} (null: none), memories from {@code memories} (null: none). */
  JsonEndpoint assemble(Embedder e, SearchableIndex view, MemoryStore memories) {
    return AssembleEndpoint.of(Components.assembler(e, view == null ? null : Components.packer(view, e, StageListener.NONE),
        memories, llm));
  }

  /** {@code POST /v1/compress}, with a cache of sentence vectors of its own. */
  JsonEndpoint compress() {
    return CompressEndpoint.of(Components.compressor(embedder), CompressEndpoint.Defaults.NONE, maxSentences,
        "ctxpack serve --max-sentences");
  }

  /** {@code POST /v1/dedup}: every level, strict thresholds. */
  JsonEndpoint dedup() {
    return DedupEndpoint.of(DedupEndpoint.Cascade.of(DedupOptions.strict(), embedder), maxDedupComparisons,
        "ctxpack serve --max-dedup-comparisons");
  }

  /** {@code POST /v1/verify}, with no judge. */
  JsonEndpoint verify() {
    return VerifyEndpoint.of(Components.verifier(embedder, null), null, maxSentences, "ctxpack serve --max-sentences");
  }

  /** The ingestor of {@code POST /v1/documents} into {@code index}, embedding with {@code e} (null: none). */
  Ingestor ingestor(Index index, Embedder e) {
    return new Ingestor(index, Loaders.defaults(), Components.ingestOptions(e), null);
  }

  private StageListener stages(String endpoint) {
    return (stage, nanos) -> metrics.stage(endpoint, stage, nanos);
  }
}
