/**
 * The index SPI: durable storage and search of documents, chunks and vectors. {@link
 * dev.ctxpack.index.Index} is what a backend implements, in three roles its callers take one at a
 * time: {@link dev.ctxpack.index.SearchableIndex} (search and read, narrowed by {@link
 * dev.ctxpack.index.Access}), {@link dev.ctxpack.index.WritableIndex} (ingest) and {@link
 * dev.ctxpack.index.CorpusCatalog} (the corpus report). The embedded implementation is {@code
 * ctxpack-lucene}.
 */
package dev.ctxpack.index;
