/**
 * Ingestion's cutting stage: {@link dev.ctxpack.chunk.Chunker} implementations that turn a stored
 * document into verbatim, offset-exact chunks under a hard token maximum: {@code token} (fixed size
 * with overlap), {@code recursive} (headings, paragraphs, lines, sentences, words), {@code sentence},
 * {@code sentence-window} (sentences, widened at retrieval by {@link dev.ctxpack.chunk.SentenceWindow}),
 * {@code semantic} (topic breakpoints from an embedder) and {@code passage} (100 words), by name in
 * {@link dev.ctxpack.chunk.Chunkers}. Each encodes its text once ({@link dev.ctxpack.token.EncodedText})
 * and counts candidate spans from that encoding, exactly.
 */
package dev.ctxpack.chunk;
