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
    Fallback fallback,
    Evidence evidence) {
  public ContextPackage {
    evidence = evidence == null ? Evidence.UNCHECKED : evidence;
    sources = List.copyOf(sources);
    plan = List.copyOf(plan);
    trace = List.copyOf(trace);
    conflicts = conflicts == null ? List.of() : List.copyOf(conflicts);
    strategy = strategy == null ? "stuff" : strategy;
  }

  /** A package whose evidence was not judged against a relevance line ({@link Evidence#UNCHECKED}). */
  public ContextPackage(String query, String prompt, List<Source> sources, BudgetReport budget, List<PlanStep> plan,
      List<Decision> trace, List<SourceConflict> conflicts, String strategy, Fallback fallback) {
    this(query, prompt, sources, budget, plan, trace, conflicts, strategy, fallback, Evidence.UNCHECKED);
  }

  /** This package with {@code e} as its evidence judgement. */
  public ContextPackage withEvidence(Evidence e) {
    return new ContextPackage(query, prompt, sources, budget, plan, trace, conflicts, strategy, fallback, e);
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

  /**
   * Whether the evidence clears the request's relevance line: {@code status} is {@code sufficient}
   * (some sentence's probability of holding the answer is at least {@code line}), {@code
   * insufficient} (none is; {@code closest} lists the best candidates' sentences, best first) or
   * {@code unchecked} (no line: compression off or a line of 0). {@code action} is what the request
   * did about it ({@code abstain} or {@code best-effort}; empty when sufficient or unchecked).
   */
  public record Evidence(String status, double line, String action, List<Closest> closest) {
    public static final Evidence UNCHECKED = new Evidence("unchecked", 0, "", List.of());

    public Evidence {
      java.util.Objects.requireNonNull(status, "status");
      action = action == null ? "" : action;
      closest = closest == null ? List.of() : List.copyOf(closest);
    }

    public static Evidence sufficient(double line) {
      return new Evidence("sufficient", line, "", List.of());
    }

    public boolean insufficient() {
      return status.equals("insufficient");
    }
  }

  /**
   * A candidate sentence that did not clear the line: its passage (the id the trace names), the
   * document and offsets it comes from, its probability of holding the answer and its text.
   */
  public record Closest(String passage, String docId, int start, int end, double score, String text) {}
}
