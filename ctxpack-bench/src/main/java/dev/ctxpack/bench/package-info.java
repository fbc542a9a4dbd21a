/**
 * On-demand measurement of ctxpack over real data sets: the evaluation runner ({@link
 * dev.ctxpack.bench.EvalRunner}: retrieval quality, ingest throughput and search latency of
 * ctxpack next to a peer pipeline measured in the same run) and the JMH benchmarks in {@code
 * dev.ctxpack.bench.jmh}. Nothing here runs in {@code mvn test} except the data loaders' unit
 * tests; see {@code docs/BENCHMARKS.md}.
 */
package dev.ctxpack.bench;
