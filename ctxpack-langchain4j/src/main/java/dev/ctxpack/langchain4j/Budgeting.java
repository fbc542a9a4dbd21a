package dev.ctxpack.langchain4j;

import dev.ctxpack.pack.Budgets;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.rag.query.Metadata;
import java.util.List;

/**
 * How many tokens the packed user message may take. With a context window, what the window less the
 * reserve leaves after the chat memory and the system message the request carries ({@link
 * Metadata#chatMemory()}, {@link Metadata#systemMessage()} when memory does not hold it yet), the
 * user message's own overhead and the reply's priming, capped at {@code evidenceTokens} when that
 * is set too; without one, {@code evidenceTokens}, else the options' budget.
 *
 * @param evidenceTokens the fixed budget, 0 when unset
 * @param contextWindow the model's context window, 0 when unset
 * @param reserve what the window keeps for the answer
 */
record Budgeting(int evidenceTokens, int contextWindow, int reserve, CtxpackTokenCountEstimator tokens) {

  /** What a request may spend: {@code tokens} for the user message, {@code memoryTokens} counted from the rest. */
  record Grant(int tokens, int memoryTokens) {}

  Budgeting {
    if (evidenceTokens < 0 || evidenceTokens > Budgets.MAX) {
      throw new IllegalArgumentException("evidenceTokens must be in [1, " + Budgets.MAX + "], was " + evidenceTokens);
    }
    if (contextWindow < 0) throw new IllegalArgumentException("contextWindow must be >= 1, was " + contextWindow);
    if (reserve < 0) throw new IllegalArgumentException("reserve must be >= 0, was " + reserve);
    if (contextWindow > 0 && reserve >= contextWindow) {
      throw new IllegalArgumentException("reserve " + reserve + " leaves nothing of the contextWindow of " + contextWindow + " tokens");
    }
  }

  /** The grant for a request with {@code metadata} (null when unknown); {@code defaultTokens} when nothing is set. */
  Grant grant(Metadata metadata, int defaultTokens) {
    if (contextWindow == 0) return new Grant(evidenceTokens > 0 ? evidenceTokens : defaultTokens, 0);
    int rest = memoryTokens(metadata);
    int left = contextWindow - reserve - rest;
    if (left < 1) {
      throw new IllegalStateException("the chat memory and system message take " + rest + " tokens of the contextWindow of "
          + contextWindow + " less the reserve of " + reserve + ": nothing is left for the question and its evidence;"
          + " keep fewer messages in memory or raise contextWindow");
    }
    int grant = Math.min(Budgets.MAX, evidenceTokens > 0 ? Math.min(evidenceTokens, left) : left);
    return new Grant(grant, rest);
  }

  /** Tokens of the request besides the user message's text: memory, system message, overheads. */
  int memoryTokens(Metadata metadata) {
    int sum = CtxpackTokenCountEstimator.MESSAGE_OVERHEAD + CtxpackTokenCountEstimator.REPLY_PRIMING;
    if (metadata == null) return sum;
    List<ChatMessage> memory = metadata.chatMemory() == null ? List.of() : metadata.chatMemory();
    for (ChatMessage m : memory) sum += tokens.estimateTokenCountInMessage(m);
    SystemMessage system = metadata.systemMessage();
    if (system != null && !memory.contains(system)) sum += tokens.estimateTokenCountInMessage(system);
    return sum;
  }
}
