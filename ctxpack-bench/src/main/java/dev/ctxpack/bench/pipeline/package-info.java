/**
 * The systems the evaluation runner compares, each behind {@link dev.ctxpack.bench.pipeline.Ranker}:
 * ctxpack's own pipeline (Ingestor into a LuceneIndex, HybridRetriever; chunk results aggregated to
 * documents) and the peer pipeline (plain Lucene BM25 with EnglishAnalyzer, LangChain4j's quantized
 * all-MiniLM-L6-v2 with exact cosine, LangChain4j's ReciprocalRankFuser).
 */
package dev.ctxpack.bench.pipeline;
