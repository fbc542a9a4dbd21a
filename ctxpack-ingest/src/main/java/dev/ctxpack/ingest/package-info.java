/**
 * Ingestion: loaders for text, Markdown and JSON Lines, and the {@link dev.ctxpack.ingest.Ingestor}
 * that normalises, identifies, chunks, embeds and commits documents into an {@link
 * dev.ctxpack.index.Index}, skipping unchanged content and never leaving a file half-written.
 */
package dev.ctxpack.ingest;
