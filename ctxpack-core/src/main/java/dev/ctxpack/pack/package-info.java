/**
 * Packaging: the orchestrator {@link dev.ctxpack.pack.DefaultContextPacker} that runs the flow for
 * one query, the prompt templates (English, Portuguese) and the renderer that fences sources and
 * labels them {@code S1}, {@code S2}... for citation.
 */
package dev.ctxpack.pack;
