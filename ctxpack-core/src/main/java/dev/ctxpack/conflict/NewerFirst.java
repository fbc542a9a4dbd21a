package dev.ctxpack.conflict;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.order.OrderMode;
import java.util.ArrayList;
import java.util.List;

/**
 * After ordering, the newer source of every dated conflict takes the stronger of the two positions
 * the pair holds, so a model reading the strongest positions reads the current version. Stateless.
 */
public final class NewerFirst {
  private NewerFirst() {}

  /**
   * Moves the newer passage of every dated pair into the stronger of the two positions they hold
   * (lost-in-the-middle: first, last, second, second to last...; position: later, nearer the question,
   * which its date order already gives a dated pair; otherwise earlier), recording each swap in
   * {@code trace}.
   */
  public static List<Passage> apply(List<Passage> ordered, List<Conflict> found, OrderMode mode, Trace trace) {
    List<Passage> out = new ArrayList<>(ordered);
    for (Conflict f : found) {
      if (!f.dated()) continue;
      int n = indexOf(out, f.first());
      int o = indexOf(out, f.second());
      if (n < 0 || o < 0 || strength(n, out.size(), mode) < strength(o, out.size(), mode)) continue;
      Passage newer = out.get(n);
      out.set(n, out.get(o));
      out.set(o, newer);
      trace.add(Stage.ORDER, Action.PREFER_NEWER, "conflict:" + f.kind(), List.of(f.first(), f.second()), "", 0,
          "the newer source (" + f.firstDate() + ") takes position " + (o + 1) + ", the older (" + f.secondDate()
              + ") position " + (n + 1) + " of " + out.size() + " (" + mode.key() + ")");
    }
    return List.copyOf(out);
  }

  /** 0 for the strongest position. */
  static int strength(int i, int n, OrderMode mode) {
    if (mode == OrderMode.POSITION) return n - 1 - i; // reading order: the newer is read last
    if (mode != OrderMode.LOST_IN_THE_MIDDLE) return i;
    int front = (n + 1) / 2; // lost-in-the-middle fills ranks 1, 3, 5... from the front
    return i < front ? 2 * i : 2 * (n - 1 - i) + 1;
  }

  private static int indexOf(List<Passage> l, String id) {
    for (int i = 0; i < l.size(); i++) if (l.get(i).id().equals(id)) return i;
    return -1;
  }
}
