/**
 * Loaders of evaluation data sets into a {@link dev.ctxpack.bench.data.Dataset}: the BEIR layout
 * (SciFact) and Cranfield's SMART format; and of judged sentence pairs ({@link
 * dev.ctxpack.bench.data.TextPair}): MRPC and ASSIN. The data stay in {@code ../shared/data};
 * nothing is copied into the repository.
 */
package dev.ctxpack.bench.data;
