package dev.ctxpack.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Metric values computed by hand. Notation: D(r) = 1 / log2(r + 1) is the discount at rank r, so
 * D(1) = 1, D(2) = 1/log2(3) = 0.6309297535714575, D(3) = 1/log2(4) = 0.5, D(4) = 1/log2(5) =
 * 0.43067655807339306.
 */
class RankingMetricsGoldenTest {
  private static final double EPS = 1e-12;
  private static final double D2 = 0.6309297535714575;

  // ---- nDCG ------------------------------------------------------------------------------------

  @Test
  void ndcgIdealIsComputedFromAllJudgedRelevantDocsNotOnlyTheRetrievedOnes() {
    // Relevant: d1, d2, d3 (gain 1 each). Ranking: d1, x, d2, y.
    // DCG@10  = 1*D(1) + 0 + 1*D(3) + 0          = 1 + 0.5                 = 1.5
    // IDCG@10 = D(1) + D(2) + D(3) (all 3 relevant) = 1 + 0.63092975 + 0.5   = 2.1309297535714575
    // nDCG@10 = 1.5 / 2.1309297535714575                                    = 0.7039180890341347
    // The classic bug, IDCG over the retrieved relevant only (d1, d2): 1.5 / (1 + D(2)) = 0.91972.
    Judgments j = Judgments.of(Map.of("d1", 1, "d2", 1, "d3", 1));
    double v = RankingMetrics.ndcg(List.of("d1", "x", "d2", "y"), j, 10);
    assertThat(v).isCloseTo(0.7039180890341347, within(EPS));
    assertThat(v).isNotCloseTo(0.9197207891481876, within(1e-3));
  }

  @Test
  void ndcgUsesGradedLinearGains() {
    // Gains a=3, b=2, c=1, z=0 (judged not relevant). Ranking: c, a, z, b.
    // DCG@3  = 1*D(1) + 3*D(2) + 0*D(3)       = 1 + 1.8927892607143724         = 2.8927892607143724
    // IDCG@3 = 3*D(1) + 2*D(2) + 1*D(3)       = 3 + 1.2618595071429150 + 0.5   = 4.7618595071429155
    // nDCG@3 = 2.8927892607143724 / 4.7618595071429155                         = 0.6074915180456525
    // DCG@4  = DCG@3 + 2*D(4) = 2.8927892607143724 + 0.8613531161467861       = 3.7541423768611586
    // IDCG@4 = IDCG@3 (only three relevant documents exist)                   = 4.7618595071429155
    // nDCG@4 = 3.7541423768611586 / 4.7618595071429155                         = 0.7883773914853737
    Judgments j = Judgments.of(Map.of("a", 3, "b", 2, "c", 1, "z", 0));
    List<String> ranking = List.of("c", "a", "z", "b");
    assertThat(RankingMetrics.ndcg(ranking, j, 3)).isCloseTo(0.6074915180456525, within(EPS));
    assertThat(RankingMetrics.ndcg(ranking, j, 4)).isCloseTo(0.7883773914853737, within(EPS));
  }

  @Test
  void ndcgOfTheIdealRankingIsOne() {
    // a, b, c in gain order 3, 2, 1: DCG = IDCG = 4.7618595071429155.
    Judgments j = Judgments.of(Map.of("a", 3, "b", 2, "c", 1));
    assertThat(RankingMetrics.ndcg(List.of("a", "b", "c"), j, 10)).isCloseTo(1.0, within(EPS));
    // Swapping two equal-gain documents changes nothing; putting b before a does.
    assertThat(RankingMetrics.ndcg(List.of("b", "a", "c"), j, 10)).isLessThan(1.0);
  }

  @Test
  void ndcgCutsTheIdealAtKToo() {
    // Gains a=1, b=1, c=1, ranking a, x. At k=1: DCG@1 = 1, IDCG@1 = 1 (not 2.13): nDCG@1 = 1.
    Judgments j = Judgments.of(Map.of("a", 1, "b", 1, "c", 1));
    assertThat(RankingMetrics.ndcg(List.of("a", "x"), j, 1)).isCloseTo(1.0, within(EPS));
  }

  // ---- duplicates --------------------------------------------------------------------------------

  @Test
  void aRepeatedDocumentCountsOnceAtItsFirstPosition() {
    // Gains a=1, b=1. Ranking: a, a, b. The second a keeps position 2 but earns nothing.
    // DCG@10  = 1*D(1) + 0*D(2) + 1*D(3) = 1 + 0.5                 = 1.5
    // IDCG@10 = D(1) + D(2)             = 1 + 0.6309297535714575  = 1.6309297535714575
    // nDCG@10 = 1.5 / 1.6309297535714575                           = 0.9197207891481876
    // (Counting the copy would give DCG = 1 + 0.6309 + 0.5 = 2.13 and nDCG > 1.)
    // Recall@2 = |{a}| / 2 = 0.5 (not 2/2); Recall@3 = |{a, b}| / 2 = 1.
    Judgments j = Judgments.of(Map.of("a", 1, "b", 1));
    List<String> ranking = List.of("a", "a", "b");
    assertThat(RankingMetrics.ndcg(ranking, j, 10)).isCloseTo(0.9197207891481876, within(EPS));
    assertThat(RankingMetrics.recall(ranking, j, 2)).isCloseTo(0.5, within(EPS));
    assertThat(RankingMetrics.recall(ranking, j, 3)).isCloseTo(1.0, within(EPS));
    assertThat(RankingMetrics.reciprocalRank(ranking, j, 10)).isCloseTo(1.0, within(EPS));
  }

  @Test
  void repeatingTheOnlyRelevantDocumentCannotLiftAnyMeasureAboveOne() {
    // Gain a=2. Ranking: a, a, a. DCG = 2*D(1) = 2 = IDCG: nDCG = 1; Recall = 1/1; RR = 1/1.
    Judgments j = Judgments.of(Map.of("a", 2));
    List<String> ranking = List.of("a", "a", "a");
    assertThat(RankingMetrics.ndcg(ranking, j, 10)).isCloseTo(1.0, within(EPS));
    assertThat(RankingMetrics.recall(ranking, j, 10)).isCloseTo(1.0, within(EPS));
    assertThat(RankingMetrics.reciprocalRank(ranking, j, 10)).isCloseTo(1.0, within(EPS));
  }

  // ---- empty rankings, k beyond the list --------------------------------------------------------

  @Test
  void anEmptyRankingScoresZeroOnEveryMeasure() {
    Judgments j = Judgments.of(Map.of("a", 1));
    assertThat(RankingMetrics.ndcg(List.of(), j, 10)).isZero();
    assertThat(RankingMetrics.recall(List.of(), j, 10)).isZero();
    assertThat(RankingMetrics.reciprocalRank(List.of(), j, 10)).isZero();
  }

  @Test
  void kLargerThanTheRankingIsNotAnError() {
    // Gains a=1, b=1. Ranking: b (one entry), k=100.
    // Recall@100 = 1/2 = 0.5.
    // nDCG@100   = D(1) / (D(1) + D(2)) = 1 / 1.6309297535714575 = 0.6131471927654584.
    // RR@100     = 1/1.
    Judgments j = Judgments.of(Map.of("a", 1, "b", 1));
    assertThat(RankingMetrics.recall(List.of("b"), j, 100)).isCloseTo(0.5, within(EPS));
    assertThat(RankingMetrics.ndcg(List.of("b"), j, 100)).isCloseTo(0.6131471927654584, within(EPS));
    assertThat(RankingMetrics.reciprocalRank(List.of("b"), j, 100)).isCloseTo(1.0, within(EPS));
  }

  // ---- recall and reciprocal rank ---------------------------------------------------------------

  @Test
  void recallCountsRelevantDocumentsWithinTheCutOff() {
    // Relevant a, b, c, d (gains 1, 3, 1, 2 — the grade does not matter to recall); z judged 0.
    // Ranking: z, a, x, b, c. Recall@3 = |{a}| / 4 = 0.25; Recall@5 = |{a, b, c}| / 4 = 0.75.
    Judgments j = Judgments.of(Map.of("a", 1, "b", 3, "c", 1, "d", 2, "z", 0));
    List<String> ranking = List.of("z", "a", "x", "b", "c");
    assertThat(RankingMetrics.recall(ranking, j, 3)).isCloseTo(0.25, within(EPS));
    assertThat(RankingMetrics.recall(ranking, j, 5)).isCloseTo(0.75, within(EPS));
  }

  @Test
  void reciprocalRankIsThatOfTheFirstRelevantWithinK() {
    // Relevant: a. Ranking x, z, a, where z is judged 0 (not relevant).
    // RR@10 = 1/3 = 0.333...; RR@2 = 0 (a is beyond the cut-off).
    Judgments j = Judgments.of(Map.of("a", 1, "z", 0));
    List<String> ranking = List.of("x", "z", "a");
    assertThat(RankingMetrics.reciprocalRank(ranking, j, 10)).isCloseTo(1.0 / 3, within(EPS));
    assertThat(RankingMetrics.reciprocalRank(ranking, j, 2)).isZero();
  }

  // ---- bad input --------------------------------------------------------------------------------

  @Test
  void measuresAreUndefinedWithoutARelevantJudgment() {
    Judgments none = Judgments.of(Map.of("a", 0));
    assertThatThrownBy(() -> RankingMetrics.ndcg(List.of("a"), none, 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no relevant judgment");
  }

  @Test
  void badArgumentsAreRejectedByName() {
    Judgments j = Judgments.of(Map.of("a", 1));
    assertThatThrownBy(() -> RankingMetrics.recall(List.of("a"), j, 0)).hasMessageContaining("k must be >= 1");
    assertThatThrownBy(() -> Judgments.of(Map.of("a", -1))).hasMessageContaining("'a'").hasMessageContaining("-1");
    assertThatThrownBy(() -> Metric.parse("nDCG")).hasMessageContaining("cut-off");
    assertThatThrownBy(() -> Metric.parse("MAP@10")).hasMessageContaining("unknown metric");
  }

  @Test
  void metricsParseAndPrint() {
    assertThat(Metric.parse("ndcg@10")).isEqualTo(Metric.ndcg(10));
    assertThat(Metric.parse("Recall@100")).isEqualTo(Metric.recall(100));
    assertThat(Metric.parse("MRR@10")).isEqualTo(Metric.mrr(10));
    assertThat(Metric.ndcg(10)).hasToString("nDCG@10");
    assertThat(D2).isCloseTo(1 / (Math.log(3) / Math.log(2)), within(EPS));
  }
}
