/**
 * Evaluation of ctxpack's dedup cascade: {@link dev.ctxpack.bench.dedup.DedupEval} runs the real
 * {@link dev.ctxpack.dedup.CascadeDeduplicator} over judged paraphrase pairs (MRPC, ASSIN), the
 * ASSIN pairs that differ by a negation ({@link dev.ctxpack.bench.dedup.NegationCues}) and cases
 * constructed from real passages ({@link dev.ctxpack.bench.dedup.Variants}), beside baselines
 * measured in the same run. On demand only; see docs/BENCHMARKS.md.
 */
package dev.ctxpack.bench.dedup;
