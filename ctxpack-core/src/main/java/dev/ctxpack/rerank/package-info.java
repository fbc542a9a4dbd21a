/**
 * Reranking: the {@link dev.ctxpack.rerank.Reranker} SPI and its default, a learned combination of
 * first-stage signals that needs no extra model.
 */
package dev.ctxpack.rerank;
