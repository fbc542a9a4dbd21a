/**
 * The memory and history evaluations: episodic recall of the memory store on paraphrase pairs
 * ({@code ./ctxpack eval memory}) and answer-bearing facts kept by history compaction on
 * conversations built from QA data ({@code ./ctxpack eval history}).
 */
package dev.ctxpack.bench.memory;
