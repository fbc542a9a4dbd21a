package dev.ctxpack.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Language;
import org.junit.jupiter.api.Test;

class GuardTest {
  private final Guard guard = new Guard();

  private String conflict(String a, String b) {
    return guard.check(a, Language.UNKNOWN, b, Language.UNKNOWN).map(Guard.Conflict::kind).orElse("none");
  }

  @Test
  void aCueAddedAtTheStartOrEndOfASentenceIsStillADifference() {
    assertThat(conflict("Foi aprovado.", "Não foi aprovado.")).isEqualTo("negation");
    assertThat(conflict("Patients improved.", "No patients improved.")).isEqualTo("negation");
    assertThat(conflict("Visitors may park here.", "Visitors may park here unless the gate is closed."))
        .isEqualTo("condition");
    assertThat(conflict("The fee is waived.", "The fee is waived for 30 days.")).isEqualTo("number");
    assertThat(conflict("It works.", "It doesn't work.")).isEqualTo("negation");
    assertThat(conflict("O contrato vale por um ano.", "O contrato vale por um ano, desde que renovado."))
        .isEqualTo("condition");
  }

  @Test
  void differentPunctuationSentenceCutsAndAddedSentencesAreNotConflicts() {
    assertThat(conflict("Coffee is grown in Brazil. It is exported.", "Coffee is grown in Brazil; it is exported!"))
        .isEqualTo("none");
    assertThat(conflict("Prices rose in 2024.", "Prices rose in 2024. Nobody expected a fall in 2025."))
        .isEqualTo("none");
    assertThat(conflict("The bridge opened in May 1950.", "The bridge opened in May 1950.")).isEqualTo("none");
  }

  @Test
  void numbersWithUnitsPercentAndCurrencyAreCompared() {
    assertThat(conflict("A taxa é de 13,75% ao ano.", "A taxa é de 13,25% ao ano.")).isEqualTo("number");
    assertThat(conflict("The dose is 10 mg daily.", "The dose is 10 g daily.")).isEqualTo("number");
    assertThat(conflict("Custa R$ 10 por mês.", "Custa US$ 10 por mês.")).isEqualTo("number");
    assertThat(conflict("The dose is 10 mg daily.", "The dose is 10 mg daily!")).isEqualTo("none");
  }

  @Test
  void monthsAreDatesButTheModalMayIsNot() {
    assertThat(conflict("The law took effect in March 2020.", "The law took effect in June 2020.")).isEqualTo("date");
    assertThat(conflict("Children may play in the garden.", "Children play in the garden.")).isEqualTo("none");
  }

  @Test
  void paraphrasesThatTurnTheStatementAroundConflictEvenUnaligned() {
    Guard loose = new Guard(0.9); // nothing aligns at 0.9 here: the leftovers are compared
    assertThat(loose.check("Aspirin lowers fever in adults.", Language.EN,
        "In grown-ups, fever does not go down with aspirin.", Language.EN).map(Guard.Conflict::kind)).contains("negation");
    assertThat(loose.check("Aspirin lowers fever in adults.", Language.EN,
        "In grown-ups, fever goes down with aspirin.", Language.EN)).isEmpty();
  }
}
