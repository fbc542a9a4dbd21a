/**
 * Dedup: the cascade that removes redundancy between candidates while keeping every source. This
 * version runs the exact level; near-duplicate merging, window stitching and semantic grouping
 * plug in behind the same {@link dev.ctxpack.dedup.Deduplicator} interface.
 */
package dev.ctxpack.dedup;
