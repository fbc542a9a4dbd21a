/**
 * Ingestion's cutting stage: {@link dev.ctxpack.chunk.Chunker} implementations that turn a stored
 * document into verbatim, offset-exact chunks under a hard token maximum.
 */
package dev.ctxpack.chunk;
