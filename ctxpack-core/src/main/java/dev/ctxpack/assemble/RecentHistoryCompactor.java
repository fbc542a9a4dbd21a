package dev.ctxpack.assemble;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;

/**
 * The default compactor, {@code recent}: keeps the newest turns verbatim and leaves out the oldest
 * non-pinned ones until the rest fits, each left-out turn a {@code history}/{@code drop} decision.
 * An assistant turn that calls tools and the tool results that answer it go (or stay) together, so
 * no tool result is sent without its call; once a turn is left out, the turns before the first user
 * turn left are left out too, so the history sent starts with a question. Pinned turns always stay.
 * Nothing is summarised: that is what a summarising {@link HistoryCompactor} adds.
 */
public final class RecentHistoryCompactor implements HistoryCompactor {
  @Override
  public String id() {
    return "recent";
  }

  @Override
  public Compacted compact(String query, List<Turn> history, int budget, Tokenizer tokenizer, Trace trace) {
    List<int[]> units = units(history); // [start, end) of each unit
    int n = units.size();
    int[] cost = new int[n];
    boolean[] pinned = new boolean[n];
    int total = 0;
    for (int u = 0; u < n; u++) {
      for (int i = units.get(u)[0]; i < units.get(u)[1]; i++) {
        cost[u] += MessageCost.of(history.get(i), tokenizer);
        pinned[u] |= history.get(i).pinned();
      }
      total += cost[u];
    }
    boolean[] drop = new boolean[n];
    for (int u = 0; u < n && total > budget; u++) {
      if (pinned[u]) continue;
      drop[u] = true;
      total -= cost[u];
      int[] span = units.get(u);
      List<String> ids = new ArrayList<>();
      for (int i = span[0]; i < span[1]; i++) ids.add("history[" + i + "]");
      trace.add(Stage.HISTORY, Action.DROP, "history:recent", ids, "", cost[u],
          "oldest " + describe(history, span) + " left out so the history fits " + budget + " tokens");
    }
    // Once something was left out, the history sent starts at a user turn (a reply without its
    // question misleads, and Anthropic's API refuses a conversation that opens with the assistant).
    boolean cut = false;
    for (int u = 0; u < n; u++) cut |= drop[u];
    for (int u = 0; cut && u < n; u++) {
      if (drop[u]) continue;
      if (pinned[u] || history.get(units.get(u)[0]).role().equals("user")) break;
      drop[u] = true;
      total -= cost[u];
      int[] span = units.get(u);
      List<String> ids = new ArrayList<>();
      for (int i = span[0]; i < span[1]; i++) ids.add("history[" + i + "]");
      trace.add(Stage.HISTORY, Action.DROP, "history:recent", ids, "", cost[u],
          describe(history, span) + " left out so the history sent starts at a user turn");
    }
    if (total > budget) {
      trace.add(Stage.HISTORY, Action.KEEP, "history:pinned", List.of(), "", 0,
          "the pinned turns alone cost " + total + " tokens, over the history's " + budget + ": all of them kept");
    }
    List<Turn> out = new ArrayList<>();
    for (int u = 0; u < n; u++) {
      if (!drop[u]) out.addAll(history.subList(units.get(u)[0], units.get(u)[1]));
    }
    return new Compacted(out, total, 0, 0);
  }

  /** Consecutive runs that go together: an assistant turn with tool calls and the tool results after it; any other turn alone. */
  static List<int[]> units(List<Turn> history) {
    List<int[]> out = new ArrayList<>();
    int i = 0;
    while (i < history.size()) {
      int end = i + 1;
      if (!history.get(i).toolCallsJson().isEmpty()) {
        while (end < history.size() && history.get(end).isToolResult()) end++;
      }
      out.add(new int[] {i, end});
      i = end;
    }
    return out;
  }

  private static String describe(List<Turn> history, int[] span) {
    Turn t = history.get(span[0]);
    int results = span[1] - span[0] - 1;
    return t.role() + " turn" + (results > 0 ? " with its " + results + " tool result" + (results > 1 ? "s" : "") : "");
  }
}
