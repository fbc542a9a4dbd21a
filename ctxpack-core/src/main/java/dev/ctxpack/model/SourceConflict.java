package dev.ctxpack.model;

import java.util.List;
import java.util.Objects;

/**
 * Two sources of a package that disagree: {@code kind} is {@code number} or {@code date} (the dedup
 * guard found aligned sentences whose figures or month names differ) or {@code version} (two
 * documents with the same title or URI and different dates). {@code sources} are the two labels,
 * {@code dates} their documents' dates (empty when undated), {@code values} what each states that
 * the other does not (empty for a version without such a difference); the first of each is the
 * newer source when both are dated.
 */
public record SourceConflict(String kind, List<String> sources, List<String> dates, List<String> values, String reason) {
  public SourceConflict {
    Objects.requireNonNull(kind, "kind");
    sources = List.copyOf(sources);
    dates = List.copyOf(dates);
    values = List.copyOf(values);
    reason = reason == null ? "" : reason;
  }

  /** The trace rule: {@code conflict:number}, {@code conflict:date} or {@code conflict:version}. */
  public String rule() {
    return "conflict:" + kind;
  }
}
