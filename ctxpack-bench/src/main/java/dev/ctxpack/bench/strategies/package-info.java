/**
 * {@code ctxpack eval strategies}: stuff against map-reduce, refine and tree plans run offline, at
 * small budgets, on SQuAD 2.0 and FaQuAD ({@link dev.ctxpack.bench.strategies.StrategiesEval}).
 */
package dev.ctxpack.bench.strategies;
