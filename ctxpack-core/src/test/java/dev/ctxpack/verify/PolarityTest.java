package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Polarity by construction family, English and Portuguese: a table per family, double negation cancelling. */
class PolarityTest {
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', textBlock = """
      none        | The committee approved the budget in 2019.                          | false | false
      particle    | The committee did not approve the budget.                           | true  | false
      sentential  | It is not true that the committee approved the budget.              | true  | false
      sentential  | It is false that the committee approved the budget.                 | true  | false
      sentential  | It's not the case that the committee approved the budget.           | true  | false
      sentential  | It isn't true that the committee approved the budget.               | true  | false
      sentential  | It is untrue that the committee approved the budget.                | true  | false
      truth frame | It is true that the committee approved the budget.                  | false | false
      double      | It is not true that the committee did not approve the budget.       | false | false
      double      | It is false that the committee never approved the budget.           | false | false
      double      | It is not false that the committee approved the budget.             | false | false
      adverb      | The committee never approved the budget.                            | true  | false
      adverb      | The committee no longer approves the budget.                        | true  | false
      determiner  | No committee approved the budget.                                   | true  | false
      determiner  | None of the committees approved the budget.                         | true  | false
      clause      | The budget passed, but it is false that the committee approved it.  | true  | false
      verb        | The committee failed to approve the budget.                         | true  | false
      verb        | The committee was unable to approve the budget.                     | true  | false
      verb        | The committee ceased to approve budgets.                            | true  | false
      verb        | The committee was incapable of approving budgets.                   | true  | false
      not only    | The committee not only approved the budget but also the plan.       | false | false
      não só      | A comissão não só aprovou o orçamento como também o plano.          | false | true
      not only not | The committee did not approve the budget, not only the plan.       | true  | false
      not only    | The rate is not only 5 percent.                                     | true  | false
      verb        | O comitê foi incapaz de aprovar o orçamento.                        | true  | true
      double verb | The committee did not fail to approve the budget.                   | false | false
      litotes     | The colonists were not unable to manage their fields.               | false | false
      verbo       | A comissão deixou de aprovar o orçamento.                           | true  | true
      verbo       | A comissão parou de aprovar orçamentos.                             | true  | true
      verbo duplo | A comissão não deixou de aprovar o orçamento.                       | false | true
      nenhum      | A comissão aprovou o orçamento no ano passado.                      | false | true
      particula   | A comissão não aprovou o orçamento.                                 | true  | true
      sentencial  | Não é verdade que a comissão aprovou o orçamento.                   | true  | true
      sentencial  | É falso que a comissão aprovou o orçamento.                         | true  | true
      sentencial  | É mentira que a comissão aprovou o orçamento.                       | true  | true
      verdade     | É verdade que a comissão aprovou o orçamento.                       | false | true
      dupla       | Não é verdade que a comissão não aprovou o orçamento.               | false | true
      dupla       | É falso que a comissão nunca aprovou o orçamento.                   | false | true
      adverbio    | A comissão jamais aprovou o orçamento.                              | true  | true
      adverbio    | A comissão já não aprova o orçamento.                               | true  | true
      determinante| Nenhuma comissão aprovou o orçamento.                               | true  | true
      determinante| Nem a comissão aprovou o orçamento.                                 | true  | true
      lacking     | The committee lacks a budget for 2019.                              | true  | false
      lacking     | The plan was devoid of any budget.                                  | true  | false
      lacking     | The committee is missing a budget.                                  | true  | false
      lacking     | The report noted the missing budget.                                | false | false
      double lack | The committee does not lack a budget.                               | false | false
      carência    | A comissão carece de orçamento próprio.                             | true  | true
      carência    | A comissão é carente de recursos.                                   | true  | true
      carência    | A cidade está desprovida de saneamento.                             | true  | true
      dupla       | A comissão não carece de orçamento.                                 | false | true
      """)
  void eachFamilyReadsAsADenialOrNot(String family, String text, boolean negated, boolean portuguese) {
    assertThat(Polarity.negated(text, portuguese)).as(text).isEqualTo(negated);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      It is false that the committee approved the budget. | the committee approved the budget.
      Não é verdade que a comissão aprovou.              | a comissão aprovou.
      The committee approved it.                         | The committee approved it.
      The budget passed, but it is false that it grew.   | The budget passed, it grew.
      The committee failed to approve it.                | The committee approve it.
      """)
  void aFrameIsNotPartOfWhatTheSourcesMustState(String text, String body) {
    assertThat(Polarity.read(text).body()).isEqualTo(body);
  }

  @org.junit.jupiter.api.Test
  void aFramedDenialContradictsTheSourceAndADoubleNegationIsSupported() throws Exception {
    List<VerifySource> sources = List.of(new VerifySource("S1", "The committee approved the budget in 2019."),
        new VerifySource("S2", "A comissão aprovou o orçamento em 2019."));
    EvidenceVerifier v = EvidenceVerifier.lexical();
    ClaimVerdict framed = v.verify(null, sources, Answer.parse("It is false that the committee approved the budget in 2019 [S1].")).claims().get(0);
    assertThat(framed.verdict()).isEqualTo(Verdict.CONTRADICTED);
    assertThat(framed.reason()).contains("negates");
    assertThat(v.verify(null, sources, Answer.parse("It is not true that the committee did not approve the budget in 2019 [S1]."))
        .claims().get(0).verdict()).isEqualTo(Verdict.SUPPORTED);
    assertThat(v.verify(null, sources, Answer.parse("É falso que a comissão aprovou o orçamento em 2019 [S2]."))
        .claims().get(0).verdict()).isEqualTo(Verdict.CONTRADICTED);
    assertThat(v.verify(null, sources, Answer.parse("Não é verdade que a comissão não aprovou o orçamento em 2019 [S2]."))
        .claims().get(0).verdict()).isEqualTo(Verdict.SUPPORTED);
  }
}
