package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class EvidenceVerifierTest {
  private static final List<VerifySource> SOURCES = List.of(
      new VerifySource("S1", "The Eiffel Tower was completed in 1889 for the World's Fair in Paris. It is 330 metres tall."
          + " Gustave Eiffel's company designed and built it."),
      new VerifySource("S2", "The Statue of Liberty was dedicated in 1886. It was a gift from the people of France."),
      new VerifySource("S3", "O contrato pode ser renovado por mais doze meses. A renovação exige aviso prévio de 30 dias."
          + " O locatário não paga multa na renovação."));

  private final EvidenceVerifier verifier = EvidenceVerifier.lexical();

  private Verification verify(String answer) throws Exception {
    return verifier.verify(null, SOURCES, Answer.parse(answer));
  }

  @Test
  void supportedClaimGetsItsSentenceAsEvidence() throws Exception {
    Verification v = verify("The Eiffel Tower was completed in 1889 [S1].");
    ClaimVerdict c = v.claims().get(0);
    assertThat(c.verdict()).isEqualTo(Verdict.SUPPORTED);
    assertThat(c.evidence().source()).isEqualTo("S1");
    assertThat(SOURCES.get(0).text().substring(c.evidence().start(), c.evidence().end()))
        .isEqualTo(c.evidence().text())
        .contains("completed in 1889");
    assertThat(v.citationPrecision()).isEqualTo(1.0);
    assertThat(v.citationRecall()).isEqualTo(1.0);
    assertThat(v.feedback()).isEmpty();
    assertThat(v.passed()).isTrue();
  }

  @Test
  void inventedIdIsAlwaysCaught() throws Exception {
    Verification v = verify("The Eiffel Tower was completed in 1889 [S9].");
    assertThat(v.invalidCitations()).containsExactly("S9");
    assertThat(v.claims().get(0).verdict()).isEqualTo(Verdict.UNSUPPORTED);
    assertThat(v.claims().get(0).betterSources()).containsExactly("S1");
    assertThat(v.feedback()).contains("Claim 1 cites [S9], which is not among the sources ([S1][S2][S3])")
        .contains("[S1] states it");
    assertThat(v.passed()).isFalse();
  }

  @Test
  void wrongSourceIsUnsupportedAndTheRightOneSuggested() throws Exception {
    Verification v = verify("The Eiffel Tower was completed in 1889 [S2].");
    ClaimVerdict c = v.claims().get(0);
    assertThat(c.verdict()).isIn(Verdict.UNSUPPORTED, Verdict.PARTIAL);
    assertThat(c.betterSources()).containsExactly("S1");
    assertThat(v.citationPrecision()).isEqualTo(0.0);
    assertThat(v.feedback()).contains("Claim 1").contains("[S2]").contains("[S1]");
  }

  @Test
  void swappedNumberContradicts() throws Exception {
    ClaimVerdict c = verify("The Eiffel Tower was completed in 1890 [S1].").claims().get(0);
    assertThat(c.verdict()).isEqualTo(Verdict.CONTRADICTED);
    assertThat(c.reason()).contains("1890").contains("1889");
  }

  @Test
  void insertedNegationContradictsInBothLanguages() throws Exception {
    assertThat(verify("The Eiffel Tower was not completed in 1889 [S1].").claims().get(0).verdict())
        .isEqualTo(Verdict.CONTRADICTED);
    assertThat(verify("O locatário paga multa na renovação [S3].").claims().get(0).verdict())
        .isEqualTo(Verdict.CONTRADICTED);
    assertThat(verify("O contrato pode ser renovado por mais doze meses [S3].").claims().get(0).verdict())
        .isEqualTo(Verdict.SUPPORTED);
  }

  @Test
  void addedClauseIsPartial() throws Exception {
    ClaimVerdict c = verify("The Eiffel Tower was completed in 1889, and its restaurant received two Michelin stars [S1].")
        .claims().get(0);
    assertThat(c.verdict()).isEqualTo(Verdict.PARTIAL);
    assertThat(c.missing()).contains("Michelin", "restaurant");
  }

  @Test
  void uncitedFactualSentenceIsAClaimButCourtesyIsNot() throws Exception {
    Verification v = verify("Here is what the sources say:\n\nThe Statue of Liberty was dedicated in 1886. I hope this helps!");
    assertThat(v.claims()).hasSize(1);
    assertThat(v.claims().get(0).verdict()).isEqualTo(Verdict.UNCITED);
    assertThat(v.claims().get(0).betterSources()).containsExactly("S2");
    assertThat(v.citationRecall()).isEqualTo(0.0);
    assertThat(v.feedback()).contains("Claim 1 has no citation").contains("[S2]");
  }

  @Test
  void portugueseFeedbackForAPortugueseAnswer() throws Exception {
    Verification v = verify("A renovação exige aviso prévio de 60 dias [S3].");
    assertThat(v.claims().get(0).verdict()).isEqualTo(Verdict.CONTRADICTED);
    assertThat(v.feedback()).startsWith("Afirmação 1 contradiz [S3]");
  }

  @Test
  void abstentionIsJudgedAgainstTheSourcesWhenAQueryIsGiven() throws Exception {
    Verification right = verifier.verify("Who painted the Mona Lisa?", SOURCES,
        Answer.parse("The sources do not contain the answer."));
    assertThat(right.abstained()).isTrue();
    assertThat(right.claims()).isEmpty();
    assertThat(right.abstentionCorrect()).isTrue();
    Verification wrong = verifier.verify("When was the Eiffel Tower completed?", SOURCES,
        Answer.parse("The sources do not contain the answer."));
    assertThat(wrong.abstentionCorrect()).isFalse();
    assertThat(wrong.feedback()).contains("The answer abstains").contains("[S1]");
    Verification none = verifier.verify(null, SOURCES, Answer.parse("Não sei."));
    assertThat(none.abstained()).isTrue();
    assertThat(none.abstentionCorrect()).isNull();
  }

  @Test
  void anAnswerThatSaysNothingDoesNotPass() throws Exception {
    Verification empty = verify("");
    assertThat(empty.claims()).isEmpty();
    assertThat(empty.passed()).isFalse();
    assertThat(empty.feedback()).contains("states nothing that can be checked");
    Verification courtesy = verify("Olá! Espero ter ajudado.");
    assertThat(courtesy.passed()).isFalse();
    assertThat(courtesy.claims()).isEmpty();
    assertThat(verify("The sources do not contain the answer.").passed()).isTrue();
  }

  @Test
  void sameInputSameOutput() throws Exception {
    String a = "The Eiffel Tower was completed in 1889 [S1]. It is 330 metres tall [S1][S2]. It was a gift [S7].";
    assertThat(verify(a)).isEqualTo(verify(a));
  }

  @Test
  void duplicateSourceIdsAreRefused() {
    assertThatThrownBy(() -> verifier.verify(null,
        List.of(new VerifySource("S1", "a"), new VerifySource("S1", "b")), Answer.parse("x [S1].")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'S1'");
  }
}
