package dev.ctxpack.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties every ranking must satisfy (jqwik prints the seed of a failing case). */
class RankingMetricsPropertiesTest {

  record Case(List<String> ranking, Judgments judgments, int k) {}

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<List<String>> ranking = Arbitraries.integers().between(0, 15).map(i -> "d" + i).list().ofMaxSize(25);
    Arbitrary<Map<String, Integer>> gains = Arbitraries.maps(
        Arbitraries.integers().between(0, 15).map(i -> "d" + i), Arbitraries.integers().between(0, 4))
        .ofMinSize(1).ofMaxSize(10)
        .filter(m -> m.values().stream().anyMatch(g -> g > 0));
    Arbitrary<Integer> k = Arbitraries.integers().between(1, 30);
    return Combinators.combine(ranking, gains, k).as((r, g, kk) -> new Case(r, Judgments.of(g), kk));
  }

  @Property
  void everyMeasureLiesInZeroToOne(@ForAll("cases") Case c) {
    for (Measure m : Measure.values()) {
      assertThat(m.score(c.ranking(), c.judgments(), c.k())).as(m.label()).isBetween(0.0, 1.0 + 1e-12);
    }
  }

  @Property
  void duplicatesChangeNothingButTheirPositions(@ForAll("cases") Case c) {
    // Removing later copies and putting a non-relevant filler in their place leaves every measure as it was.
    List<String> filled = new ArrayList<>();
    var seen = new LinkedHashSet<String>();
    int filler = 0;
    for (String d : c.ranking()) filled.add(seen.add(d) ? d : "unjudged-" + filler++);
    for (Measure m : Measure.values()) {
      assertThat(m.score(filled, c.judgments(), c.k()))
          .as(m.label()).isCloseTo(m.score(c.ranking(), c.judgments(), c.k()), org.assertj.core.api.Assertions.within(1e-12));
    }
  }

  @Property
  void theIdealRankingScoresOneOnNdcg(@ForAll("cases") Case c) {
    Map<String, Integer> g = new HashMap<>(c.judgments().gains());
    List<String> ideal = g.entrySet().stream()
        .filter(e -> e.getValue() > 0)
        .sorted((a, b) -> b.getValue() - a.getValue())
        .map(Map.Entry::getKey)
        .toList();
    assertThat(RankingMetrics.ndcg(ideal, c.judgments(), c.k())).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-12));
  }
}
