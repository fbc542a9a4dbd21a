package dev.ctxpack.order;

import static dev.ctxpack.testing.Fixtures.passage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DefaultOrdererTest {
  private final DefaultOrderer orderer = new DefaultOrderer();

  // p1 is the best (score 5), p5 the weakest. Documents: A holds p1 and p4, B holds p2 and p3, C holds p5.
  private final Passage p1 = passage("p1", "A", 100, "one", 1, 5);
  private final Passage p2 = passage("p2", "B", 50, "two", 1, 4);
  private final Passage p3 = passage("p3", "B", 0, "three", 1, 3);
  private final Passage p4 = passage("p4", "A", 10, "four", 1, 2);
  private final Passage p5 = passage("p5", "C", 0, "five", 1, 1);

  private List<Passage> shuffled() {
    List<Passage> l = new ArrayList<>(List.of(p1, p2, p3, p4, p5));
    Collections.shuffle(l, new Random(3));
    return l;
  }

  @Test
  void lostInTheMiddlePutsTheTwoStrongestAtTheEnds() {
    Trace trace = new Trace();
    List<Passage> out = orderer.order(shuffled(), OrderMode.LOST_IN_THE_MIDDLE, trace);
    assertThat(out).containsExactly(p1, p3, p5, p4, p2);
    assertThat(out.get(0)).isEqualTo(p1);
    assertThat(out.get(out.size() - 1)).isEqualTo(p2);
    assertThat(orderer.order(List.of(p2, p1), OrderMode.LOST_IN_THE_MIDDLE, trace)).containsExactly(p1, p2);
    assertThat(orderer.order(List.of(p3), OrderMode.LOST_IN_THE_MIDDLE, trace)).containsExactly(p3);
  }

  @Test
  void scoreOrderIsBestFirstWithTiesById() {
    Passage tieB = passage("b", "X", 0, "x", 1, 2);
    Passage tieA = passage("a", "Y", 0, "y", 1, 2);
    List<Passage> out = orderer.order(List.of(p5, tieB, p1, tieA), OrderMode.SCORE, new Trace());
    assertThat(out).containsExactly(p1, tieA, tieB, p5);
  }

  @Test
  void sourceOrderGroupsByDocumentAndSortsBySpanStart() {
    List<Passage> out = orderer.order(shuffled(), OrderMode.SOURCE, new Trace());
    // documents in the order of their best passage (A: p1, B: p2, C: p5); inside each, by position
    assertThat(out).containsExactly(p4, p1, p3, p2, p5);
  }

  @Test
  void theTraceSaysWhichOrderWasUsed() {
    for (OrderMode mode : OrderMode.values()) {
      Trace trace = new Trace();
      List<Passage> out = orderer.order(shuffled(), mode, trace);
      assertThat(trace.decisions()).hasSize(1);
      Decision d = trace.decisions().get(0);
      assertThat(d.stage()).isEqualTo("order");
      assertThat(d.rule()).isEqualTo(mode.key());
      assertThat(d.reason()).contains(mode.key());
      assertThat(d.ids()).containsExactlyElementsOf(out.stream().map(Passage::id).toList());
    }
  }

  @Test
  void orderingIsAPermutationAndDeterministic() {
    for (OrderMode mode : OrderMode.values()) {
      List<Passage> a = orderer.order(shuffled(), mode, new Trace());
      List<Passage> b = orderer.order(List.of(p5, p4, p3, p2, p1), mode, new Trace());
      assertThat(a).containsExactlyInAnyOrder(p1, p2, p3, p4, p5).isEqualTo(b);
    }
    assertThat(orderer.order(List.of(), OrderMode.LOST_IN_THE_MIDDLE, new Trace())).isEmpty();
  }

  @Test
  void modesParseByKey() {
    assertThat(OrderMode.parse(" Lost-In-The-Middle ")).isEqualTo(OrderMode.LOST_IN_THE_MIDDLE);
    assertThat(OrderMode.parse("source")).isEqualTo(OrderMode.SOURCE);
    assertThatThrownBy(() -> OrderMode.parse("random"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("random").hasMessageContaining("lost-in-the-middle");
  }
}
