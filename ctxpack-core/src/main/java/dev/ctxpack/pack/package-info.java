/**
 * Packaging: the orchestrator {@link dev.ctxpack.pack.DefaultContextPacker} that runs the flow for
 * one query, the prompt templates (English, Portuguese) and the renderer that fences sources and
 * labels them {@code S1}, {@code S2}... for citation. Besides one stuffed prompt, a package may hold a
 * plan of calls ({@link dev.ctxpack.pack.Strategy}: map-reduce, refine, tree) laid out within the
 * budget by {@link dev.ctxpack.pack.PlanBuilder} and run, against a chat model or offline, by {@link
 * dev.ctxpack.pack.PlanExecutor}.
 */
package dev.ctxpack.pack;
