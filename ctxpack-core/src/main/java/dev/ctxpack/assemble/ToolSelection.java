package dev.ctxpack.assemble;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tools a window sends: ranked by a {@link ToolRanker}, pinned ones always, the others in rank
 * order while they fit the grant (one that does not fit is skipped, so a smaller one after it may
 * still go); each is a {@code tools} decision with its rank, score and cost. Sent in the request's
 * order, so the same tools keep the same place from one turn to the next.
 */
final class ToolSelection {
  private ToolSelection() {}

  record Chosen(List<ToolSpec> tools, int tokens) {}

  static Chosen select(ToolRanker toolRanker, String focus, List<ToolSpec> tools, int[] toolCost, int grant, Trace trace)
      throws IOException {
    if (tools.isEmpty()) return new Chosen(List.of(), 0);
    Map<String, Integer> index = new java.util.HashMap<>();
    for (int i = 0; i < tools.size(); i++) index.put(tools.get(i).name(), i);
    List<ToolRanker.Ranked> ranked = toolRanker.rank(focus, tools);
    if (ranked.size() != tools.size() || ranked.stream().map(t -> t.tool().name()).distinct().count() != tools.size()
        || !ranked.stream().allMatch(t -> index.containsKey(t.tool().name()))) {
      throw new IllegalStateException("tool ranker '" + toolRanker.id() + "' did not return every tool exactly once");
    }
    boolean[] send = new boolean[tools.size()];
    int used = 0;
    for (int i = 0; i < tools.size(); i++) {
      if (tools.get(i).pinned()) {
        send[i] = true;
        used += toolCost[i];
      }
    }
    for (int rank = 0; rank < ranked.size(); rank++) {
      ToolRanker.Ranked t = ranked.get(rank);
      int i = index.get(t.tool().name());
      String why = "rank " + (rank + 1) + ", score " + String.format(Locale.ROOT, "%.4f", t.score()) + ", " + toolCost[i] + " tokens";
      if (send[i]) {
        trace.add(Stage.TOOLS, Action.KEEP, "tools:pinned", List.of(t.tool().name()), "", 0, why);
      } else if (used + toolCost[i] <= grant) {
        send[i] = true;
        used += toolCost[i];
        trace.add(Stage.TOOLS, Action.KEEP, "tools:" + toolRanker.id(), List.of(t.tool().name()), "", 0, why);
      } else {
        trace.add(Stage.TOOLS, Action.DROP, "tools:budget", List.of(t.tool().name()), "", toolCost[i],
            why + ": does not fit the " + (grant - used) + " left of " + grant);
      }
    }
    List<ToolSpec> out = new ArrayList<>();
    for (int i = 0; i < tools.size(); i++) if (send[i]) out.add(tools.get(i));
    return new Chosen(out, used);
  }
}
