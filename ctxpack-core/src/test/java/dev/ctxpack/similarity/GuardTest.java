package dev.ctxpack.similarity;

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
    // Too few shared words to align: only the semantic level's guard compares such leftovers.
    assertThat(conflict("It works.", "It doesn't work.")).isEqualTo("none");
    assertThat(new Guard(0.3, true).check("It works.", Language.EN, "It doesn't work.", Language.EN)
        .map(Guard.Conflict::kind)).contains("negation");
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
  void aWindowCutMidSentenceIsComparedOnlyOnWhatBothHold() {
    // The second window starts inside a sentence whose cut-off start holds a negation: not a conflict.
    String whole = "Doctors did not expect the trial to end early. The drug lowered blood pressure in most patients.";
    String cut = "the trial to end early. The drug lowered blood pressure in most patients.";
    assertThat(conflict(whole, cut)).isEqualTo("none");
    // A text whose last sentence has no final punctuation is not a cut window: its exception counts.
    assertThat(conflict("Stain solution: lead citrate is prepared by", "Stain solution: lead citrate is prepared by,"
        + " unless stated otherwise")).isEqualTo("condition");
    // A citation cut into one-word "sentences" by the segmenter still carries its exception.
    assertThat(conflict("Proc. Natl. Acad. Sci. USA 85.", "Proc. Natl, unless stated otherwise. Acad. Sci. USA 85."))
        .isEqualTo("condition");
    // Whole sentences that differ by the negation are a conflict.
    assertThat(conflict("Doctors did expect the trial to end early.", "Doctors did not expect the trial to end early."))
        .isEqualTo("negation");
  }

  @Test
  void monthsAreDatesButTheModalMayIsNot() {
    assertThat(conflict("The law took effect in March 2020.", "The law took effect in June 2020.")).isEqualTo("date");
    assertThat(conflict("Children may play in the garden.", "Children play in the garden.")).isEqualTo("none");
  }

  @Test
  void paraphrasesThatTurnTheStatementAroundConflictEvenUnaligned() {
    Guard loose = new Guard(0.9, true); // nothing aligns at 0.9 here: the leftovers are compared
    assertThat(loose.check("Aspirin lowers fever in adults.", Language.EN,
        "In grown-ups, fever does not go down with aspirin.", Language.EN).map(Guard.Conflict::kind)).contains("negation");
    assertThat(loose.check("Aspirin lowers fever in adults.", Language.EN,
        "In grown-ups, fever goes down with aspirin.", Language.EN)).isEmpty();
  }
}
