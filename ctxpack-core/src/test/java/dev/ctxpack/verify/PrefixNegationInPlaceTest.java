package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A word negated by a prefix is read in its place: the claim's word against the sentence's word
 * with the same neighbours, so a sentence (or claim) that also holds the other form elsewhere still
 * contradicts; a claim that is the sentence itself, or moves nothing, is still supported.
 */
class PrefixNegationInPlaceTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // the other form elsewhere in the sentence
      "Brooklyn was then known as Boschwick, in the neighborhood now known as Bushwick"
          + "|Brooklyn was then unknown as Boschwick, in the neighborhood now known as Bushwick|unknown|known",
      "He distinguishes lawful protest, nonviolent civil disobedience, and violent civil disobedience"
          + "|He distinguishes lawful protest, nonviolent civil disobedience, and nonviolent civil disobedience|nonviolent|violent",
      // the claim's word last in its sentence, outside the span the claim's terms cover
      "The service sectors constitute the majority of employment|The service sectors constitute the majority of unemployment|unemployment|employment",
      // the sentence negates, the claim does not
      "Os dados mostraram que o método é inadequado para amostras pequenas"
          + "|Os dados mostraram que o método é adequado para amostras pequenas|adequado|inadequado",
      "A licença foi concedida de forma irregular pela prefeitura|A licença foi concedida de forma regular pela prefeitura|regular|irregular"})
  void aPrefixedWordInTheOtherFormsPlaceContradicts(String source, String claim, String says, String where) throws Exception {
    ClaimVerdict c = LexicalVerdict.of(source, claim);
    assertThat(c.verdict()).as(c.reason()).isEqualTo(Verdict.CONTRADICTED);
    assertThat(c.reason()).contains("says \"" + says + "\"").contains("says \"" + where + "\"");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Brooklyn was then known as Boschwick, in the neighborhood now known as Bushwick",
      "He distinguishes lawful protest, nonviolent civil disobedience, and violent civil disobedience",
      "Organic and inorganic compounds were measured in each sample",
      "O método é inadequado para amostras pequenas, mas adequado para grandes"})
  void theSentenceItselfIsSupported(String sentence) throws Exception {
    ClaimVerdict c = LexicalVerdict.of(sentence, sentence);
    assertThat(c.verdict()).as(c.reason()).isEqualTo(Verdict.SUPPORTED);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "the first known as X|the first unknown as X|unknown|known",
      "a violent act and a nonviolent act|a violent act and a violent act|violent|nonviolent",
      "de forma regular|de forma irregular|irregular|regular"})
  void thePairIsTheClaimsWordAndTheSentencesWordInItsPlace(String sentence, String claim, String c, String s) {
    String[] pair = Contradiction.prefixedInPlace(VerifyText.wordsOf(claim), VerifyText.wordsOf(sentence));
    assertThat(pair).containsExactly(c, s);
    assertThat(Contradiction.prefixedInPlace(VerifyText.wordsOf(sentence), VerifyText.wordsOf(sentence))).isNull();
  }
}
