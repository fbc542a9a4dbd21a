package dev.ctxpack.assemble;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The waste report: a component over {@link Assembler#WASTE_SHARE} of the window, and what would shrink it. */
final class WasteReport {
  private WasteReport() {}

  /** Every component over {@link Assembler#WASTE_SHARE} of the window, with what would shrink it. */
  static List<Assembly.WasteFlag> flags(AssembleRequest r, Map<Component, Integer> by) {
    List<Assembly.WasteFlag> out = new ArrayList<>();
    int cap = (int) Math.floor(r.window() * Assembler.WASTE_SHARE);
    for (Component c : Component.values()) {
      int t = by.getOrDefault(c, 0);
      if (t <= cap) continue;
      String shrink = switch (c) {
        case SYSTEM -> "shorten the system prompt (it is sent whole), or move reference text in it to retrieval";
        case TOOLS -> "send only the most relevant tools: set limits.tools.cap (e.g. " + cap + "), unpin tools, or shorten their descriptions";
        case HISTORY -> "set limits.history.cap (e.g. " + cap + ") so older turns are left out or summarised, or pin fewer turns";
        case FEW_SHOT -> "set limits.fewShot.cap (e.g. " + cap + ") or give fewer, shorter examples";
        case MEMORIES -> "set limits.memories.cap (e.g. " + cap + ") or recall fewer memories (memories.k)";
        case EVIDENCE -> "lower retrieval.budget or set limits.evidence.cap (e.g. " + cap + ")";
        case QUERY -> "shorten the query (it is sent whole), or send long reference text as retrieval instead";
      };
      out.add(new Assembly.WasteFlag(c, t, (double) t / r.window(), shrink));
    }
    return out;
  }
}
