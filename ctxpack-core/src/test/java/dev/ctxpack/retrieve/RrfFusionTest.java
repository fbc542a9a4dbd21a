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

class RrfFusionTest {
  // BM25 ranks a, b, c; dense ranks c, d, a.
  private final List<Candidate> sparse = List.of(bm25("a", 12.0), bm25("b", 9.5), bm25("c", 3.0));
  private final List<Candidate> dense = List.of(dense("c", 0.91), dense("d", 0.80), dense("a", 0.42));

  private static List<String> ids(List<Candidate> cs) {
    return cs.stream().map(c -> c.chunk().id()).toList();
  }

  private static Map<String, Candidate> byId(List<Candidate> cs) {
    return cs.stream().collect(Collectors.toMap(c -> c.chunk().id(), Function.identity()));
  }

  @Test
  void goldenScoresWithOneBasedRanks() {
    List<Candidate> fused = new RrfFusion().fuse(List.of(sparse, dense), 10);
    Map<String, Candidate> m = byId(fused);
    assertThat(m.get("a").scores().get(Signal.FUSED).getAsDouble()).isCloseTo(1.0 / 61 + 1.0 / 63, within(1e-15));
    assertThat(m.get("b").scores().get(Signal.FUSED).getAsDouble()).isCloseTo(1.0 / 62, within(1e-15));
    assertThat(m.get("c").scores().get(Signal.FUSED).getAsDouble()).isCloseTo(1.0 / 63 + 1.0 / 61, within(1e-15));
    assertThat(m.get("d").scores().get(Signal.FUSED).getAsDouble()).isCloseTo(1.0 / 62, within(1e-15));
    // a and c tie, as do b and d: ties go to the smaller chunk id.
    assertThat(ids(fused)).containsExactly("a", "c", "b", "d");
  }

  @Test
  void eachSignalsScoreIsKeptOnTheFusedCandidate() {
    Map<String, Candidate> m = byId(new RrfFusion().fuse(List.of(sparse, dense), 10));
    assertThat(m.get("a").scores().get(Signal.BM25)).hasValue(12.0);
    assertThat(m.get("a").scores().get(Signal.DENSE)).hasValue(0.42);
    assertThat(m.get("b").scores().get(Signal.BM25)).hasValue(9.5);
    assertThat(m.get("b").scores().get(Signal.DENSE)).isEmpty();
    assertThat(m.get("d").scores().get(Signal.DENSE)).hasValue(0.80);
    assertThat(m.get("d").scores().get(Signal.BM25)).isEmpty();
    assertThat(m.get("d").score()).as("the fused score ranks").isEqualTo(m.get("d").scores().get(Signal.FUSED).getAsDouble());
  }

  @Test
  void smallerKSharpensTheHead() {
    List<Candidate> fused = new RrfFusion(1).fuse(List.of(sparse, dense), 10);
    Map<String, Candidate> m = byId(fused);
    assertThat(m.get("a").scores().get(Signal.FUSED)).hasValue(1.0 / 2 + 1.0 / 4);
    assertThat(m.get("b").scores().get(Signal.FUSED)).hasValue(1.0 / 3);
  }

  @Test
  void weightsScaleEachList() {
    List<Candidate> fused = new RrfFusion(60, 2.0, 1.0).fuse(List.of(sparse, dense), 10);
    Map<String, Candidate> m = byId(fused);
    assertThat(m.get("a").scores().get(Signal.FUSED).getAsDouble()).isCloseTo(2.0 / 61 + 1.0 / 63, within(1e-15));
    assertThat(m.get("c").scores().get(Signal.FUSED).getAsDouble()).isCloseTo(2.0 / 63 + 1.0 / 61, within(1e-15));
    assertThat(ids(fused)).containsExactly("a", "c", "b", "d");

    List<Candidate> denseOnly = new RrfFusion(60, 0.0, 1.0).fuse(List.of(sparse, dense), 10);
    assertThat(ids(denseOnly)).containsExactly("c", "d", "a", "b");
    assertThat(byId(denseOnly).get("b").scores().get(Signal.FUSED)).hasValue(0.0);
  }

  @Test
  void listsBeyondTheGivenWeightsWeighOne() {
    List<Candidate> fused = new RrfFusion(60, 0.5).fuse(List.of(sparse, dense), 10);
    assertThat(byId(fused).get("d").scores().get(Signal.FUSED).getAsDouble()).isCloseTo(1.0 / 62, within(1e-15));
    assertThat(byId(fused).get("b").scores().get(Signal.FUSED).getAsDouble()).isCloseTo(0.5 / 62, within(1e-15));
  }

  @Test
  void topKCutsTheFusedList() {
    assertThat(ids(new RrfFusion().fuse(List.of(sparse, dense), 2))).containsExactly("a", "c");
    assertThat(new RrfFusion().fuse(List.of(sparse, dense), 0)).isEmpty();
    assertThat(new RrfFusion().fuse(List.of(sparse, dense), 100)).hasSize(4);
  }

  @Test
  void tiesAreBrokenByChunkIdWhateverTheInputOrder() {
    List<Candidate> one = List.of(bm25("z", 1), bm25("m", 1));
    List<Candidate> two = List.of(dense("m", 1), dense("z", 1));
    assertThat(ids(new RrfFusion().fuse(List.of(one, two), 10))).containsExactly("m", "z");
    assertThat(ids(new RrfFusion().fuse(List.of(two, one), 10))).containsExactly("m", "z");
  }

  @Test
  void emptyInputGivesEmptyOutput() {
    assertThat(new RrfFusion().fuse(List.of(), 10)).isEmpty();
    assertThat(new RrfFusion().fuse(List.of(List.of(), List.of()), 10)).isEmpty();
  }

  @Test
  void badConfigurationIsRejected() {
    assertThatThrownBy(() -> new RrfFusion(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
    assertThatThrownBy(() -> new RrfFusion(60, 1.0, -1.0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1.0");
    assertThatThrownBy(() -> new RrfFusion(60, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void describesItselfForTheTrace() {
    assertThat(new RrfFusion().describe()).isEqualTo("rrf(k=60)");
    assertThat(new RrfFusion(10, 1.0, 2.0).describe()).contains("k=10").contains("2.0");
    assertThat(new RrfFusion().k()).isEqualTo(RrfFusion.DEFAULT_K).isEqualTo(60);
  }
}
