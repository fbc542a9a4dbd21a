/**
 * Context window assembly: one token budget shared by the system prompt, tools, conversation
 * history, memories, few-shot examples, retrieved evidence and the query. The types here are the
 * contract between the assembler and the components it allocates to: {@link ToolSpec} and {@link
 * ToolRanker}, {@link Turn} and {@link HistoryCompactor}, {@link Memory} and {@link MemoryStore};
 * {@link MessageCost} is how every message is counted.
 */
package dev.ctxpack.assemble;
