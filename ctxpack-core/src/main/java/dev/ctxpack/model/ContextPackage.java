package dev.ctxpack.model;

import java.util.List;

/** The result of packing: the prompt (and its plan), the sources, the budget report and the trace. */
public record ContextPackage(
    String query,
    String prompt,
    List<Source> sources,
    BudgetReport budget,
    List<PlanStep> plan,
    List<Decision> trace) {
  public ContextPackage {
    sources = List.copyOf(sources);
    plan = List.copyOf(plan);
    trace = List.copyOf(trace);
  }
}
