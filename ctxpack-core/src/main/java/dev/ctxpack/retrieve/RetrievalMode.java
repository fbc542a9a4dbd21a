package dev.ctxpack.retrieve;

import java.util.Locale;

/** Which signals retrieval uses. */
public enum RetrievalMode {
  BM25,
  DENSE,
  HYBRID;

  public static RetrievalMode parse(String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "bm25", "sparse" -> BM25;
      case "dense", "vector" -> DENSE;
      case "hybrid" -> HYBRID;
      default -> throw new IllegalArgumentException("unknown mode '" + s + "': use bm25, dense or hybrid");
    };
  }

  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }
}
