package dev.ctxpack.ingest.clean;

import java.util.Objects;

/**
 * One span cleaning removed: {@code [start, end)} in the text as the loader read it, and that text.
 * A removed line includes its line break.
 */
public record Removal(Reason reason, int start, int end, String text) {
  public Removal {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(text, "text");
    if (start < 0 || end < start) throw new IllegalArgumentException("bad range [" + start + ", " + end + ")");
  }
}
