package dev.ctxpack.model;

import java.util.List;

/**
 * The result of packing: the prompt (and its plan), the sources, the budget report, the trace and
 * the pairs of sources that disagree ({@link SourceConflict}).
 */
public record ContextPackage(
    String query,
    String prompt,
    List<Source> sources,
    BudgetReport budget,
    List<PlanStep> plan,
    List<Decision> trace,
    List<SourceConflict> conflicts) {
  public ContextPackage {
    sources = List.copyOf(sources);
    plan = List.copyOf(plan);
    trace = List.copyOf(trace);
    conflicts = conflicts == null ? List.of() : List.copyOf(conflicts);
  }

  /** A package without conflicts. */
  public ContextPackage(String query, String prompt, List<Source> sources, BudgetReport budget, List<PlanStep> plan,
      List<Decision> trace) {
    this(query, prompt, sources, budget, plan, trace, List.of());
  }
}
