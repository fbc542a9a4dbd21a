package dev.ctxpack.dedup;

import java.util.Objects;

/**
 * Two passages the cascade matched at {@code level} but did not merge: {@code passage} stays apart
 * from {@code into}, the better one it matched, because of {@code difference}; {@code similarity} is
 * the measured match ({@code NaN} when none was measured) and {@code detail} the guard's own words
 * ("number differs: 30 dias vs 45 dias"). What conflict detection reads, instead of the trace.
 */
public record KeptApart(String passage, String into, DedupLevel level, Difference difference, double similarity,
    String detail) {
  public KeptApart {
    Objects.requireNonNull(passage, "passage");
    Objects.requireNonNull(into, "into");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(difference, "difference");
    detail = detail == null ? "" : detail;
  }
}
