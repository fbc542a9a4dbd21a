package dev.ctxpack.model;

/**
 * A half-open range {@code [start, end)} of UTF-16 {@code char} offsets into a document's stored text,
 * the offsets {@link String#substring(int, int)} takes.
 */
public record Span(int start, int end) implements Comparable<Span> {
  public Span {
    if (start < 0) throw new IllegalArgumentException("span start must be >= 0, was " + start);
    if (end < start) throw new IllegalArgumentException("span end " + end + " is before start " + start);
  }

  public int length() {
    return end - start;
  }

  /** True when the spans share at least one char or touch end to start. */
  public boolean overlapsOrTouches(Span other) {
    return start <= other.end && other.start <= end;
  }

  public String of(String text) {
    return text.substring(start, end);
  }

  @Override
  public int compareTo(Span o) {
    return start != o.start ? Integer.compare(start, o.start) : Integer.compare(end, o.end);
  }
}
