package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.pack.PackOptions.Relevance;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code verify} judges an abstention with {@code pack}'s relevance line: for the same query and
 * sources, the verifier says the sources answer exactly when the packer's compression of them under
 * its default line would send evidence, in English and Portuguese, through the line and through the
 * coverage gate alike.
 */
class AbstentionLineTest {
  private static final List<VerifySource> EIFFEL = List.of(
      new VerifySource("S1", "The Eiffel Tower was completed in 1889 for the World's Fair in Paris. It is 330 metres tall."
          + " Gustave Eiffel's company designed and built it."),
      new VerifySource("S2", "The Statue of Liberty was dedicated in 1886. It was a gift from the people of France."));
  private static final List<VerifySource> CONTRATO = List.of(
      new VerifySource("S1", "O contrato pode ser renovado por mais doze meses. A renovação exige aviso prévio de 30 dias."
          + " O locatário não paga multa na renovação."),
      new VerifySource("S2", "A biblioteca abre às oito horas e fecha às vinte e duas horas durante o semestre letivo."));

  /** Questions the sources answer, questions on their topic they do not, and questions off it. */
  private static final List<Case> CASES = List.of(
      new Case("When was the Eiffel Tower completed?", EIFFEL),
      new Case("How tall is the Eiffel Tower?", EIFFEL),
      new Case("Who gave the Statue of Liberty to the United States?", EIFFEL),
      new Case("Who painted the ceiling of the Sistine Chapel?", EIFFEL),
      new Case("What is the boiling point of ethanol at sea level?", EIFFEL),
      new Case("How many visitors climb the Eiffel Tower each winter?", EIFFEL),
      new Case("Por quanto tempo o contrato pode ser renovado?", CONTRATO),
      new Case("Quanto tempo de aviso prévio a renovação exige?", CONTRATO),
      new Case("A que horas a biblioteca fecha?", CONTRATO),
      new Case("Qual é a capital da Mongólia?", CONTRATO),
      new Case("Quem descobriu a penicilina e em que ano?", CONTRATO));

  private record Case(String query, List<VerifySource> sources) {
    List<CompressInput> inputs() {
      List<CompressInput> out = new ArrayList<>();
      for (VerifySource s : sources) out.add(CompressInput.of(s.id(), s.text()));
      return out;
    }
  }

  private final ExtractiveCompressor lexical = ExtractiveCompressor.defaults(SentenceVectors.none());

  /** What pack's compression under {@code relevance}'s default line keeps of the case's sources: nothing means insufficient. */
  private boolean packSends(Case c, Relevance relevance) throws Exception {
    double line = relevance.line(4000);
    Compression out = lexical.compress(c.query(), c.inputs(), relevance.gate(CompressOptions.budget(4000), line));
    return !out.passages().isEmpty();
  }

  private static Boolean abstentionCorrect(Verifier v, Case c) throws Exception {
    return v.verify(c.query(), c.sources(), Answer.parse("The sources do not contain the answer.")).abstentionCorrect();
  }

  @Test
  void theVerifierSaysWhatThePackerDoesAtTheDefaultLine() throws Exception {
    EvidenceVerifier verifier = EvidenceVerifier.lexical();
    int sent = 0;
    for (Case c : CASES) {
      boolean sends = packSends(c, Relevance.defaults());
      if (sends) sent++;
      // Abstaining is right exactly where the packer would report insufficient evidence.
      assertThat(abstentionCorrect(verifier, c)).as(c.query()).isEqualTo(!sends);
    }
    // Both outcomes occur among the cases, so the agreement is not trivial.
    assertThat(sent).isBetween(1, CASES.size() - 1);
    // The questions the sources plainly answer get evidence, in both languages; the off-corpus ones do not.
    assertThat(packSends(CASES.get(0), Relevance.defaults())).isTrue();
    assertThat(packSends(CASES.get(6), Relevance.defaults())).isTrue();
    assertThat(packSends(CASES.get(4), Relevance.defaults())).isFalse();
    assertThat(packSends(CASES.get(9), Relevance.defaults())).isFalse();
  }

  @Test
  void aLineSetByHandMovesBothAlike() throws Exception {
    for (double line : new double[] {0, 0.05, 0.3, 0.6, 0.95}) {
      Relevance relevance = new Relevance(line, null);
      EvidenceVerifier verifier = EvidenceVerifier.builder().minRelevance(line).build();
      for (Case c : CASES) {
        boolean sends = packSends(c, relevance);
        assertThat(abstentionCorrect(verifier, c)).as(line + ": " + c.query()).isEqualTo(!sends);
      }
    }
    // A line of 0: every source with an eligible sentence answers, so abstaining is wrong.
    assertThat(abstentionCorrect(EvidenceVerifier.builder().minRelevance(0).build(), CASES.get(0))).isFalse();
  }

  @Test
  void theCoverageGateOpensForBoth() throws Exception {
    // A line set just above each case's best sentence (which is then 0.8 of it, over the cover's
    // floor of 0.6): with a coverage of 0 the passage covers enough and the evidence passes; with
    // the gate off it does not. Pack and verify agree either way.
    int opened = 0;
    for (Case c : CASES) {
      ExtractiveCompressor.Gate g = lexical.gate(c.query(), c.inputs(), CompressOptions.threshold(1).withRelative(0.1));
      if (g.sentence() == null || !(g.best() > 0.01 && g.best() < 0.75)) continue;
      double line = Math.min(1, g.best() / 0.8);
      for (double cover : new double[] {0, Relevance.NO_COVER}) {
        Relevance relevance = new Relevance(line, null, Relevance.DEFAULT_RELATIVE, cover);
        boolean sends = packSends(c, relevance);
        Verifier verifier = EvidenceVerifier.lexical().withRelevance(line, cover);
        assertThat(abstentionCorrect(verifier, c)).as(line + "/" + cover + ": " + c.query()).isEqualTo(!sends);
        assertThat(sends).as(c.query()).isEqualTo(cover == 0);
        if (sends) opened++;
      }
    }
    assertThat(opened).isGreaterThan(3);
  }

  @Test
  void theFeedbackOfAWrongAbstentionQuotesTheSentenceThatCleared() throws Exception {
    Verification v = EvidenceVerifier.lexical().verify(CASES.get(0).query(), EIFFEL,
        Answer.parse("The sources do not contain the answer."));
    assertThat(v.abstentionCorrect()).isFalse();
    assertThat(v.feedback()).contains("[S1]").contains("completed in 1889");
  }

  @Test
  void badLinesAreRefusedAndTheDefaultsKeepTheVerifier() {
    EvidenceVerifier v = EvidenceVerifier.lexical();
    assertThat(v.withRelevance(Relevance.AUTO, Relevance.AUTO)).isSameAs(v);
    assertThatThrownBy(() -> v.withRelevance(1.5, Relevance.AUTO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minRelevance");
    assertThatThrownBy(() -> v.withRelevance(Relevance.AUTO, -0.1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minCoverage");
    assertThatThrownBy(() -> EvidenceVerifier.builder().minRelevance(-1)).isInstanceOf(IllegalArgumentException.class);
    // A verifier that judges no abstention takes no line.
    Verifier none = (query, sources, answer) -> null;
    assertThat(none.withRelevance(Relevance.AUTO, Relevance.AUTO)).isSameAs(none);
    assertThatThrownBy(() -> none.withRelevance(0.2, Relevance.AUTO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no relevance line");
  }
}
