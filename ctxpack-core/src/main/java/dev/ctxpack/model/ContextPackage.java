package dev.ctxpack.model;

import java.util.List;

/**
 * The result of packing: the prompt (and its plan), the sources, the budget report, the trace, the
 * pairs of sources that disagree ({@link SourceConflict}), the strategy the plan follows and, when a
 * stuff request could not fit and became a plan, why ({@link Fallback}; null otherwise).
 *
 * <p>With {@code stuff}, {@code prompt} is the one prompt; with a plan strategy it is the final
 * step's prompt, placeholders included ({@link PlanStep}).
 */
public record ContextPackage(
    String query,
    String prompt,
    List<Source> sources,
    BudgetReport budget,
    List<PlanStep> plan,
    List<Decision> trace,
    List<SourceConflict> conflicts,
    String strategy,
    Fallback fallback) {
  public ContextPackage {
    sources = List.copyOf(sources);
    plan = List.copyOf(plan);
    trace = List.copyOf(trace);
    conflicts = conflicts == null ? List.of() : List.copyOf(conflicts);
    strategy = strategy == null ? "stuff" : strategy;
  }

  /** A stuffed package. */
  public ContextPackage(String query, String prompt, List<Source> sources, BudgetReport budget, List<PlanStep> plan,
      List<Decision> trace, List<SourceConflict> conflicts) {
    this(query, prompt, sources, budget, plan, trace, conflicts, "stuff", null);
  }

  /** A package without conflicts. */
  public ContextPackage(String query, String prompt, List<Source> sources, BudgetReport budget, List<PlanStep> plan,
      List<Decision> trace) {
    this(query, prompt, sources, budget, plan, trace, List.of());
  }

  /**
   * Why a stuff request became a plan: its relevant evidence needed {@code relevantTokens} in one
   * prompt, more than {@code limit}.
   */
  public record Fallback(String from, String to, int relevantTokens, int limit, String reason) {}
}
