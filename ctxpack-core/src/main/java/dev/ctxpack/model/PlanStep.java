package dev.ctxpack.model;

import java.util.List;

/**
 * One call of a prompt plan: what kind of call ({@code generate}, {@code map}, {@code collapse},
 * {@code reduce}, {@code refine}, {@code summarize-section}, {@code summarize-document}, {@code
 * summarize-collection}), what it sees (source labels {@code S1}... and the outputs of earlier steps,
 * {@code step:2}) and its exact prompt. A prompt that sees an earlier step's output holds the
 * placeholder {@code {{step:N}}} where that output goes ({@link #placeholder(int)}); the executor
 * fills it. {@code tokens} is what the prompt counts with every placeholder at its bound (the named
 * step's {@code maxOutput}); {@code maxOutput} bounds this step's own output (0: unbounded, the
 * final answer's).
 */
public record PlanStep(int step, String kind, List<String> sees, String prompt, int tokens, int maxOutput) {
  public PlanStep {
    sees = List.copyOf(sees);
    if (tokens < 0 || maxOutput < 0) throw new IllegalArgumentException("tokens and maxOutput must be >= 0");
  }

  /** A step without counts. */
  public PlanStep(int step, String kind, List<String> sees, String prompt) {
    this(step, kind, sees, prompt, 0, 0);
  }

  /** Where step {@code n}'s output goes in a later prompt: {@code {{step:n}}}. */
  public static String placeholder(int n) {
    return "{{step:" + n + "}}";
  }
}
