/**
 * Dedup, the stage between retrieval and selection: the cascade that removes redundancy between
 * ranked passages while keeping every source — exact, near, overlap and semantic levels ({@link
 * dev.ctxpack.dedup.CascadeDeduplicator}, the default {@link dev.ctxpack.dedup.Deduplicator}) —
 * with the {@link dev.ctxpack.similarity.Guard} keeping rule and exception apart. The packer runs it
 * twice: conservative before reranking, strict after. The measures it compares with (shingles,
 * MinHash, LSH, the guard, passage vectors) live in {@link dev.ctxpack.similarity}, shared with
 * selection, ordering, verification and ingestion.
 */
package dev.ctxpack.dedup;
