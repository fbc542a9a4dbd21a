package dev.ctxpack.app.cli;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.PlanStep;

/** The text formats for people of a package: its plan, its budget report, a plan run. */
final class Texts {
  private Texts() {}

  /** A plan for people: each step's header (kind, what it sees, its tokens and output bound), then its prompt. */
  static String plan(ContextPackage p) {
    StringBuilder sb = new StringBuilder();
    for (PlanStep s : p.plan()) {
      sb.append("=== step ").append(s.step()).append(" of ").append(p.plan().size()).append(": ").append(s.kind())
          .append(" · sees ").append(String.join(", ", s.sees())).append(" · ").append(s.tokens()).append(" tokens");
      if (s.maxOutput() > 0) sb.append(" · output at most ").append(s.maxOutput());
      sb.append(" ===\n").append(s.prompt());
      if (!s.prompt().endsWith("\n")) sb.append('\n');
    }
    return sb.toString();
  }

  /** One line per step run, and the totals, for stderr. */
  static String execution(dev.ctxpack.pack.PlanExecutor.Execution e) {
    StringBuilder sb = new StringBuilder();
    for (dev.ctxpack.pack.PlanExecutor.StepRun r : e.steps()) {
      sb.append("step ").append(r.step()).append(" (").append(r.kind()).append(", ").append(r.by()).append("): ")
          .append(r.tokensIn()).append(" tokens in, ").append(r.tokensOut()).append(" out")
          .append(r.truncated() ? " (cut to its bound)" : "").append('\n');
    }
    sb.append(e.llm() == null ? "offline: the final prompt above is ready to send; " : e.llm() + ": ")
        .append(e.calls()).append(" calls, ").append(e.tokensIn()).append(" tokens in, ").append(e.tokensOut()).append(" out");
    return sb.toString();
  }

  /** The budget report as text lines for people. */
  static String budget(ContextPackage p) {
    StringBuilder sb = new StringBuilder();
    sb.append("budget: ").append(p.budget().used()).append(" of ").append(p.budget().limit()).append(" tokens used, ")
        .append(p.budget().left()).append(" left");
    if (p.budget().reserve() > 0) sb.append(", ").append(p.budget().reserve()).append(" reserved for generation");
    sb.append('\n');
    p.budget().byComponent().forEach((k, v) -> sb.append("  ").append(String.format("%-13s", k)).append(v).append('\n'));
    if (p.plan().size() > 1) {
      sb.append("plan: ").append(p.strategy()).append(", ").append(p.plan().size()).append(" calls (used: the largest call)\n");
    }
    if (p.fallback() != null) sb.append("fallback: ").append(p.fallback().reason()).append('\n');
    sb.append("sources: ").append(p.sources().size());
    long drops = p.trace().stream().filter(d -> d.action() == Action.DROP).count();
    sb.append(", decisions: ").append(p.trace().size()).append(" (").append(drops).append(" drops)");
    return sb.toString();
  }
}
