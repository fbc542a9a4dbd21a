package dev.ctxpack.model;

import java.util.List;
import java.util.Objects;

/**
 * One audit line of a request's trace: which stage did what to which ids, under which rule, and why.
 * Nothing is dropped, merged or trimmed without one.
 */
public record Decision(
    String stage, String action, String rule, List<String> ids, String into, int tokensSaved, String reason) {
  public Decision {
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(action, "action");
    rule = rule == null ? "" : rule;
    ids = ids == null ? List.of() : List.copyOf(ids);
    into = into == null ? "" : into;
    reason = reason == null ? "" : reason;
  }
}
