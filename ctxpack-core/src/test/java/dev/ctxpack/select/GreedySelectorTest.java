package dev.ctxpack.select;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import static dev.ctxpack.testing.Fixtures.passage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class GreedySelectorTest {
  private final GreedySelector selector = new GreedySelector();
  private static final ToIntFunction<Passage> TOKENS = p -> p.primary().chunk().tokens();

  private static List<Passage> passagesCosting(List<Integer> costs) {
    List<Passage> out = new ArrayList<>();
    for (int i = 0; i < costs.size(); i++) out.add(passage("p" + i, "d", i * 10, "text " + i, costs.get(i), 100 - i));
    return out;
  }

  @Example
  void skipsABigPassageAndTakesASmallerLaterOne() {
    List<Passage> ranked = passagesCosting(List.of(60, 50, 30, 20));
    Trace trace = new Trace();
    List<Passage> out = selector.select(ranked, Selection.byScore(100, TOKENS), trace);

    assertThat(out).extracting(Passage::id).containsExactly("p0", "p2");
    List<Decision> drops = trace.decisions();
    assertThat(drops).extracting(Decision::ids).containsExactly(List.of("p1"), List.of("p3"));
    assertThat(drops).allSatisfy(d -> {
      assertThat(d.stage()).isEqualTo(Stage.SELECT);
      assertThat(d.action()).isEqualTo(Action.DROP);
      assertThat(d.rule()).isEqualTo("budget");
    });
    assertThat(drops).extracting(Decision::tokensSaved).containsExactly(50, 20);
    assertThat(drops.get(0).reason()).contains("50").contains("40");
  }

  @Example
  void aZeroBudgetSelectsNothingAndSaysSo() {
    Trace trace = new Trace();
    assertThat(selector.select(passagesCosting(List.of(1, 2)), Selection.byScore(0, TOKENS), trace)).isEmpty();
    assertThat(trace.decisions()).hasSize(2);
  }

  @Example
  void exactFitIsTaken() {
    assertThat(selector.select(passagesCosting(List.of(40, 60)), Selection.byScore(100, TOKENS), new Trace())).hasSize(2);
  }

  @Property(tries = 500)
  void neverExceedsTheBudgetAndRecordsEveryDrop(
      @ForAll @Size(max = 30) List<@IntRange(min = 0, max = 200) Integer> costs,
      @ForAll @IntRange(min = 0, max = 1000) int budget) {
    List<Passage> ranked = passagesCosting(costs);
    Trace trace = new Trace();
    List<Passage> out = selector.select(ranked, Selection.byScore(budget, TOKENS), trace);

    assertThat(out.stream().mapToInt(TOKENS).sum()).isLessThanOrEqualTo(budget);
    assertThat(out).isSubsetOf(ranked);
    assertThat(out).isSortedAccordingTo((a, b) -> Integer.compare(ranked.indexOf(a), ranked.indexOf(b)));
    List<String> dropped = trace.decisions().stream().flatMap(d -> d.ids().stream()).toList();
    assertThat(dropped).hasSize(ranked.size() - out.size());
    assertThat(dropped).noneMatch(id -> out.stream().anyMatch(p -> p.id().equals(id)));
    // Greedy: a passage was dropped only because it did not fit in what was left at its turn.
    int used = 0;
    for (Passage p : ranked) {
      if (out.contains(p)) used += TOKENS.applyAsInt(p);
      else assertThat(TOKENS.applyAsInt(p)).as(p.id()).isGreaterThan(budget - used);
    }
  }
}
