/**
 * The embedded index behind the {@link dev.ctxpack.index.Index} SPI: Lucene 9.12 with BM25 over
 * Portuguese and English analyzers chosen by document language, HNSW vectors for dense retrieval,
 * and one atomic commit per write so a crash never leaves a half-written document. Beside it, in a
 * directory of its own, {@link dev.ctxpack.lucene.LuceneMemoryStore} keeps users' memories (facts
 * and episodes) for window assembly, and {@link
 * dev.ctxpack.lucene.HybridToolRanker} ranks a window's tools with the same analyzers over an
 * in-memory index (ctxpack 0.1).
 */
package dev.ctxpack.lucene;
