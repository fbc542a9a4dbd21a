/**
 * Context window assembly: one token budget shared by the system prompt, tools, conversation
 * history, memories, few-shot examples, retrieved evidence and the query. {@link
 * dev.ctxpack.assemble.Assembler} is the orchestrator (its Javadoc walks the steps); an {@link
 * dev.ctxpack.assemble.AssembleRequest} goes in, an {@link dev.ctxpack.assemble.Assembly} (messages,
 * tools, budget, waste report, trace) comes out, and {@link dev.ctxpack.assemble.Replay} runs it
 * over a whole conversation. The types {@link ToolSpec} and {@link ToolRanker}, {@link Turn} and
 * {@link HistoryCompactor}, {@link Memory} and {@link MemoryStore} are the contract between the
 * assembler and the components it allocates to; {@link MessageCost} is how every message is
 * counted.
 */
package dev.ctxpack.assemble;
