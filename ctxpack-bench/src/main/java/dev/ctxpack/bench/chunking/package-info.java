/**
 * The chunking throughput benchmark ({@code eval chunking}): ctxpack's chunkers against counting the
 * same text's tokens and against LangChain4j's recursive splitter, on the same texts in the same run.
 */
package dev.ctxpack.bench.chunking;
