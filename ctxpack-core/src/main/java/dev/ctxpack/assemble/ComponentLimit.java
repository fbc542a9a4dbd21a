package dev.ctxpack.assemble;

/**
 * How one component shares the window. {@code floor} tokens are set aside for it before the others
 * are served (up to what it needs); {@code cap} is the most it may take; components are served in
 * descending {@code priority} (ties in {@link Component} order), each taking what it needs within
 * its cap from what the ones before it left. A {@code pinned} component is sent whole: the request
 * fails when the pinned parts alone do not fit. Pinned tools and pinned history turns are always
 * sent whatever their component's limit.
 */
public record ComponentLimit(int floor, int cap, int priority, boolean pinned) {
  /** No cap. */
  public static final int UNCAPPED = Integer.MAX_VALUE;

  public ComponentLimit {
    if (floor < 0) throw new IllegalArgumentException("floor must be >= 0, was " + floor);
    if (cap < 0) throw new IllegalArgumentException("cap must be >= 0, was " + cap);
    if (floor > cap) throw new IllegalArgumentException("floor " + floor + " is above the cap " + cap);
  }

  /**
   * The defaults: system and query pinned (priority 100); tools (80) and evidence (70) by need;
   * memories (60); history (50) and few-shot (40) from what is left; no floors, no caps.
   */
  public static ComponentLimit defaults(Component c) {
    return switch (c) {
      case SYSTEM, QUERY -> new ComponentLimit(0, UNCAPPED, 100, true);
      case TOOLS -> new ComponentLimit(0, UNCAPPED, 80, false);
      case EVIDENCE -> new ComponentLimit(0, UNCAPPED, 70, false);
      case MEMORIES -> new ComponentLimit(0, UNCAPPED, 60, false);
      case HISTORY -> new ComponentLimit(0, UNCAPPED, 50, false);
      case FEW_SHOT -> new ComponentLimit(0, UNCAPPED, 40, false);
    };
  }

  public ComponentLimit withFloor(int f) {
    return new ComponentLimit(f, cap, priority, pinned);
  }

  public ComponentLimit withCap(int c) {
    return new ComponentLimit(floor, c, priority, pinned);
  }

  public ComponentLimit withPriority(int p) {
    return new ComponentLimit(floor, cap, p, pinned);
  }

  public ComponentLimit withPinned(boolean p) {
    return new ComponentLimit(floor, cap, priority, p);
  }

  String describe() {
    return "floor " + floor + ", cap " + (cap == UNCAPPED ? "none" : cap) + ", priority " + priority + (pinned ? ", pinned" : "");
  }
}
