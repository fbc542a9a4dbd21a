/**
 * Similarity, the measures every stage may compare texts with; no stage of its own. {@link
 * dev.ctxpack.similarity.Words}: word lists, word sets and 5-word shingle hashes (what near-duplicate
 * detection, MMR's lexical fallback and the corpus preference compare); {@link
 * dev.ctxpack.similarity.MinHasher} and {@link dev.ctxpack.similarity.LshIndex}: near-duplicate
 * documents across a corpus without comparing every pair (ingestion); {@link
 * dev.ctxpack.similarity.Boilerplate}: keys of chunk texts that recur across documents; {@link
 * dev.ctxpack.similarity.Guard}: whether two texts that look alike state one thing differently (a
 * negation, number, date or condition, in Portuguese and English), used by dedup and verification;
 * {@link dev.ctxpack.similarity.PassageVectors}: passage embeddings from the index or an embedder,
 * for the semantic dedup level, MMR and topic ordering.
 */
package dev.ctxpack.similarity;
