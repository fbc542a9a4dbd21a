/**
 * Evaluation of query-aware extractive compression: {@link dev.ctxpack.bench.compress.CompressEval}
 * ({@code ./ctxpack eval compress}) measures whether gold answers survive when SQuAD 2.0 and FaQuAD
 * requests are cut to 10, 25 and 50 % of their tokens, for ctxpack's compressor beside truncation,
 * paragraph stuffing, BM25 and embedding sentence selection and an oracle, and ranks WikiQA
 * candidate sentences. {@link dev.ctxpack.bench.compress.CompressData#split} is the FIT/REPORT split
 * that fitting code reuses. On demand only; see docs/BENCHMARKS.md.
 */
package dev.ctxpack.bench.compress;
