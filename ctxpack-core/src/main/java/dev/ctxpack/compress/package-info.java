/**
 * Query-aware extractive compression: which sentences of each passage a model needs to answer a
 * query, cut to a token budget without rewriting a word. {@link ExtractiveCompressor} segments,
 * flags noise, scores sentences with a {@link SentenceScorer} (by default the fitted {@link
 * FeatureSentenceScorer}), keeps the best under the budget and reports every dropped span with its
 * reason.
 */
package dev.ctxpack.compress;
