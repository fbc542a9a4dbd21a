package dev.ctxpack.bench.relevance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ctxpack.bench.compress.CompressData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The relevance evaluation's arithmetic: means per kind of question, and the table beside stuffing. */
class RelevanceReportTest {
  private static final List<RelevanceEval.Question> QS = List.of(
      new RelevanceEval.Question("a1", "answerable", "q", List.of("x")),
      new RelevanceEval.Question("a2", "answerable", "q", List.of("y")),
      new RelevanceEval.Question("c1", "off-corpus", "q", List.of()));

  @Test
  void meansAreTakenOverTheQuestionsOfOneKindOnly() {
    List<RelevanceEval.Outcome> os = List.of(new RelevanceEval.Outcome(true, 100, false, 2),
        new RelevanceEval.Outcome(false, 300, true, 0), new RelevanceEval.Outcome(false, 40, true, 1));
    RelevanceReport.Row a = RelevanceReport.row(QS, os, "answerable");
    assertEquals(2, a.n());
    assertEquals(0.5, a.retained());
    assertEquals(200.0, a.tokens());
    assertEquals(0.5, a.insufficient());
    RelevanceReport.Row c = RelevanceReport.row(QS, os, "off-corpus");
    assertEquals(1, c.n());
    assertEquals(40.0, c.tokens());
    assertEquals(0, RelevanceReport.row(QS, os, "unanswerable").n());
  }

  @Test
  void theTableGivesEachConfigurationsTokensAsAShareOfStuffings() {
    Map<String, List<RelevanceEval.Outcome>> results = new LinkedHashMap<>();
    results.put("stuffing", List.of(new RelevanceEval.Outcome(true, 400, false, 4),
        new RelevanceEval.Outcome(true, 400, false, 4), new RelevanceEval.Outcome(false, 400, false, 4)));
    results.put("ctxpack", List.of(new RelevanceEval.Outcome(true, 100, false, 1),
        new RelevanceEval.Outcome(false, 0, true, 0), new RelevanceEval.Outcome(false, 0, true, 0)));
    String md = RelevanceReport.table(CompressData.Half.REPORT, QS, results);
    assertTrue(md.contains("| ctxpack | 50.0 % | 50 | 12.5 % | 50.0 % | 0.5 |"), md);
    assertTrue(md.contains("| ctxpack | – | 0 | 0.0 % | 100.0 % | 0.0 |"), md);
    assertTrue(md.contains("**off-corpus** (1 questions)"), md);
  }

  @Test
  void theSampleIsTheSameForTheSameSeed() {
    List<RelevanceEval.Question> many = new java.util.ArrayList<>();
    for (int i = 0; i < 50; i++) many.add(new RelevanceEval.Question("q" + i, "answerable", "t", List.of()));
    assertEquals(RelevanceEval.sample(many, 10, 42), RelevanceEval.sample(many, 10, 42));
    assertEquals(10, RelevanceEval.sample(many, 10, 42).size());
    assertEquals(50, RelevanceEval.sample(many, 500, 42).size());
  }

  @Test
  void thePortugueseConstructionHalvesQuestionsByArticleAndOffCorpusSentencesById() {
    List<CompressData.Article> articles = new java.util.ArrayList<>();
    for (int a = 0; a < 12; a++) {
      List<CompressData.Qa> qas = List.of(new CompressData.Qa("q" + a, "Quando ocorre a renovação " + a + "?",
          List.of("semestralmente"), false));
      articles.add(new CompressData.Article("ARTIGO_" + a, List.of(new CompressData.Paragraph("Texto " + a, qas))));
    }
    Map<String, String> assin = new LinkedHashMap<>();
    for (int i = 0; i < 40; i++) assin.put("assin-ptbr-dev:" + i, "O time venceu o jogo por " + i + " a zero.");
    RelevanceEval eval = new RelevanceEval();
    List<RelevanceEval.Question> fit = eval.questionsPt(articles, assin, CompressData.Half.FIT);
    List<RelevanceEval.Question> report = eval.questionsPt(articles, assin, CompressData.Half.REPORT);
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (RelevanceEval.Question q : fit) assertTrue(ids.add(q.id()), q.id());
    for (RelevanceEval.Question q : report) assertTrue(ids.add(q.id()), "a question in both halves: " + q.id());
    assertEquals(12 + 40, ids.size(), "every question and sentence is in one half");
    for (RelevanceEval.Question q : report) {
      if (q.kind().equals("off-corpus")) {
        assertTrue(q.id().startsWith("assin-") && q.answers().isEmpty(), q.toString());
      } else {
        assertEquals("answerable", q.kind());
        assertEquals(CompressData.Half.REPORT, CompressData.split("ARTIGO_" + q.id().substring(1)));
      }
    }
    assertEquals(fit, eval.questionsPt(articles, assin, CompressData.Half.FIT), "same seed, same sample");
  }
}
