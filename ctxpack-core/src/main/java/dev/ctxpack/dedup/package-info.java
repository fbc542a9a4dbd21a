/**
 * Dedup: the cascade that removes redundancy between passages while keeping every source — exact,
 * near, overlap and semantic levels ({@link dev.ctxpack.dedup.CascadeDeduplicator}), with the
 * {@link dev.ctxpack.dedup.Guard} keeping rule and exception apart.
 */
package dev.ctxpack.dedup;
