package dev.ctxpack.bench.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.similarity.Words;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.TextNormalizer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class VariantsTest {
  private static final String EN = "The trial enrolled 120 patients in March 2015. Treatment is safe, and it was well tolerated. "
      + "Follow-up lasted 2.5 years in all centres.";
  private static final String PT = "O projeto foi aprovado em março de 2010. São Paulo é a maior cidade do país. "
      + "Foi criado pelo conselho municipal.";

  @Test
  void exactCopiesHaveTheSameIdentityForm() {
    for (boolean upper : new boolean[] {false, true}) {
      String v = Variants.exactCopy(EN, new Random(1), upper).text();
      assertThat(v).isNotEqualTo(EN);
      assertThat(TextNormalizer.contentHash(v)).isEqualTo(TextNormalizer.contentHash(EN));
    }
  }

  @Test
  void nearCopiesKeepTheWordsButNotTheIdentityForm() {
    for (var v : List.of(Variants.punctuationChanged(EN, Language.EN).orElseThrow(),
        Variants.whitespaceChanged(EN, Language.EN).orElseThrow())) {
      assertThat(Words.of(v.text())).isEqualTo(Words.of(EN));
      assertThat(TextNormalizer.contentHash(v.text())).isNotEqualTo(TextNormalizer.contentHash(EN));
    }
    // the decimal point and the comma-free number survive punctuation changes
    assertThat(Variants.punctuationChanged(EN, Language.EN).orElseThrow().text())
        .isEqualTo("The trial enrolled 120 patients in March 2015; Treatment is safe and it was well tolerated; "
            + "Follow-up lasted 2.5 years in all centres!");
    // a comma with no space after it joins two words or digits: it stays
    assertThat(Variants.punctuationChanged("Em João Monlevade,com turmas. Custou 1,5 mil, pagos. Fim.", Language.PT).orElseThrow().text())
        .isEqualTo("Em João Monlevade,com turmas; Custou 1,5 mil pagos; Fim!");
    assertThat(Variants.caseChanged(EN, Language.EN, new Random(2)).orElseThrow().text()).isEqualToIgnoringCase(EN);
  }

  @Test
  void sentencesAreAddedAndRemovedWholeWithTheirWhitespace() {
    String added = "A new sentence here.";
    assertThat(Variants.sentenceAdded(EN, Language.EN, added, 1).text())
        .isEqualTo("The trial enrolled 120 patients in March 2015. A new sentence here. Treatment is safe, and it was well "
            + "tolerated. Follow-up lasted 2.5 years in all centres.");
    assertThat(Variants.sentenceAdded(EN, Language.EN, added, 3).text()).isEqualTo(EN + " " + added);
    assertThat(Variants.sentenceRemoved(EN, Language.EN, 1).text())
        .isEqualTo("The trial enrolled 120 patients in March 2015. Follow-up lasted 2.5 years in all centres.");
    assertThat(Variants.sentenceRemoved(EN, Language.EN, 2).text())
        .isEqualTo("The trial enrolled 120 patients in March 2015. Treatment is safe, and it was well tolerated.");
  }

  @Test
  void aLightEditChangesOneOrTwoNonCueWords() {
    for (int seed = 0; seed < 20; seed++) {
      String v = Variants.lightEdit(EN, new Random(seed), List.of("vivid", "gallery", "never", "march")).orElseThrow().text();
      List<String> a = Words.of(EN);
      List<String> b = Words.of(v);
      assertThat(b).hasSameSizeAs(a);
      long changed = 0;
      for (int i = 0; i < a.size(); i++) {
        if (!a.get(i).equals(b.get(i))) {
          changed++;
          assertThat(b.get(i)).isIn("vivid", "gallery");
          assertThat(a.get(i)).doesNotContainPattern("\\d").isNotIn("march", "patients", "years");
        }
      }
      assertThat(changed).isBetween(1L, 2L);
    }
  }

  @Test
  void windowsAreRealOffsetsThatOverlapTouchOrLeaveOnlyWhitespace() {
    for (int seed = 0; seed < 50; seed++) {
      Variants.Windows w = Variants.overlapping(PT + " " + EN, new Random(seed)).orElseThrow();
      assertThat(w.aStart()).isZero();
      assertThat(w.bEnd()).isEqualTo((PT + " " + EN).length());
      assertThat(w.overlapRatio()).isBetween(0.10, 0.30);
      Variants.Windows t = Variants.touching(EN, new Random(seed)).orElseThrow();
      assertThat(t.aEnd()).isEqualTo(t.bStart());
      assertThat(Character.isWhitespace(EN.charAt(t.bStart() - 1))).isTrue();
      Variants.Windows g = Variants.whitespaceGap(EN, new Random(seed)).orElseThrow();
      assertThat(EN.substring(g.aEnd(), g.bStart())).isNotEmpty().isBlank();
    }
  }

  @Test
  void ruleAndExceptionEdits() {
    assertThat(Variants.negatedEn(EN, Language.EN, new Random(3)).orElseThrow().text())
        .isIn(EN.replace("is safe", "is not safe"), EN.replace("was well", "was not well"));
    String pt = Variants.negatedPt(PT, Language.PT, new Random(3)).orElseThrow().text();
    assertThat(pt).isIn(PT.replace("foi aprovado", "não foi aprovado"), PT.replace("Paulo é", "Paulo não é"),
        PT.replace("Foi criado", "Não foi criado"));
    assertThat(pt).contains("São Paulo");
    String n = Variants.numberChanged(EN, new Random(4)).orElseThrow().text();
    assertThat(Words.of(n)).hasSameSizeAs(Words.of(EN)).isNotEqualTo(Words.of(EN));
    assertThat(n.replaceAll("\\d", "#")).isEqualTo(EN.replaceAll("\\d", "#"));
    assertThat(Variants.dateChanged(EN, Language.EN, new Random(5)).orElseThrow().note()).startsWith("month March→");
    assertThat(Words.of(Variants.dateChanged(PT, Language.PT, new Random(5)).orElseThrow().text())).doesNotContain("março", "maio");
    assertThat(Variants.dateChanged("Founded in 1998 by two friends.", Language.EN, new Random(6)).orElseThrow().note())
        .startsWith("year 1998→");
    assertThat(Variants.numberChanged("No digits at all.", new Random(7))).isEmpty();
    assertThat(Variants.conditionAppended("Refunds are paid. Orders ship daily!", Language.EN, new Random(8)).orElseThrow().text())
        .isIn("Refunds are paid, unless stated otherwise. Orders ship daily!",
            "Refunds are paid. Orders ship daily, unless stated otherwise!");
  }
}
