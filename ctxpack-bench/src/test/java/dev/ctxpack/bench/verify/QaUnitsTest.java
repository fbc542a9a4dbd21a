package dev.ctxpack.bench.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Paragraph;
import dev.ctxpack.bench.compress.CompressData.Qa;
import dev.ctxpack.bench.verify.QaUnits.Unit;
import dev.ctxpack.bench.verify.Variants.Kind;
import dev.ctxpack.bench.verify.Variants.Variant;
import dev.ctxpack.model.Language;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.VerifySource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QaUnitsTest {
  static Article article(String title, int paragraphs) {
    List<Paragraph> ps = new ArrayList<>();
    for (int p = 0; p < paragraphs; p++) {
      String text = "Paragraph " + p + " of " + title + " was written in " + (1900 + p) + ". The river " + p
          + " is long and it was crossed by the army. Scholars have studied topic " + p + " for many decades now.";
      ps.add(new Paragraph(text, List.of(
          new Qa(title + "-q" + p + "a", "When was paragraph " + p + " written?", List.of(Integer.toString(1900 + p)), false),
          new Qa(title + "-q" + p + "b", "What year?", List.of("written in " + (1900 + p)), false),
          new Qa(title + "-q" + p + "c", "Who crossed river " + p + "?", List.of("the army"), false),
          new Qa(title + "-q" + p + "d", "Why?", List.of(), true))));
    }
    return new Article(title, ps);
  }

  @Test
  void oneUnitPerDistinctSentenceWithTheGoldParagraphAmongDeterministicLabels() {
    List<Article> articles = List.of(article("Rivers", 8), article("Hills", 3));
    QaUnits.Built a = QaUnits.build(articles, Map.of(), Language.EN, 42);
    QaUnits.Built b = QaUnits.build(articles, Map.of(), Language.EN, 42);
    // per paragraph: q_a and q_b answer in the same sentence (one unit), q_c in another; q_d is impossible
    assertThat(a.questions()).isEqualTo(33);
    assertThat(a.units()).hasSize(22);
    assertThat(a.skipped()).containsEntry("sentence already taken by an earlier question", 11);
    assertThat(a.units()).isEqualTo(b.units());
    for (Unit u : a.units()) {
      assertThat(u.labels()).containsExactly(labels(u.sources().size()));
      assertThat(u.sources().size()).isEqualTo(Math.min(5, articles.get(u.articleIndex()).paragraphs().size()));
      assertThat(u.sources().get(u.gold()).text()).isEqualTo(u.paragraphText()).contains(u.sentence());
      assertThat(u.sentence().substring(u.answerStart(), u.answerEnd())).isIn("1900", "1901", "1902", "1903", "1904",
          "1905", "1906", "1907", "the army");
      for (int i = 0; i < u.sources().size(); i++) {
        assertThat(u.sources().get(i).text()).isEqualTo(articles.get(u.articleIndex()).paragraphs().get(u.sourceParagraphs().get(i)).text());
      }
    }
    // another seed shuffles differently
    assertThat(QaUnits.build(articles, Map.of(), Language.EN, 7).units().stream().map(Unit::gold).toList())
        .isNotEqualTo(a.units().stream().map(Unit::gold).toList());
  }

  @Test
  void variantsAreDeterministicParseIntoOneClaimAndTheAddedSentenceComesFromNoSource() {
    List<Article> articles = List.of(article("Rivers", 8), article("Hills", 3));
    List<Unit> units = QaUnits.build(articles, Map.of(), Language.EN, 42).units();
    for (Unit u : units) {
      String added = QaUnits.addedSentence(u, articles, Language.EN, VerifyData.random(42, u.id()), QaUnits.segmentCache());
      assertThat(added).isNotNull();
      for (VerifySource s : u.sources()) assertThat(s.text()).doesNotContain(added);
      List<Variant> v = QaUnits.variants(u, added, Language.EN, 42);
      assertThat(v).isEqualTo(QaUnits.variants(u, added, Language.EN, 42));
      assertThat(v.get(0).kind()).isEqualTo(Kind.CORRECT);
      for (Variant x : v) {
        assertThat(QaUnits.onlyClaim(Answer.parse(x.text()), x.cited())).as(x.text()).isNotNull();
        if (x.kind() != Kind.WRONG_SOURCE && x.kind() != Kind.INVENTED_ID) assertThat(x.cited()).isEqualTo(u.goldLabel());
      }
      Variant wrong = v.stream().filter(x -> x.kind() == Kind.WRONG_SOURCE).findFirst().orElseThrow();
      assertThat(wrong.cited()).isIn(u.labels()).isNotEqualTo(u.goldLabel());
      Variant invented = v.stream().filter(x -> x.kind() == Kind.INVENTED_ID).findFirst().orElseThrow();
      assertThat(invented.cited()).isNotIn(u.labels());
      // every unit sentence holds "was" and no negation; the year sentences hold a number
      assertThat(v.stream().map(Variant::kind)).contains(Kind.NEGATION, Kind.ADDED_CLAUSE);
      if (u.sentence().startsWith("Paragraph")) assertThat(v.stream().map(Variant::kind)).contains(Kind.SWAPPED_NUMBER);
    }
  }

  @Test
  void theAddedSentenceFallsBackToTheNextArticleWhenEveryParagraphIsASource() {
    List<Article> articles = List.of(article("Hills", 3), article("Rivers", 2));
    Unit u = QaUnits.build(articles, Map.of(), Language.EN, 42).units().get(0);
    assertThat(u.sources()).hasSize(3);
    String added = QaUnits.addedSentence(u, articles, Language.EN, VerifyData.random(1, "x"), QaUnits.segmentCache());
    assertThat(added).contains("Rivers");
  }

  private static String[] labels(int n) {
    String[] out = new String[n];
    for (int i = 0; i < n; i++) out[i] = "S" + (i + 1);
    return out;
  }
}
