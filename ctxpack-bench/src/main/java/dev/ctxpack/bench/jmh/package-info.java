/**
 * JMH benchmarks of the request path on a real index (SciFact): {@code search} (hybrid, k = 10,
 * query embedding included), {@code pack} (medium preset, 4,000 tokens), and the stages alone (dedup,
 * rerank, compression); and answer verification ({@code VerifyBenchmark}, over SQuAD paragraphs).
 * Run with {@code ctxpack-bench/jmh.sh}; see docs/BENCHMARKS.md.
 */
package dev.ctxpack.bench.jmh;
