/**
 * Evaluation of answer verification: {@link dev.ctxpack.bench.verify.VerifyEval} ({@code ./ctxpack
 * eval verify}) runs ctxpack's verifier beside a BM25-sentence and an embedding-sentence baseline on
 * SciFact claims against their cited abstracts, on citation errors built from SQuAD 2.0 and FaQuAD
 * answer sentences ({@link dev.ctxpack.bench.verify.Variants}), and on abstention judged against the
 * sources. On demand only; see docs/BENCHMARKS.md.
 */
package dev.ctxpack.bench.verify;
