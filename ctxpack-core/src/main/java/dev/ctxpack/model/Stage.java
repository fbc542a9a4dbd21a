package dev.ctxpack.model;

/**
 * The stage a {@link Decision} comes from: the steps of a {@code pack} request in flow order, then
 * those of window assembly. {@link #key()} is the name the trace is written with (its JSON {@code
 * stage} field).
 */
public enum Stage {
  OPTIONS("options"),
  RETRIEVE("retrieve"),
  REFILL("refill"),
  DEDUP("dedup"),
  RERANK("rerank"),
  SELECT("select"),
  COMPRESS("compress"),
  CONFLICT("conflict"),
  ORDER("order"),
  REDACT("redact"),
  GUARD("guard"),
  RENDER("render"),
  PLAN("plan"),
  PACK("pack"),
  ASSEMBLE("assemble"),
  TOOLS("tools"),
  MEMORIES("memories"),
  FEW_SHOT("fewShot"),
  HISTORY("history"),
  EVIDENCE("evidence");

  private final String key;

  Stage(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  /** The stage written {@code key}; an {@link IllegalArgumentException} naming it when there is none. */
  public static Stage parse(String key) {
    for (Stage s : values()) if (s.key.equals(key)) return s;
    throw new IllegalArgumentException("unknown stage '" + key + "'");
  }

  @Override
  public String toString() {
    return key;
  }
}
