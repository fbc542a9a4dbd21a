/**
 * Evaluation of sentence segmentation: {@link dev.ctxpack.bench.segment.SegmentEval} ({@code
 * ./ctxpack eval segment}) scores ctxpack's {@code SentenceSegmenter} beside {@code
 * java.text.BreakIterator} on sentence-boundary precision, recall and F1 over Universal Dependencies
 * treebanks (English-EWT dev, Portuguese-Bosque dev), with an error analysis. On demand only.
 */
package dev.ctxpack.bench.segment;
