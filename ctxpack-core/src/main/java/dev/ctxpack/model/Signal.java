package dev.ctxpack.model;

/** A scoring signal a candidate can carry. */
public enum Signal {
  BM25("bm25"),
  DENSE("dense"),
  FUSED("fused"),
  RERANK("rerank");

  private final String key;

  Signal(String key) {
    this.key = key;
  }

  /** The JSON key of this signal. */
  public String key() {
    return key;
  }
}
