/**
 * The index SPI: durable storage and search of documents, chunks and vectors. {@link
 * dev.ctxpack.index.Index} is what a backend implements, in three roles its callers take one at a
 * time: {@link dev.ctxpack.index.SearchableIndex} (search and read, narrowed by {@link
 * dev.ctxpack.index.Access}), {@link dev.ctxpack.index.WritableIndex} (ingest) and {@link
 * dev.ctxpack.index.CorpusCatalog} (the corpus report). A backend is named by an {@link
 * dev.ctxpack.index.IndexSpec} ({@code lucene:DIR}) and opened through {@link
 * dev.ctxpack.index.Indexes}, which finds its {@link dev.ctxpack.index.IndexProvider} with {@link
 * java.util.ServiceLoader}. The embedded backend is {@code ctxpack-lucene}.
 */
package dev.ctxpack.index;
