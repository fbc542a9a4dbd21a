package dev.ctxpack.model;

/**
 * What a {@link Decision} did. {@link #key()} is the name the trace is written with (its JSON {@code
 * action} field). The plan step kinds ({@code map}, {@code reduce}, {@code refine}...) are actions of
 * the {@link Stage#PLAN} stage: each step of a plan is one decision.
 */
public enum Action {
  CONFIGURE("configure"),
  RETRIEVE("retrieve"),
  FALLBACK("fallback"),
  EXPAND("expand"),
  DOWN_WEIGHT("down-weight"),
  REFILL("refill"),
  DROP("drop"),
  MERGE("merge"),
  STITCH("stitch"),
  GROUP("group"),
  KEEP("keep"),
  PREFER("prefer"),
  RERANK("rerank"),
  COMPRESS("compress"),
  SUMMARY("summary"),
  SKIP("skip"),
  FLAG("flag"),
  ORDER("order"),
  PREFER_NEWER("prefer-newer"),
  REPEAT_KEY("repeat-key"),
  REDACT("redact"),
  STRIP("strip"),
  ESCAPE("escape"),
  QUARANTINE("quarantine"),
  RENDER("render"),
  MAP("map"),
  COLLAPSE("collapse"),
  REDUCE("reduce"),
  REFINE("refine"),
  SUMMARIZE_SECTION("summarize-section"),
  SUMMARIZE_DOCUMENT("summarize-document"),
  SUMMARIZE_COLLECTION("summarize-collection"),
  GENERATE("generate"),
  ALLOCATE("allocate"),
  RECALL("recall"),
  OVER_BUDGET("over-budget"),
  SUMMARISE("summarise"),
  PRUNE("prune"),
  /** A read answered without part of a distributed index (its missing shards in {@code ids}). */
  PARTIAL("partial");

  private final String key;

  Action(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  /** The action written {@code key}; an {@link IllegalArgumentException} naming it when there is none. */
  public static Action parse(String key) {
    for (Action a : values()) if (a.key.equals(key)) return a;
    throw new IllegalArgumentException("unknown action '" + key + "'");
  }

  @Override
  public String toString() {
    return key;
  }
}
