package dev.ctxpack.retrieve;

import static dev.ctxpack.testing.Fixtures.bm25;
import static dev.ctxpack.testing.Fixtures.dense;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Signal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class FusionPropertiesTest {

  /** A ranked list of distinct chunk ids drawn from a small pool, so lists overlap. */
  @Provide
  Arbitrary<List<String>> rankings() {
    return Arbitraries.of("a", "b", "c", "d", "e", "f", "g", "h").set().ofMaxSize(8).map(ArrayList::new)
        .flatMap(ids -> Arbitraries.shuffle(ids));
  }

  private static List<Candidate> sparseList(List<String> ids) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) out.add(bm25(ids.get(i), 100 - i));
    return out;
  }

  private static List<Candidate> denseList(List<String> ids) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) out.add(dense(ids.get(i), 1.0 - i / 10.0));
    return out;
  }

  @Property(tries = 300)
  void rrfScoresAreTheSumOfReciprocalRanks(
      @ForAll("rankings") List<String> one, @ForAll("rankings") List<String> two, @ForAll @IntRange(min = 1, max = 100) int k) {
    List<Candidate> fused = new RrfFusion(k).fuse(List.of(sparseList(one), denseList(two)), 100);

    Set<String> all = new HashSet<>(one);
    all.addAll(two);
    assertThat(fused).hasSize(all.size());
    for (Candidate c : fused) {
      String id = c.chunk().id();
      double expected = (one.contains(id) ? 1.0 / (k + one.indexOf(id) + 1) : 0)
          + (two.contains(id) ? 1.0 / (k + two.indexOf(id) + 1) : 0);
      assertThat(c.scores().get(Signal.FUSED).getAsDouble()).as(id).isCloseTo(expected, within(1e-12));
      assertThat(c.scores().get(Signal.BM25).isPresent()).as(id).isEqualTo(one.contains(id));
      assertThat(c.scores().get(Signal.DENSE).isPresent()).as(id).isEqualTo(two.contains(id));
    }
    assertThat(fused).isSortedAccordingTo(Comparator
        .comparingDouble((Candidate c) -> -c.scores().get(Signal.FUSED).getAsDouble())
        .thenComparing(c -> c.chunk().id()));
  }

  @Property(tries = 300)
  void equalWeightFusionDoesNotDependOnTheOrderOfTheLists(
      @ForAll("rankings") List<String> one, @ForAll("rankings") List<String> two, @ForAll @IntRange(min = 0, max = 10) int topK) {
    List<String> ab = ids(new RrfFusion().fuse(List.of(sparseList(one), denseList(two)), topK));
    List<String> ba = ids(new RrfFusion().fuse(List.of(denseList(two), sparseList(one)), topK));
    assertThat(ab).isEqualTo(ba).hasSizeLessThanOrEqualTo(topK);
    List<String> wab = ids(new WeightedFusion(0.5, 0.5).fuse(List.of(sparseList(one), denseList(two)), topK));
    List<String> wba = ids(new WeightedFusion(0.5, 0.5).fuse(List.of(denseList(two), sparseList(one)), topK));
    assertThat(wab).isEqualTo(wba);
  }

  private static List<String> ids(List<Candidate> cs) {
    return cs.stream().map(c -> c.chunk().id()).toList();
  }
}
