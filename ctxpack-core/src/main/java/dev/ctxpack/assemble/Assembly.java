package dev.ctxpack.assemble;

import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An assembled window: the {@code messages} to send, in order, each with the component it belongs
 * to; the {@code tools} to send (in the request's order); the packed {@code evidence} when retrieval
 * ran and kept a source (its labels are the ones the final message cites); the budget; the waste
 * report; and the trace. {@code history} tells how the conversation was fitted.
 */
public record Assembly(
    List<Message> messages,
    List<ToolSpec> tools,
    Optional<ContextPackage> evidence,
    WindowBudget budget,
    List<WasteFlag> waste,
    HistoryReport history,
    List<Decision> trace) {

  public Assembly {
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
    evidence = evidence == null ? Optional.empty() : evidence;
    waste = List.copyOf(waste);
    trace = List.copyOf(trace);
  }

  /** One message to send: the turn and the component whose budget paid for it. */
  public record Message(Turn turn, Component component) {}

  /**
   * Where the tokens went: {@code limit} = {@code window} − {@code reserve}, {@code used} ≤ {@code
   * limit}, and {@code byComponent} (every component, in {@link Component} order) sums to {@code
   * used}. {@code used} is the exact count of what is sent: every message by {@link MessageCost},
   * every tool by its serialized schema, and the reply priming once (in {@code query}).
   */
  public record WindowBudget(int window, int reserve, int limit, int used, Map<Component, Integer> byComponent) {
    public WindowBudget {
      if (used > limit) throw new IllegalStateException("window over budget: used " + used + " > limit " + limit);
      byComponent = Collections.unmodifiableMap(new EnumMap<>(byComponent));
    }

    public int get(Component c) {
      return byComponent.getOrDefault(c, 0);
    }
  }

  /**
   * A component taking more than {@link Assembler#WASTE_SHARE} of the window: its tokens, its share
   * of the window, and what would shrink it.
   */
  public record WasteFlag(Component component, int tokens, double share, String shrink) {}

  /**
   * The history as given ({@code given} turns) and as sent ({@code sent} turns, summaries
   * included): {@code dropped} turns left out, {@code summarised} replaced by summary turns, {@code
   * pruned} tool results cut. {@link #compacted()} when anything of it was not sent verbatim.
   */
  public record HistoryReport(int given, int sent, int dropped, int summarised, int pruned, String compactor) {
    public boolean compacted() {
      return dropped > 0 || summarised > 0 || pruned > 0;
    }
  }
}
