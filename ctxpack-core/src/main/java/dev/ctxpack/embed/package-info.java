/**
 * The {@link dev.ctxpack.embed.Embedder} SPI (dense vectors for chunks, queries and sentences) and
 * a content-hash cache in front of any implementation. Implementations live in {@code ctxpack-onnx}.
 */
package dev.ctxpack.embed;
