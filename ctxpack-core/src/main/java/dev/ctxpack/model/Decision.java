package dev.ctxpack.model;

import java.util.List;
import java.util.Objects;

/**
 * One audit line of a request's trace: which stage did what to which ids, under which rule, and why;
 * stage and action are closed sets ({@link Stage}, {@link Action}), the rule is the stage's own
 * (a dedup level and its threshold, a guard cue, a compression reason...).
 * Nothing is dropped, merged or trimmed without one. {@code ids} are what the decision acted on
 * (the {@code from} side), {@code into} what they went into; {@code similarity} is the measured
 * similarity behind a dedup decision, {@code NaN} when none was measured.
 */
public record Decision(
    Stage stage,
    Action action,
    String rule,
    List<String> ids,
    String into,
    int tokensSaved,
    String reason,
    double similarity) {
  public Decision {
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(action, "action");
    rule = rule == null ? "" : rule;
    ids = ids == null ? List.of() : List.copyOf(ids);
    into = into == null ? "" : into;
    reason = reason == null ? "" : reason;
  }

  public Decision(Stage stage, Action action, String rule, List<String> ids, String into, int tokensSaved,
      String reason) {
    this(stage, action, rule, ids, into, tokensSaved, reason, Double.NaN);
  }

  /** The rule's family, the part before its first {@code ':'} ({@code near} of {@code near:jaccard>=0.85}). */
  public String level() {
    int i = rule.indexOf(':');
    return i < 0 ? rule : rule.substring(0, i);
  }

  public boolean hasSimilarity() {
    return !Double.isNaN(similarity);
  }
}
