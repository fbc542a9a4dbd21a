/**
 * Dedup: the cascade that removes redundancy between passages while keeping every source — exact,
 * near, overlap and semantic levels ({@link dev.ctxpack.dedup.CascadeDeduplicator}), with the
 * {@link dev.ctxpack.dedup.Guard} keeping rule and exception apart. Across a whole corpus, at
 * ingestion: {@link dev.ctxpack.dedup.MinHasher} and {@link dev.ctxpack.dedup.LshIndex} find
 * near-duplicate documents without comparing every pair, {@link dev.ctxpack.dedup.Boilerplate} keys
 * chunk texts that recur across documents, and {@link dev.ctxpack.dedup.CorpusPreference} applies
 * both to retrieved candidates.
 */
package dev.ctxpack.dedup;
