package dev.ctxpack.order;

import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Implements every {@link OrderMode}. Ties are broken by passage id so the order is deterministic.
 *
 * <p>Lost-in-the-middle places passages ranked 1, 3, 5... from the start and 2, 4, 6... from the
 * end, so the two strongest are first and last and the weakest sit in the middle.
 */
public final class DefaultOrderer implements Orderer {
  static final Comparator<Passage> BY_SCORE =
      Comparator.comparingDouble((Passage p) -> -p.score()).thenComparing(Passage::id);

  @Override
  public List<Passage> order(List<Passage> selected, OrderMode mode, Trace trace) {
    List<Passage> byScore = new ArrayList<>(selected);
    byScore.sort(BY_SCORE);
    List<Passage> out = switch (mode) {
      case SCORE -> byScore;
      case LOST_IN_THE_MIDDLE -> lostInTheMiddle(byScore);
      case SOURCE -> bySource(byScore);
    };
    trace.add("order", "order", mode.key(), out.stream().map(Passage::id).toList(), "", 0,
        "ordered " + out.size() + " passages by " + mode.key());
    return List.copyOf(out);
  }

  private static List<Passage> lostInTheMiddle(List<Passage> byScore) {
    Passage[] slots = new Passage[byScore.size()];
    int front = 0;
    int back = byScore.size() - 1;
    for (int i = 0; i < byScore.size(); i++) {
      if (i % 2 == 0) slots[front++] = byScore.get(i);
      else slots[back--] = byScore.get(i);
    }
    return List.of(slots);
  }

  private static List<Passage> bySource(List<Passage> byScore) {
    Map<String, List<Passage>> groups = new LinkedHashMap<>();
    for (Passage p : byScore) {
      groups.computeIfAbsent(p.primary().doc().id(), d -> new ArrayList<>()).add(p);
    }
    List<Passage> out = new ArrayList<>();
    for (List<Passage> g : groups.values()) {
      g.sort(Comparator.comparingInt((Passage p) -> p.primary().chunk().span().start()).thenComparing(Passage::id));
      out.addAll(g);
    }
    return out;
  }
}
