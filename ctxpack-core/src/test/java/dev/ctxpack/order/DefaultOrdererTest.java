package dev.ctxpack.order;

import dev.ctxpack.model.Stage;
import static dev.ctxpack.testing.Fixtures.passage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
      assertThat(d.stage()).isEqualTo(Stage.ORDER);
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
    assertThat(OrderMode.parse("TOPIC")).isEqualTo(OrderMode.TOPIC);
    assertThat(OrderMode.parse("position")).isEqualTo(OrderMode.POSITION);
    assertThatThrownBy(() -> OrderMode.parse("random"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("random").hasMessageContaining("lost-in-the-middle")
        .hasMessageContaining("topic").hasMessageContaining("position");
  }

  // ---- topic

  private static Passage scored(String id, String docId, String text, double score) {
    return passage(id, docId, 0, text, 1, score);
  }

  @Test
  void topicGroupsByVectorsWithGroupsByTheirBestPassageAndScoreWithin() {
    // Two topics in two directions; the best passage (x1) is in topic X, so X comes first.
    Passage x1 = scored("x1", "d1", "a", 9);
    Passage y1 = scored("y1", "d2", "b", 8);
    Passage x2 = scored("x2", "d3", "c", 7);
    Passage y2 = scored("y2", "d4", "d", 6);
    Passage x3 = scored("x3", "d5", "e", 5);
    Map<String, float[]> v = new HashMap<>();
    v.put("x1", new float[] {1, 0.1f, 0});
    v.put("x2", new float[] {0.9f, 0, 0.2f});
    v.put("x3", new float[] {0.95f, 0.2f, 0.1f});
    v.put("y1", new float[] {0, 1, 0.1f});
    v.put("y2", new float[] {0.1f, 0.9f, 0});
    Trace trace = new Trace();
    List<Passage> out = orderer.order(List.of(y2, x3, y1, x1, x2), OrderMode.TOPIC, v, trace);
    assertThat(out).containsExactly(x1, x2, x3, y1, y2);
    assertThat(trace.decisions().get(0).reason()).contains("2 group(s) [x1, x2, x3] [y1, y2]").contains("vector cosine");
  }

  @Test
  void topicGroupsEnglishByContentTermsWithoutVectors() {
    Passage c1 = scored("c1", "d1", "Coffee beans are roasted at high temperature to develop their flavour.", 9);
    Passage r1 = scored("r1", "d2", "The Rhine river flows from the Alps through Germany to the North Sea.", 8);
    Passage c2 = scored("c2", "d3", "Dark roasted coffee beans lose acidity; light roasts keep the bean's flavour.", 7);
    Passage r2 = scored("r2", "d4", "Barges carry freight along the river Rhine between Basel and Rotterdam.", 6);
    Trace trace = new Trace();
    List<Passage> out = orderer.order(List.of(r2, c2, r1, c1), OrderMode.TOPIC, Map.of(), trace);
    assertThat(out).containsExactly(c1, c2, r1, r2);
    assertThat(trace.decisions().get(0).reason()).contains("[c1, c2] [r1, r2]").contains("term");
  }

  @Test
  void topicGroupsPortugueseByContentTermsAccentsFolded() {
    Passage c1 = scored("c1", "d1", "O café é torrado em alta temperatura para desenvolver o sabor dos grãos.", 9);
    Passage r1 = scored("r1", "d2", "O rio Amazonas nasce nos Andes e deságua no oceano Atlântico.", 8);
    Passage c2 = scored("c2", "d3", "Grãos de cafe torrados por mais tempo perdem acidez e ganham amargor.", 7);
    Passage r2 = scored("r2", "d4", "Barcos navegam pelo rio Amazonas entre Manaus e Belém levando carga.", 6);
    List<Passage> out = orderer.order(List.of(c2, r2, c1, r1), OrderMode.TOPIC, Map.of(), new Trace());
    assertThat(out).containsExactly(c1, c2, r1, r2);
  }

  @Test
  void topicFallsBackToTermsWhenAPassageHasNoVector() {
    Passage c1 = scored("c1", "d1", "Coffee beans are roasted at high temperature.", 9);
    Passage r1 = scored("r1", "d2", "The Rhine river flows to the North Sea.", 8);
    Passage c2 = scored("c2", "d3", "Roasted coffee beans lose acidity.", 7);
    // The vectors alone would group c1 with r1; c2 has none, so terms decide for all.
    Map<String, float[]> v = Map.of("c1", new float[] {1, 0}, "r1", new float[] {1, 0});
    Trace trace = new Trace();
    assertThat(orderer.order(List.of(r1, c2, c1), OrderMode.TOPIC, v, trace)).containsExactly(c1, c2, r1);
    assertThat(trace.decisions().get(0).reason()).contains("term");
  }

  @Test
  void topicTiesAreBrokenByIdWhateverTheInputOrder() {
    // Equal scores and no shared terms: each passage is its own group, in id order.
    List<Passage> same = List.of(scored("b", "d1", "alpha beta", 1), scored("a", "d2", "gamma delta", 1),
        scored("c", "d3", "epsilon zeta", 1));
    List<Passage> expected = orderer.order(same, OrderMode.TOPIC, Map.of(), new Trace());
    assertThat(expected).extracting(Passage::id).containsExactly("a", "b", "c");
    for (int seed = 0; seed < 5; seed++) {
      List<Passage> l = new ArrayList<>(same);
      Collections.shuffle(l, new Random(seed));
      assertThat(orderer.order(l, OrderMode.TOPIC, Map.of(), new Trace())).isEqualTo(expected);
    }
    // Equally similar pairs: the pair met first in score order merges first, whatever the input order.
    Map<String, float[]> v = Map.of("a", new float[] {1, 0}, "b", new float[] {1, 0}, "c", new float[] {1, 0});
    assertThat(orderer.order(List.of(same.get(2), same.get(0), same.get(1)), OrderMode.TOPIC, v, new Trace()))
        .extracting(Passage::id).containsExactly("a", "b", "c");
  }

  @Test
  void thresholdsAreChecked() {
    assertThatThrownBy(() -> new DefaultOrderer(1.5, 0.1)).hasMessageContaining("vector threshold").hasMessageContaining("1.5");
    assertThatThrownBy(() -> new DefaultOrderer(0.3, -0.1)).hasMessageContaining("term threshold").hasMessageContaining("-0.1");
  }

  // ---- position

  private static Passage inDoc(String id, String docId, String uri, String date, int start, double score) {
    String text = "text of " + id;
    Chunk c = new Chunk(id, docId, new Span(start, start + text.length()), text, "", 0, 3);
    DocInfo d = new DocInfo(docId, uri, "", Language.EN, date.isEmpty() ? Map.of() : Map.of("date", date));
    return Passage.of(new Candidate(c, d, Scores.of(Signal.RERANK, score)));
  }

  @Test
  void positionReadsDocumentsUndatedFirstThenByDateUriAndIdAndPassagesByOffset() {
    Passage new2 = inDoc("n2", "dNew", "file:///b.md", "2025-10-01", 900, 9);
    Passage new1 = inDoc("n1", "dNew", "file:///b.md", "2025-10-01", 100, 1);
    Passage old = inDoc("o", "dOld", "file:///z.md", "2024-06-15", 0, 8);
    Passage undatedZ = inDoc("uz", "dU2", "file:///z.md", "", 50, 7);
    Passage undatedA = inDoc("ua", "dU1", "file:///a.md", "", 500, 2);
    Passage sameUri = inDoc("s", "dU0", "file:///z.md", "", 0, 3); // same URI as dU2: by document id
    Trace trace = new Trace();
    List<Passage> out = orderer.order(List.of(new2, old, undatedZ, new1, undatedA, sameUri), OrderMode.POSITION, trace);
    assertThat(out).containsExactly(undatedA, sameUri, undatedZ, old, new1, new2);
    assertThat(trace.decisions().get(0).reason()).contains("position").contains("by offset");
  }

  @Test
  void positionUsesTheFirstKeptPieceOfACompressedPassage() {
    Passage whole = inDoc("w", "d", "", "", 100, 5);
    Passage other = inDoc("x", "d", "", "", 200, 4);
    // Compression kept only a later part of w's chunk: w now starts at 300, after x.
    Passage cut = Passage.of("w", List.of(new Passage.Piece("d", new Span(300, 304), "text")), whole.sources(), 5);
    assertThat(orderer.order(List.of(cut, other), OrderMode.POSITION, new Trace())).containsExactly(other, cut);
  }

  @Test
  void lostInTheMiddleCountsWholeBlocksWhateverTheirLength() {
    // A long weak block and short strong ones: places are by rank, one per block, never by tokens.
    Passage strong = passage("s1", "A", 0, "short", 1, 9);
    Passage second = passage("s2", "B", 0, "short too", 2, 8);
    Passage longWeak = passage("w", "C", 0, "long ".repeat(400), 400, 1);
    Passage third = passage("s3", "D", 0, "mid", 1, 7);
    List<Passage> out = orderer.order(List.of(longWeak, third, second, strong), OrderMode.LOST_IN_THE_MIDDLE, new Trace());
    assertThat(out).containsExactly(strong, third, longWeak, second);
  }
}
