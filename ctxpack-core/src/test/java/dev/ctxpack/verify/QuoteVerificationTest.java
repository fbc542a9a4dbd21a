package dev.ctxpack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Quoted extracts: found and attributed in the citation patterns people use, and checked verbatim. */
class QuoteVerificationTest {
  private static final List<VerifySource> EN = List.of(
      new VerifySource("S1", "In the trial, aspirin reduced the incidence of stroke by 20% over five years. "
          + "Bleeding events were rare."),
      new VerifySource("S2", "The \"new\" protocol doubled the dose of   vitamin D in elderly patients."));
  private static final List<VerifySource> PT = List.of(
      new VerifySource("S1", "A renovação de matrícula deve ser feita no início de cada semestre letivo, "
          + "pelo próprio aluno, no sistema acadêmico."),
      new VerifySource("S2", "O curso tem duração mínima de quatro anos e máxima de sete anos."));

  private static Verification verify(List<VerifySource> sources, String answer) throws Exception {
    return EvidenceVerifier.lexical().verify(null, sources, Answer.parse(answer));
  }

  @Test
  void claimThenVerbatimExtractPassesUpToCaseSpaceQuoteMarksAndEllipsis() throws Exception {
    Verification v = verify(EN, "Aspirin lowered stroke incidence by 20% [S1] \u201cAspirin reduced the incidence of"
        + " stroke by 20%\u201d.\nA higher vitamin D dose was used [S2]: \"the 'new' protocol doubled the dose of vitamin D\"."
        + "\nStrokes fell [S1] \"aspirin reduced \u2026 by 20% over five years\".");
    assertThat(v.quotes()).hasSize(3).allSatisfy(q -> {
      assertThat(q.status()).isEqualTo(QuoteCheck.Status.VERBATIM);
      assertThat(q.similarity()).isEqualTo(1.0);
    });
    assertThat(v.quotes()).extracting(q -> q.quote().citations()).containsExactly(List.of("S1"), List.of("S2"),
        List.of("S1"));
    QuoteCheck first = v.quotes().get(0);
    assertThat(EN.get(0).text().substring(first.closest().start(), first.closest().end()))
        .isEqualTo("aspirin reduced the incidence of stroke by 20%");
    assertThat(v.misquotes()).isEmpty();
    assertThat(v.feedback()).doesNotContain("Quote");
  }

  @Test
  void oneWordChangedIsAlteredWithTheClosestRealSpan() throws Exception {
    Verification v = verify(EN, "Aspirin lowered stroke incidence [S1] \"aspirin reduced the incidence of stroke by 30%\".");
    QuoteCheck q = v.quotes().get(0);
    assertThat(q.status()).isEqualTo(QuoteCheck.Status.ALTERED);
    assertThat(q.source()).isEqualTo("S1");
    assertThat(q.closest().text()).isEqualTo("aspirin reduced the incidence of stroke by 20%");
    assertThat(q.similarity()).isGreaterThan(0.8).isLessThan(1.0);
    assertThat(v.passed()).isFalse();
    assertThat(v.feedback()).contains("Quote 1").contains("not verbatim").contains("aspirin reduced the incidence of stroke by 20");
  }

  @Test
  void anExtractAfterACitationIsEvidenceSoTheClaimIsCheckedOnItsOwnWords() throws Exception {
    Verification v = verify(EN, "Aspirin lowered stroke incidence by 20% [S1] \"aspirin reduced the incidence of stroke"
        + " by 30%\".\n[S2] \"the new protocol doubled the dose of vitamin D\" \u2014 that is, the protocol doubled the"
        + " vitamin D dose [S2].");
    assertThat(v.claims()).extracting(c -> c.claim().text())
        .containsExactly("Aspirin lowered stroke incidence by 20%.", "that is, the protocol doubled the vitamin D dose.");
    assertThat(v.claims().get(0).verdict()).isEqualTo(Verdict.SUPPORTED);
    assertThat(v.quotes()).extracting(QuoteCheck::status)
        .containsExactly(QuoteCheck.Status.ALTERED, QuoteCheck.Status.VERBATIM);
    // a claim that is only the extract is left whole
    Answer digest = Answer.parse("- [S1] \"bleeding events were rare\"");
    assertThat(digest.claims()).singleElement().extracting(Claim::text).isEqualTo("\"bleeding events were rare\"");
  }

  @Test
  void anExtractFromAnotherGivenSourceNamesThatSource() throws Exception {
    Verification v = verify(EN, "The dose was doubled [S1] \"the new protocol doubled the dose of vitamin D\".");
    QuoteCheck q = v.quotes().get(0);
    assertThat(q.status()).isEqualTo(QuoteCheck.Status.OTHER_SOURCE);
    assertThat(q.source()).isEqualTo("S2");
    assertThat(v.feedback()).contains("but in [S2]");
  }

  @Test
  void anExtractFromNoSourceIsReported() throws Exception {
    Verification v = verify(EN, "Aspirin works [S1] \"the treatment cured every patient within a week\".");
    assertThat(v.quotes().get(0).status()).isEqualTo(QuoteCheck.Status.NO_SOURCE);
    assertThat(v.passed()).isFalse();
    assertThat(v.feedback()).contains("is in no source");
  }

  @Test
  void quoteThenParaphraseAndDigestLinesAttributeToTheMarkerBeside() throws Exception {
    Answer a = Answer.parse("[S1] \"aspirin reduced the incidence of stroke by 20%\" \u2014 in other words, fewer"
        + " strokes with aspirin.\n\nKey extracts:\n- [S2] \"doubled the dose of vitamin D\"\n- \"bleeding events were"
        + " rare\" [S1]\n\nAnswer: aspirin cut strokes [S1] and the dose was doubled [S2].");
    assertThat(a.quotes()).extracting(Quote::citations).containsExactly(List.of("S1"), List.of("S2"), List.of("S1"));
    Verification v = EvidenceVerifier.lexical().verify(null, EN, a);
    assertThat(v.misquotes()).isEmpty();
  }

  @Test
  void anExtractInASentenceOfItsOwnSupportsTheClaimBeforeItAndIsNoClaim() throws Exception {
    Answer a = Answer.parse("Aspirin lowered stroke incidence by a fifth [S1]. \"Aspirin reduced the incidence of"
        + " stroke by 20%.\"");
    assertThat(a.claims()).hasSize(1);
    assertThat(a.quotes()).singleElement().satisfies(q -> {
      assertThat(q.citations()).containsExactly("S1");
      assertThat(q.claim()).isEqualTo(1);
    });
  }

  @Test
  void aWordOrTwoInQuoteMarksIsATermNotAQuote() {
    Answer a = Answer.parse("The so-called \"new protocol\" doubled the dose [S2].");
    assertThat(a.quotes()).isEmpty();
  }

  @Test
  void portugueseQuotesAreCheckedTheSameWay() throws Exception {
    Verification ok = verify(PT, "A renovação é semestral [S1]: \u00abdeve ser feita no início de cada semestre"
        + " letivo\u00bb.");
    assertThat(ok.quotes()).singleElement().extracting(QuoteCheck::status).isEqualTo(QuoteCheck.Status.VERBATIM);
    Verification altered = verify(PT, "A renovação é semestral [S1]: \"deve ser feita no fim de cada semestre letivo\".");
    assertThat(altered.quotes().get(0).status()).isEqualTo(QuoteCheck.Status.ALTERED);
    assertThat(altered.feedback()).contains("Citação 1").contains("não é literal");
    Verification other = verify(PT, "O curso dura quatro anos [S1] \"duração mínima de quatro anos\".");
    assertThat(other.quotes().get(0).status()).isEqualTo(QuoteCheck.Status.OTHER_SOURCE);
    assertThat(other.quotes().get(0).source()).isEqualTo("S2");
  }

  @Test
  void jsonClaimsCarryTheirQuotes() throws Exception {
    Answer a = Answer.of("", List.of(Claim.of("Aspirin lowered strokes.", List.of("S1"))),
        List.of(List.of("aspirin reduced the incidence of stroke by 25%")));
    Verification v = EvidenceVerifier.lexical().verify(null, EN, a);
    assertThat(v.quotes()).singleElement().satisfies(q -> {
      assertThat(q.status()).isEqualTo(QuoteCheck.Status.ALTERED);
      assertThat(q.quote().start()).isEqualTo(-1);
    });
  }

  @Test
  void anAbstentionNamesWhatIsMissingAndWhatToRetrieveNext() throws Exception {
    Answer a = Answer.parse("The sources do not contain the answer.\nMissing: the trial's mortality figures.\n"
        + "Next: retrieve the trial's full results table.");
    assertThat(a.abstained()).isTrue();
    assertThat(a.claims()).isEmpty();
    assertThat(a.gap()).isEqualTo(new Answer.Gap("the trial's mortality figures.", "retrieve the trial's full results table."));
    Answer pt = Answer.parse("As fontes não contêm a resposta.\n- **Falta:** o número de vagas.\n- **Próximo passo:**"
        + " buscar o edital de 2024.");
    assertThat(pt.abstained()).isTrue();
    assertThat(pt.gap().missing()).isEqualTo("o número de vagas.");
    assertThat(pt.gap().next()).isEqualTo("buscar o edital de 2024.");
    assertThat(Answer.parse("Aspirin cut strokes [S1].").gap()).isNull();
  }
}
