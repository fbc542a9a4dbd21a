package dev.ctxpack.dedup;

/**
 * Why the cascade kept two matching passages apart ({@link KeptApart}): the {@link
 * dev.ctxpack.similarity.Guard} found them stating one thing with a different negation, number,
 * date or condition, or two windows of one document disagree where their offsets overlap.
 */
public enum Difference {
  NEGATION("negation"),
  NUMBER("number"),
  DATE("date"),
  CONDITION("condition"),
  /** Overlapping windows of one document whose texts differ where they overlap (not stitched). */
  TEXTS_DISAGREE("texts-disagree");

  private final String key;

  Difference(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  /** The difference the guard names {@code kind} ({@code negation}, {@code number}, {@code date}, {@code condition}). */
  public static Difference ofGuard(String kind) {
    for (Difference d : values()) if (d.key.equals(kind)) return d;
    throw new IllegalArgumentException("unknown guard kind '" + kind + "'");
  }

  /** A number or a date: a difference in what the texts state, which two sources may disagree on. */
  public boolean isFigure() {
    return this == NUMBER || this == DATE;
  }
}
