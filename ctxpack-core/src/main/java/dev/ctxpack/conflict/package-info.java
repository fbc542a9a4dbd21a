/**
 * Conflicts, the stage between compression and ordering: which selected passages disagree ({@link
 * dev.ctxpack.conflict.ConflictDetector}; the default reads the pairs the dedup stage kept apart for
 * a number or a date, and dated versions of one document), and, after ordering, the newer of each
 * dated pair moved into the stronger position ({@link dev.ctxpack.conflict.NewerFirst}). The
 * packer writes each conflict after the SOURCES block and into the package's {@code conflicts}.
 */
package dev.ctxpack.conflict;
