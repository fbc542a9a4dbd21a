/**
 * Dedup on a duplicated corpus: {@link dev.ctxpack.bench.dedup.DistinctFacts} measures how many
 * distinct contexts and gold answers a packed window holds when every SQuAD 2.0 context appears
 * several times under light perturbations. Runs on demand; see docs/BENCHMARKS.md.
 */
package dev.ctxpack.bench.dedup;
