package dev.ctxpack.pack;

import java.util.Locale;

/** How the evidence is spread over model calls. This version emits {@link #STUFF} plans. */
public enum Strategy {
  STUFF("stuff"),
  MAP_REDUCE("map-reduce"),
  REFINE("refine"),
  TREE("tree");

  private final String key;

  Strategy(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  public static Strategy parse(String s) {
    String k = s.trim().toLowerCase(Locale.ROOT);
    for (Strategy v : values()) {
      if (v.key.equals(k)) return v;
    }
    throw new IllegalArgumentException("unknown strategy '" + s + "': use stuff, map-reduce, refine or tree");
  }
}
