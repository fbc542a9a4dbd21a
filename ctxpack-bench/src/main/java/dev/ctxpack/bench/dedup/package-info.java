/**
 * Evaluation of ctxpack's dedup cascade: {@link dev.ctxpack.bench.dedup.DedupEval} runs the real
 * {@link dev.ctxpack.dedup.CascadeDeduplicator} over judged paraphrase pairs (MRPC, ASSIN), the
 * ASSIN pairs that differ by a negation ({@link dev.ctxpack.bench.dedup.NegationCues}) and cases
 * constructed from real passages ({@link dev.ctxpack.bench.dedup.Variants}), beside baselines
 * measured in the same run. On demand only; see docs/BENCHMARKS.md.
 * It also measures dedup on a duplicated corpus: {@link dev.ctxpack.bench.dedup.DistinctFacts} measures how many
 * distinct contexts and gold answers a packed window holds when every SQuAD 2.0 context appears
 * several times under light perturbations. Runs on demand; see docs/BENCHMARKS.md.
 */
package dev.ctxpack.bench.dedup;
