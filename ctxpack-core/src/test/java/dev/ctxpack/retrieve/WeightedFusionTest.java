package dev.ctxpack.retrieve;

import static dev.ctxpack.testing.Fixtures.bm25;
import static dev.ctxpack.testing.Fixtures.dense;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Signal;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WeightedFusionTest {
  // BM25 min-max: a 1, b 0.5, c 0. Dense min-max: c 1, d 0.5, a 0.
  private final List<Candidate> sparse = List.of(bm25("a", 10.0), bm25("b", 5.0), bm25("c", 0.0));
  private final List<Candidate> dense = List.of(dense("c", 0.9), dense("d", 0.5), dense("a", 0.1));

  private static List<String> ids(List<Candidate> cs) {
    return cs.stream().map(c -> c.chunk().id()).toList();
  }

  private static Map<String, Double> fused(List<Candidate> cs) {
    return cs.stream().collect(Collectors.toMap(c -> c.chunk().id(), c -> c.scores().get(Signal.FUSED).getAsDouble()));
  }

  @Test
  void goldenScoresFavouringBm25() {
    List<Candidate> out = new WeightedFusion(0.7, 0.3).fuse(List.of(sparse, dense), 10);
    Map<String, Double> f = fused(out);
    assertThat(f.get("a")).isCloseTo(0.7, within(1e-12));
    assertThat(f.get("b")).isCloseTo(0.35, within(1e-12));
    assertThat(f.get("c")).isCloseTo(0.3, within(1e-12));
    assertThat(f.get("d")).isCloseTo(0.15, within(1e-12));
    assertThat(ids(out)).containsExactly("a", "b", "c", "d");
  }

  @Test
  void goldenScoresFavouringDense() {
    List<Candidate> out = new WeightedFusion(0.3, 0.7).fuse(List.of(sparse, dense), 10);
    Map<String, Double> f = fused(out);
    assertThat(f.get("c")).isCloseTo(0.7, within(1e-12));
    assertThat(f.get("d")).isCloseTo(0.35, within(1e-12));
    assertThat(f.get("a")).isCloseTo(0.3, within(1e-12));
    assertThat(f.get("b")).isCloseTo(0.15, within(1e-12));
    assertThat(ids(out)).containsExactly("c", "d", "a", "b");
  }

  @Test
  void perSignalScoresArePreserved() {
    Map<String, Candidate> m = new WeightedFusion(0.5, 0.5).fuse(List.of(sparse, dense), 10).stream()
        .collect(Collectors.toMap(c -> c.chunk().id(), Function.identity()));
    assertThat(m.get("a").scores().get(Signal.BM25)).hasValue(10.0);
    assertThat(m.get("a").scores().get(Signal.DENSE)).hasValue(0.1);
    assertThat(m.get("c").scores().get(Signal.BM25)).hasValue(0.0);
    assertThat(m.get("c").scores().get(Signal.DENSE)).hasValue(0.9);
    assertThat(m.get("b").scores().get(Signal.DENSE)).isEmpty();
  }

  @Test
  void equalScoresNormaliseToOneAndTieByChunkId() {
    List<Candidate> flat = List.of(bm25("y", 2.0), bm25("x", 2.0));
    List<Candidate> out = new WeightedFusion(1.0).fuse(List.of(flat), 10);
    assertThat(ids(out)).containsExactly("x", "y");
    assertThat(fused(out).values()).containsOnly(1.0);
  }

  @Test
  void topKAndEmptyLists() {
    assertThat(ids(new WeightedFusion(0.7, 0.3).fuse(List.of(sparse, dense), 1))).containsExactly("a");
    assertThat(ids(new WeightedFusion(0.7, 0.3).fuse(List.of(sparse, List.of()), 10))).containsExactly("a", "b", "c");
    assertThat(new WeightedFusion(1.0).fuse(List.of(), 10)).isEmpty();
  }

  @Test
  void badConfigurationIsRejected() {
    assertThatThrownBy(WeightedFusion::new).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weight");
    assertThatThrownBy(() -> new WeightedFusion(0.5, -0.5)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-0.5");
    assertThatThrownBy(() -> new WeightedFusion(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThat(new WeightedFusion(0.7, 0.3).describe()).contains("0.7").contains("0.3");
  }
}
