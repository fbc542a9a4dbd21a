package dev.ctxpack.pack;

import java.util.Locale;

/**
 * How the evidence is spread over model calls: {@link #STUFF} one prompt; {@link #MAP_REDUCE} notes
 * per group of sources, then one call over the notes; {@link #REFINE} a draft carried through calls
 * that each read the next sources; {@link #TREE} section, then document, then collection summaries.
 * The plan strategies are laid out by {@link PlanBuilder} and run by {@link PlanExecutor}.
 */
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
