/**
 * The immutable values that cross stages: {@link dev.ctxpack.model.Document}, {@link
 * dev.ctxpack.model.Chunk}, {@link dev.ctxpack.model.Candidate}, {@link dev.ctxpack.model.Passage},
 * {@link dev.ctxpack.model.Source}, {@link dev.ctxpack.model.ContextPackage} and the audit line
 * {@link dev.ctxpack.model.Decision}.
 */
package dev.ctxpack.model;
