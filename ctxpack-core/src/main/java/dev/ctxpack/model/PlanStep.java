package dev.ctxpack.model;

import java.util.List;

/** One call of a prompt plan: what kind of call, which sources it sees and its exact prompt. */
public record PlanStep(int step, String kind, List<String> sees, String prompt) {
  public PlanStep {
    sees = List.copyOf(sees);
  }
}
