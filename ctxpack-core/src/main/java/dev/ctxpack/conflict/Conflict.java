package dev.ctxpack.conflict;

import java.util.List;

/**
 * One disagreement between two selected passages, by passage id: {@code kind} is {@code number},
 * {@code date} or {@code version}; {@code first} is the newer when {@code dated}; {@code values}
 * what each states that the other does not (empty when withheld); {@code detail} why they disagree.
 */
public record Conflict(String kind, String first, String second, String firstDate, String secondDate,
    List<String> values, boolean dated, String detail) {
  public Conflict {
    values = List.copyOf(values);
  }
}
