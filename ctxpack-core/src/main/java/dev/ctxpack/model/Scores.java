package dev.ctxpack.model;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/** Scores of one candidate, one per signal it was seen by. Immutable. */
public final class Scores {
  private static final Scores EMPTY = new Scores(new EnumMap<>(Signal.class));
  private final EnumMap<Signal, Double> values;

  private Scores(EnumMap<Signal, Double> values) {
    this.values = values;
  }

  public static Scores empty() {
    return EMPTY;
  }

  public static Scores of(Signal signal, double value) {
    return EMPTY.with(signal, value);
  }

  public Scores with(Signal signal, double value) {
    if (Double.isNaN(value)) throw new IllegalArgumentException(signal.key() + " score is NaN");
    EnumMap<Signal, Double> copy = new EnumMap<>(Signal.class);
    copy.putAll(values);
    copy.put(signal, value);
    return new Scores(copy);
  }

  /** Scores of both, {@code other} winning where both have a signal. */
  public Scores merge(Scores other) {
    EnumMap<Signal, Double> copy = new EnumMap<>(Signal.class);
    copy.putAll(values);
    copy.putAll(other.values);
    return new Scores(copy);
  }

  public OptionalDouble get(Signal signal) {
    Double v = values.get(signal);
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }

  public double getOr(Signal signal, double fallback) {
    Double v = values.get(signal);
    return v == null ? fallback : v;
  }

  public Map<Signal, Double> asMap() {
    return Collections.unmodifiableMap(values);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Scores s && s.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
