package dev.ctxpack.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Averaging over queries, with excluded and unanswered queries; the means computed by hand. */
class EvaluationTest {
  private static final double EPS = 1e-12;

  @Test
  void averagesOverJudgedQueriesExcludingThoseWithoutRelevantJudgments() {
    // q1: relevant a; ranking a        -> nDCG@10 = 1,                     Recall@10 = 1, RR = 1
    // q2: relevant a; ranking x, a     -> nDCG@10 = D(2)/D(1) = 0.6309297535714575, Recall@10 = 1, RR = 1/2
    // q3: only a gain-0 judgment        -> excluded (measures undefined)
    // q4: relevant a; no ranking        -> unanswered: every measure 0, still averaged
    // q5: a ranking but no judgments    -> excluded
    // Means over the 3 evaluated queries (q1, q2, q4):
    //   nDCG@10   = (1 + 0.6309297535714575 + 0) / 3 = 0.5436432511904858
    //   Recall@10 = (1 + 1 + 0) / 3                  = 0.6666666666666666
    //   MRR@10    = (1 + 0.5 + 0) / 3                = 0.5
    Map<String, Judgments> qrels = Map.of(
        "q1", Judgments.of(Map.of("a", 1)),
        "q2", Judgments.of(Map.of("a", 1)),
        "q3", Judgments.of(Map.of("a", 0)),
        "q4", Judgments.of(Map.of("a", 1)));
    Map<String, List<String>> run = Map.of(
        "q1", List.of("a"),
        "q2", List.of("x", "a"),
        "q3", List.of("a"),
        "q5", List.of("a"));
    EvalReport r = Evaluation.evaluate(run, qrels, List.of(Metric.ndcg(10), Metric.recall(10), Metric.mrr(10)));

    assertThat(r.evaluated()).isEqualTo(3);
    assertThat(r.excluded()).containsExactly("q3", "q5");
    assertThat(r.unanswered()).containsExactly("q4");
    assertThat(r.mean(Metric.ndcg(10))).isCloseTo(0.5436432511904858, within(EPS));
    assertThat(r.mean(Metric.recall(10))).isCloseTo(2.0 / 3, within(EPS));
    assertThat(r.mean(Metric.mrr(10))).isCloseTo(0.5, within(EPS));
    assertThat(r.perQuery().get("q2").get(Metric.mrr(10))).isCloseTo(0.5, within(EPS));
    assertThat(r.means().keySet()).containsExactly(Metric.ndcg(10), Metric.recall(10), Metric.mrr(10));
  }

  @Test
  void noEvaluableQueryGivesNaNMeans() {
    EvalReport r = Evaluation.evaluate(Map.of("q", List.of("a")), Map.of(), List.of(Metric.ndcg(10)));
    assertThat(r.evaluated()).isZero();
    assertThat(r.excluded()).containsExactly("q");
    assertThat(r.mean(Metric.ndcg(10))).isNaN();
  }
}
