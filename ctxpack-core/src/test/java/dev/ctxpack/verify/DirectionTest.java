package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Directions of change read by stem on two axes: every form of a verb and its noun count alike, a
 * claim and a sentence with opposite directions disagree and the reason names the pair; a sentence
 * with both directions, or with the opposite word changing something the claim does not speak of,
 * does not.
 */
class DirectionTest {

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      // amount: a verb against a noun of the other direction
      "FGF21 deficiency causes a marked exacerbation of atherosclerotic plaque formation in mice"
          + "|FGF21 deficiency slows atherosclerotic plaque formation in mice|slows|exacerbation",
      "Radioiodine treatment led to a substantial reduction in thyroid volume in patients with goitre"
          + "|Radioiodine treatment increases thyroid volume in patients with goitre|increases|reduction",
      "IFI16 interacts with STING to promote STING phosphorylation and translocation"
          + "|IFI16 impedes STING phosphorylation and translocation|impedes|promote",
      // value: better against worse
      "Converting ApoE4 to ApoE3 by gene editing rescued the pathology of the neurons"
          + "|Converting ApoE4 to ApoE3 by gene editing worsens the pathology of the neurons|worsens|rescued",
      // Portuguese
      "O tratamento provocou a redução da pressão arterial dos pacientes"
          + "|O tratamento aumenta a pressão arterial dos pacientes|aumenta|reducao",
      "A nova política agravou a situação fiscal do município"
          + "|A nova política melhorou a situação fiscal do município|melhorou|agravou"})
  void anOppositeDirectionContradictsAndIsNamed(String source, String claim, String says, String where) throws Exception {
    ClaimVerdict c = LexicalVerdict.of(source, claim);
    assertThat(c.verdict()).as(c.reason()).isEqualTo(Verdict.CONTRADICTED);
    assertThat(c.reason()).contains("says \"" + says + "\"").contains("says \"" + where + "\"");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      // the same direction in another form
      "FGF21 deficiency causes a marked exacerbation of atherosclerotic plaque formation in mice"
          + "|FGF21 deficiency exacerbates atherosclerotic plaque formation in mice",
      "Treatment with the drug produced an increase in thyroid volume in the patients"
          + "|Treatment with the drug increases thyroid volume in the patients",
      // an agent noun is not a change: "inhibitors" do not say "less"
      "ACE inhibitors are associated with an increased survival of the patients"
          + "|ACE inhibitors increase survival of the patients"})
  void theSameDirectionInAnotherFormSupports(String source, String claim) throws Exception {
    ClaimVerdict c = LexicalVerdict.of(source, claim);
    assertThat(c.verdict()).as(c.reason()).isNotEqualTo(Verdict.CONTRADICTED);
  }

  @Test
  void aSentenceWithBothDirectionsOrAnUnrelatedChangeDoesNotDisagree() {
    List<String> claim = VerifyText.wordsOf("Autophagy deficiency increases insulin resistance");
    assertThat(Direction.opposed(claim, VerifyText.wordsOf("amelioration of insulin resistance"))).containsExactly("increases",
        "amelioration");
    assertThat(Direction.opposed(claim, VerifyText.wordsOf("induction of Fgf21 increased, and amelioration of insulin resistance")))
        .isNull();
    // anchored: the opposite word must change one of the claim's terms, within reach
    Set<String> anchors = Set.of("malaria", "transmission", "combination", "therapy");
    assertThat(Direction.opposed(VerifyText.wordsOf("therapy has a modest impact in reducing malaria transmission"),
        VerifyText.wordsOf("With the increased interest in funding and trials, malaria elimination is discussed"), anchors)).isNull();
    assertThat(Direction.opposed(VerifyText.wordsOf("therapy reduces malaria transmission"),
        VerifyText.wordsOf("the therapy increased malaria transmission in the trial"), anchors)).containsExactly("reduces", "increased");
    // the claim's first word qualifies its subject: "Activated Cdk5 regulates …" claims no "more"
    assertThat(Direction.opposed(VerifyText.wordsOf("Activated Cdk5 regulates neuronal death"),
        VerifyText.wordsOf("Interruption of the pathway attenuates neuronal death"))).isNull();
    assertThat(Direction.opposed(VerifyText.wordsOf("Inhibiting HDAC6 increases survival of mice"),
        VerifyText.wordsOf("Inhibition of HDAC6 activity improved the survival of mice"))).isNull();
    assertThat(Direction.of("inhibitors")).containsExactly(0, 0);
    assertThat(Direction.of("inhibition")).containsExactly(-1, 0);
    assertThat(Direction.of("impaired")).containsExactly(-1, -1);
    assertThat(Direction.of("exacerbation")).containsExactly(1, -1);
  }
}
