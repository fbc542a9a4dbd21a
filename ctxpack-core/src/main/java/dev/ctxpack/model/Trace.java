package dev.ctxpack.model;

import java.util.ArrayList;
import java.util.List;

/** The audit log of one request, appended to by each stage in order. Not thread-safe. */
public final class Trace {
  private final List<Decision> decisions = new ArrayList<>();

  public void add(Decision d) {
    decisions.add(d);
  }

  public void add(Stage stage, Action action, String rule, List<String> ids, String into, int tokensSaved, String reason) {
    decisions.add(new Decision(stage, action, rule, ids, into, tokensSaved, reason));
  }

  public List<Decision> decisions() {
    return List.copyOf(decisions);
  }
}
