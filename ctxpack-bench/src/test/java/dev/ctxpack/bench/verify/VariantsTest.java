package dev.ctxpack.bench.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Language;
import dev.ctxpack.verify.Answer;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class VariantsTest {

  @Test
  void theMarkerGoesBeforeTheFinalPunctuationAndParsesBackToTheSentence() {
    assertThat(Variants.cite("It opened in 1990.", "S3")).isEqualTo("It opened in 1990 [S3].");
    assertThat(Variants.cite("It opened in 1990", "S3")).isEqualTo("It opened in 1990 [S3]");
    assertThat(Variants.cite("Did it open?!", "S1")).isEqualTo("Did it open [S1]?!");
    assertThat(Variants.cite("It opened (in 1990).", "S2")).isEqualTo("It opened (in 1990) [S2].");
    assertThat(Variants.cite("He said \"go home.\"", "S1")).isEqualTo("He said \"go home [S1].\"");
    assertThat(Variants.cite("  It opened in (1990)  ", "S1")).isEqualTo("It opened in (1990) [S1]");
    Answer a = Answer.parse(Variants.cite("The bridge over the Rhine opened in 1990.", "S3"));
    assertThat(a.claims()).hasSize(1);
    assertThat(a.claims().get(0).citations()).containsExactly("S3");
    assertThat(a.claims().get(0).text()).isEqualTo("The bridge over the Rhine opened in 1990.");
  }

  @Test
  void englishNegationGoesAfterTheFirstAuxiliary() {
    assertThat(Variants.negate("The bridge was built in 1990.", Language.EN)).isEqualTo("The bridge was not built in 1990.");
    assertThat(Variants.negate("It has been said that they are rich.", Language.EN)).isEqualTo("It has not been said that they are rich.");
    assertThat(Variants.negate("Rivers can flood and dams must hold.", Language.EN)).isEqualTo("Rivers can not flood and dams must hold.");
    // whole words, lower case only: "This", "Island", the month "May" and a sentence-initial "Is" are not auxiliaries
    assertThat(Variants.negate("This Island opened in May 1990.", Language.EN)).isNull();
    assertThat(Variants.negate("Is it true that prices rose?", Language.EN)).isNull();
  }

  @Test
  void noNegationIsInsertedIntoANegatedSentence() {
    assertThat(Variants.negate("The bridge was not built in 1990.", Language.EN)).isNull();
    assertThat(Variants.negate("The bridge wasn't built, but it is used.", Language.EN)).isNull();
    assertThat(Variants.negate("Nobody knew; it was never found.", Language.EN)).isNull();
    assertThat(Variants.negate("It is without doubt the largest.", Language.EN)).isEqualTo("It is not without doubt the largest.");
    assertThat(Variants.negate("A ponte não foi construída.", Language.PT)).isNull();
    assertThat(Variants.negate("Ninguém sabe onde ela está.", Language.PT)).isNull();
  }

  @Test
  void portugueseNegationGoesBeforeTheFirstVerbForm() {
    assertThat(Variants.negate("A UFMS é uma instituição federal.", Language.PT)).isEqualTo("A UFMS não é uma instituição federal.");
    assertThat(Variants.negate("O curso foi criado em 1966 e tem dez turmas.", Language.PT))
        .isEqualTo("O curso não foi criado em 1966 e tem dez turmas.");
    assertThat(Variants.negate("Os alunos possuem bolsas.", Language.PT)).isEqualTo("Os alunos não possuem bolsas.");
    // "café" holds é but is not the verb; no listed form at all: skipped
    assertThat(Variants.negate("O café chegou cedo ao campus.", Language.PT)).isNull();
  }

  @Test
  void aSwappedNumberKeepsItsShapeAndIsNeverANumberOfTheParagraph() {
    String paragraph = "In 1990 the city had 1,200 people; by 1995 it had 1,250 and 3 bridges. It grew 3.5 times.";
    String sentence = "In 1990 the city had 1,200 people.";
    Set<String> inParagraph = Variants.numbersOf(paragraph);
    Pattern number = Pattern.compile("\\d+(?:[.,]\\d+)*");
    for (long seed = 0; seed < 500; seed++) {
      // the answer is "1,200" (offsets 21..26): its number is the one changed
      Variants.Change c = Variants.swapNumber(sentence, 21, 26, paragraph, new Random(seed));
      assertThat(c).isNotNull();
      assertThat(c.text()).startsWith("In 1990 the city had ").endsWith(" people.");
      String changed = c.text().substring(21, c.text().length() - " people.".length());
      assertThat(changed).matches("\\d,\\d{3}");
      assertThat(Variants.digits(changed)).isNotIn(inParagraph);
      assertThat(Math.abs(Long.parseLong(Variants.digits(changed)) - 1200)).isBetween(1L, 9L);
      Matcher m = number.matcher(c.text());
      while (m.find()) assertThat(m.group().equals("1990") || !inParagraph.contains(Variants.digits(m.group()))).isTrue();
    }
  }

  @Test
  void aYearStaysAFourDigitYearAndOutsideTheAnswerTheFirstNumberChanges() {
    Set<String> seen = new HashSet<>();
    for (long seed = 0; seed < 200; seed++) {
      Variants.Change c = Variants.swapNumber("It opened in 1990 and closed in 2004.", 0, 2, "It opened in 1990 and closed in 2004.", new Random(seed));
      assertThat(c.text()).matches("It opened in \\d{4} and closed in 2004\\.");
      int year = Integer.parseInt(c.text().substring(13, 17));
      assertThat(year).isBetween(1981, 1999).isNotEqualTo(1990);
      seen.add(c.detail());
    }
    assertThat(seen).hasSizeGreaterThan(10); // the delta is drawn, not fixed
  }

  @Test
  void numbersInsideWordsOrOrdinalsAreNotNumbersAndFullParagraphsLeaveNothingToSwap() {
    assertThat(Variants.numbersOf("Vitamin B12 and H2O on the 5th day of the 1990s, 3.5 %")).containsExactlyInAnyOrder("1990", "35");
    assertThat(Variants.swapNumber("Vitamin B12 helps on the 5th day.", 0, 5, "x", new Random(1))).isNull();
    StringBuilder all = new StringBuilder();
    for (int i = 0; i <= 9; i++) all.append(i).append(' ');
    assertThat(Variants.swapNumber("He had 5 cats.", 7, 8, all.toString(), new Random(1))).isNull();
    assertThat(Variants.shift("09", -1)).isEqualTo("08");
    assertThat(Variants.shift("10", -1)).isNull();
    assertThat(Variants.shift("99", 1)).isNull();
    assertThat(Variants.shift("3.5", 2)).isEqualTo("3.7");
  }

  @Test
  void anAddedClauseJoinsWithAndInTheSetsLanguage() {
    assertThat(Variants.addClause("It rained.", "The match was cancelled.", Language.EN)).isEqualTo("It rained, and the match was cancelled.");
    assertThat(Variants.addClause("It rained", "NATO met in Paris", Language.EN)).isEqualTo("It rained, and NATO met in Paris.");
    assertThat(Variants.addClause("It rained (a lot).", "Paris flooded!", Language.EN)).isEqualTo("It rained (a lot), and paris flooded!");
    assertThat(Variants.addClause("Choveu muito.", "O jogo foi adiado.", Language.PT)).isEqualTo("Choveu muito, e o jogo foi adiado.");
    assertThat(Variants.addClause("It rained.", "I stayed in.", Language.EN)).isEqualTo("It rained, and I stayed in.");
    assertThat(Variants.addClause("It rained.", "A storm came.", Language.EN)).isEqualTo("It rained, and a storm came.");
    assertThat(Variants.cite(Variants.addClause("It rained.", "The match was cancelled.", Language.EN), "S2"))
        .isEqualTo("It rained, and the match was cancelled [S2].");
  }

  @Test
  void theClauseHoldingTheAnswerIsCutAtCommasSemicolonsAndColons() {
    String s = "In 1990, after a long debate, the bridge over the river opened; traffic grew fast.";
    int a = s.indexOf("the bridge");
    assertThat(Variants.clauseWithAnswer(s, a, a + "the bridge".length())).isEqualTo("the bridge over the river opened.");
    int t = s.indexOf("traffic");
    assertThat(Variants.clauseWithAnswer(s, t, t + 7)).isEqualTo("traffic grew fast.");
    // fewer than three words, an answer across a cut, no cut at all: none
    assertThat(Variants.clauseWithAnswer(s, 3, 7)).isNull();
    assertThat(Variants.clauseWithAnswer(s, 3, a + 3)).isNull();
    assertThat(Variants.clauseWithAnswer("The city had 1,200 people in 1990.", 13, 18)).isNull();
  }

  @Test
  void labelsAreDrawnDeterministicallyAndNeverNameTheGoldOrAGivenSource() {
    List<String> labels = List.of("S1", "S2", "S3", "S4", "S5");
    for (long seed = 0; seed < 300; seed++) {
      String other = Variants.otherLabel(labels, "S3", new Random(seed));
      assertThat(other).isIn(labels).isNotEqualTo("S3").isEqualTo(Variants.otherLabel(labels, "S3", new Random(seed)));
      String invented = Variants.inventedLabel(5, new Random(seed));
      assertThat(Integer.parseInt(invented.substring(1))).isBetween(6, 99);
      assertThat(invented).isEqualTo(Variants.inventedLabel(5, new Random(seed)));
    }
    assertThat(Variants.otherLabel(List.of("S1"), "S1", new Random(1))).isNull();
  }
}
