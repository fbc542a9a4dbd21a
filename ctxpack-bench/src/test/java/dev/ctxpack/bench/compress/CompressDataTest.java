package dev.ctxpack.bench.compress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Case;
import dev.ctxpack.bench.compress.CompressData.Half;
import dev.ctxpack.bench.compress.CompressData.Paragraph;
import dev.ctxpack.bench.compress.CompressData.Qa;
import dev.ctxpack.compress.CompressInput;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompressDataTest {

  @Test
  void theSplitIsPinnedToTheFirstByteOfTheSha256OfTheKey() {
    // first bytes: Normans 226, Southern_California 210, Q1 50 (even); Warsaw 45, Sky_(United_Kingdom) 63, Q8 111 (odd)
    assertThat(CompressData.split("Normans")).isEqualTo(Half.REPORT);
    assertThat(CompressData.split("Southern_California")).isEqualTo(Half.REPORT);
    assertThat(CompressData.split("Q1")).isEqualTo(Half.REPORT);
    assertThat(CompressData.split("Warsaw")).isEqualTo(Half.FIT);
    assertThat(CompressData.split("Sky_(United_Kingdom)")).isEqualTo(Half.FIT);
    assertThat(CompressData.split("Q8")).isEqualTo(Half.FIT);
  }

  @Test
  void theSplitIsStableDisjointAndRoughlyEven() {
    Set<String> fit = new HashSet<>();
    Set<String> report = new HashSet<>();
    for (int i = 0; i < 2000; i++) {
      String key = "Article " + i;
      Half h = CompressData.split(key);
      for (int again = 0; again < 3; again++) assertThat(CompressData.split(key)).isEqualTo(h);
      (h == Half.FIT ? fit : report).add(key);
    }
    assertThat(fit).doesNotContainAnyElementsOf(report);
    assertThat(fit.size() + report.size()).isEqualTo(2000);
    assertThat(report.size()).isBetween(900, 1100);
    assertThat(CompressData.halves(List.of("Normans", "Warsaw", "Q1"))).containsEntry(Half.REPORT, 2).containsEntry(Half.FIT, 1);
  }

  private static Article article(String title, int paragraphs) {
    List<Paragraph> ps = new ArrayList<>();
    for (int p = 0; p < paragraphs; p++) {
      ps.add(new Paragraph("Paragraph " + p + " of " + title + ". It says something.",
          List.of(new Qa(title + "-q" + p, "What is in paragraph " + p + "?", List.of("Paragraph " + p), false),
              new Qa(title + "-x" + p, "What is not there " + p + "?", List.of(), true))));
    }
    return new Article(title, ps);
  }

  @Test
  void aRequestHoldsTheGoldParagraphAndAtMostFiveOfItsArticleAndIsDeterministic() {
    Article a = article("Normans", 9);
    for (int gold = 0; gold < 9; gold++) {
      Qa qa = a.paragraphs().get(gold).questions().get(0);
      Case c = CompressData.construct(a, gold, qa, 42);
      assertThat(c.inputs()).hasSize(5);
      assertThat(c.inputs().get(c.goldInput()).parts().get(0).text()).isEqualTo(a.paragraphs().get(gold).text());
      assertThat(c.inputs().get(c.goldInput()).id()).isEqualTo("p" + gold);
      assertThat(c.inputs()).extracting(CompressInput::id).doesNotHaveDuplicates();
      for (CompressInput in : c.inputs()) {
        int p = Integer.parseInt(in.id().substring(1));
        assertThat(in.parts().get(0).text()).isEqualTo(a.paragraphs().get(p).text());
      }
      Case again = CompressData.construct(a, gold, qa, 42);
      assertThat(again.inputs()).extracting(CompressInput::id).containsExactlyElementsOf(c.inputs().stream().map(CompressInput::id).toList());
      assertThat(c.answerable()).isTrue();
      assertThat(c.answers()).containsExactly("Paragraph " + gold);
    }
    Article small = article("Small", 3);
    Case c = CompressData.construct(small, 1, small.paragraphs().get(1).questions().get(0), 42);
    assertThat(c.inputs()).extracting(CompressInput::id).containsExactlyInAnyOrder("p0", "p1", "p2");
    Case alone = CompressData.construct(article("One", 1), 0, article("One", 1).paragraphs().get(0).questions().get(0), 42);
    assertThat(alone.inputs()).hasSize(1);
    assertThat(alone.goldInput()).isZero();
  }

  @Test
  void casesComeFromOneHalfOnlyAndTheSampleIsSeeded() {
    List<Article> articles = List.of(article("Normans", 6), article("Warsaw", 6), article("Q1", 6), article("Q8", 6));
    List<Case> all = CompressData.cases(articles, Half.REPORT, true, 0, 42);
    assertThat(all).hasSize(12).allMatch(c -> CompressData.split(c.article()) == Half.REPORT).allMatch(Case::answerable);
    List<Case> impossible = CompressData.cases(articles, Half.REPORT, false, 0, 42);
    assertThat(impossible).hasSize(12).noneMatch(Case::answerable);
    assertThat(CompressData.cases(articles, Half.FIT, true, 0, 42)).hasSize(12).allMatch(c -> CompressData.split(c.article()) == Half.FIT);
    List<Case> sample = CompressData.cases(articles, Half.REPORT, true, 5, 42);
    assertThat(sample).hasSize(5);
    assertThat(CompressData.cases(articles, Half.REPORT, true, 5, 42)).extracting(Case::id)
        .containsExactlyElementsOf(sample.stream().map(Case::id).toList());
    // kept in file order
    List<String> order = all.stream().map(Case::id).toList();
    List<Integer> positions = sample.stream().map(c -> order.indexOf(c.id())).toList();
    assertThat(positions).isSorted();
  }

  @Test
  void readsSquadV1AndV2Answers(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("squad.json");
    Files.writeString(file, """
        {"version": "v2.0", "data": [{"title": "Normans", "paragraphs": [{"context": "The Normans lived in Normandy.",
          "qas": [
            {"id": "a", "question": "Where?", "answers": ["Normandy", " Normandy ", "in Normandy"], "is_impossible": false},
            {"id": "b", "question": "When?", "answers": [{"text": "then", "answer_start": 0}]},
            {"id": "c", "question": "Why?", "plausible_answers": ["x"], "answers": [], "is_impossible": true}]}]}]}
        """);
    List<Article> articles = CompressData.loadSquad(file);
    assertThat(articles).hasSize(1);
    List<Qa> qas = articles.get(0).paragraphs().get(0).questions();
    assertThat(qas.get(0).answers()).containsExactly("Normandy", "in Normandy");
    assertThat(qas.get(1).answers()).containsExactly("then");
    assertThat(qas.get(1).impossible()).isFalse();
    assertThat(qas.get(2).impossible()).isTrue();
    assertThat(qas.get(2).answers()).isEmpty();
  }

  @Test
  void readsWikiQaGroupedByQuestion() throws Exception {
    String tsv = "QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel\n"
        + "Q1\thow big is it\tD1\tT\tD1-0\tIt is \"big\".\t0\n"
        + "Q1\thow big is it\tD1\tT\tD1-1\tIt is 3 m tall.\t1\n"
        + "Q2\twho\tD2\tT2\tD2-0\tNobody.\t0\n";
    List<CompressData.WikiQuestion> qs = CompressData.parseWikiQa(new BufferedReader(new StringReader(tsv)));
    assertThat(qs).hasSize(2);
    assertThat(qs.get(0).sentences()).containsExactly("It is \"big\".", "It is 3 m tall.");
    assertThat(qs.get(0).labels()).containsExactly(false, true);
    assertThat(qs.get(0).hasPositive()).isTrue();
    assertThat(qs.get(1).hasPositive()).isFalse();
  }
}
