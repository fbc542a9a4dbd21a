/**
 * The {@link dev.ctxpack.index.Index} SPI: durable storage and search of documents, chunks and
 * vectors. The embedded implementation is {@code ctxpack-lucene}.
 */
package dev.ctxpack.index;
