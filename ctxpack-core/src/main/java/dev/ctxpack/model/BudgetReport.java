package dev.ctxpack.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the tokens went. {@code used <= limit} always; {@code reserve} is the generation reserve
 * kept free outside {@code limit}.
 */
public record BudgetReport(int limit, int used, int reserve, Map<String, Integer> byComponent) {
  public BudgetReport {
    if (used > limit) throw new IllegalStateException("budget exceeded: used " + used + " > limit " + limit);
    byComponent = Collections.unmodifiableMap(new LinkedHashMap<>(byComponent));
  }

  public int left() {
    return limit - used;
  }
}
