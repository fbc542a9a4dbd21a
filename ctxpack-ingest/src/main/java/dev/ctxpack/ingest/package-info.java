/**
 * Ingestion: loaders for text, Markdown, JSON Lines, HTML (main content, headings as sections) and
 * PDF (page starts), the {@link dev.ctxpack.ingest.LoadGuard} every file is loaded through (size
 * cap, binary detection, parse timeout; refusals are {@link dev.ctxpack.ingest.Rejected}), and the
 * {@link dev.ctxpack.ingest.Ingestor} that normalises, identifies, chunks, embeds and commits
 * documents into an {@link dev.ctxpack.index.Index}, skipping unchanged content and never leaving a
 * file half-written. {@link dev.ctxpack.ingest.ToolSchemas} reads tool definitions (OpenAI, MCP,
 * OpenAPI 3) for the window assembler (ctxpack 0.1).
 */
package dev.ctxpack.ingest;
