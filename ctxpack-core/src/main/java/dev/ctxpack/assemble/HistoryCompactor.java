package dev.ctxpack.assemble;

import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.List;

/**
 * Fits a conversation history into a token budget: recent turns verbatim, older turns summarised,
 * old tool results pruned first, pinned turns kept. Costs are {@link MessageCost#of(Turn,
 * Tokenizer)}. Thread-safe.
 */
public interface HistoryCompactor {
  /**
   * The turns to send, in conversation order, costing at most {@code budget} tokens unless the
   * pinned turns alone cost more (then exactly the pinned turns, and the trace says so). Every
   * decision (kept, summarised, pruned) is recorded in {@code trace} under stage {@code history}.
   */
  Compacted compact(String query, List<Turn> history, int budget, Tokenizer tokenizer, Trace trace) throws IOException;

  /** Names the compactor and its settings for the trace. */
  String id();

  /**
   * The result: {@code turns} to send, their total cost, how many original turns were summarised
   * (replaced by summary turns) and how many tool results were pruned.
   */
  record Compacted(List<Turn> turns, int tokens, int summarised, int pruned) {
    public Compacted {
      turns = List.copyOf(turns);
    }
  }
}
