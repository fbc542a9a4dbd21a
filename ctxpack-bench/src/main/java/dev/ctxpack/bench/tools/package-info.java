/**
 * The tool-selection evaluation ({@code java -jar ctxpack-bench/target/ctxpack-bench.jar tools}):
 * recall@k and MRR of the tool rankers on real tool schemas (MCP reference servers, GitHub REST) with
 * labelled English and Portuguese requests, and the tokens of the tools selected.
 */
package dev.ctxpack.bench.tools;
