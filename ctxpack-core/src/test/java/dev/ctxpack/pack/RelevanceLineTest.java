package dev.ctxpack.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Source;
import dev.ctxpack.retrieve.GivenCandidates;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The relevance line: a budget is a ceiling, not a quota. Sentences below the line are not sent
 * ({@code below-relevance}), and when nothing clears it the package says the evidence is
 * insufficient and does what {@link OnInsufficient} asks, in English and Portuguese.
 */
class RelevanceLineTest {
  private static final String ANSWER = "The Eiffel Tower was completed in 1889 for the World's Fair in Paris.";

  private static List<Candidate> tower() {
    List<Candidate> in = new ArrayList<>();
    in.add(GivenCandidates.candidate("t1", "tower", ANSWER + " Its iron lattice was designed by the company of Gustave"
        + " Eiffel. Critics of the day called it an eyesore.", 0, "Eiffel Tower", "", null, 0.9));
    String[] filler = {
        "The city's bakeries open early and close late on most days of the week.",
        "Many visitors travel by train from the northern coast during the summer holidays.",
        "The river is crossed by thirty-seven bridges, several of them pedestrian only.",
        "Street markets sell cheese, flowers, old books and records on weekend mornings.",
        "Museums of the capital hold collections of painting, sculpture and decorative arts."};
    for (int i = 0; i < filler.length; i++) {
      in.add(GivenCandidates.candidate("f" + i, "city-" + i, filler[i] + " " + filler[(i + 1) % filler.length], 0, "Paris",
          "", null, 0.5 - i / 100.0));
    }
    return in;
  }

  private static String sources(ContextPackage p) {
    return p.sources().stream().map(Source::text).collect(Collectors.joining("\n"));
  }

  private static String trace(ContextPackage p) {
    return p.trace().stream().map(Decision::toString).collect(Collectors.joining("\n"));
  }

  @Test
  void anAnswerableQuestionSpendsOnlyWhatClearsTheLine() throws Exception {
    EvidencePacker packer = EvidencePacker.builder().build();
    String q = "When was the Eiffel Tower completed?";
    ContextPackage lined = packer.pack(q, tower(), PackOptions.builder().budget(2000).build());
    ContextPackage filled = packer.pack(q, tower(), PackOptions.builder().budget(2000).minRelevance(0).build());

    assertEquals("sufficient", lined.evidence().status(), trace(lined));
    assertEquals(PackOptions.Relevance.DEFAULT_LINE, lined.evidence().line());
    assertTrue(sources(lined).contains("completed in 1889"), sources(lined));
    assertFalse(sources(lined).contains("bakeries"), "filler under the line is not sent: " + sources(lined));
    assertTrue(filled.sources().size() > lined.sources().size(), "with the line at 0 the budget is filled as before");
    assertTrue(lined.budget().byComponent().get("sources") < filled.budget().byComponent().get("sources"));
    assertTrue(lined.trace().stream().anyMatch(d -> d.rule().equals("compress:below-relevance")), trace(lined));
    assertEquals("unchecked", filled.evidence().status(), "no line, no judgement");
  }

  @Test
  void aQuestionTheSourcesDoNotAnswerAbstainsAndNamesWhatCameClosest() throws Exception {
    ContextPackage p = EvidencePacker.builder().build().pack("What is the boiling point of liquid nitrogen in kelvin?",
        tower(), PackOptions.builder().budget(2000).build());

    assertEquals("insufficient", p.evidence().status(), trace(p));
    assertEquals("abstain", p.evidence().action());
    assertTrue(p.sources().isEmpty(), "nothing is sent: " + sources(p));
    assertEquals(0, p.budget().byComponent().get("sources"));
    assertTrue(p.prompt().contains("No source found for this question is relevant enough to send"), p.prompt());
    assertTrue(p.prompt().contains(PromptTemplate.EN.abstention()), p.prompt());
    assertTrue(p.prompt().contains("boiling point of liquid nitrogen"), "the question is still asked");
    assertFalse(p.evidence().closest().isEmpty(), "what came closest is listed");
    assertTrue(p.evidence().closest().size() <= RelevanceLine.CLOSEST);
    double previous = 1;
    for (ContextPackage.Closest c : p.evidence().closest()) {
      assertTrue(c.score() < p.evidence().line(), "below the line: " + c);
      assertTrue(c.score() <= previous, "best first");
      previous = c.score();
      assertFalse(c.text().isBlank());
    }
    assertTrue(p.trace().stream().anyMatch(d -> d.rule().equals("relevance:insufficient") && d.into().equals("abstain")), trace(p));
  }

  @Test
  void portugueseAbstainsInPortuguese() throws Exception {
    List<Candidate> in = List.of(
        GivenCandidates.candidate("r1", "renovacao", "A renovação de matrícula ocorre semestralmente, no período previsto no"
            + " calendário acadêmico.", 0, "Guia", "", null, 0.9),
        GivenCandidates.candidate("b1", "biblioteca", "A biblioteca empresta até cinco livros por aluno durante quinze dias.",
            0, "Guia", "", null, 0.8));
    ContextPackage no = EvidencePacker.builder().build().pack("Qual é a temperatura de fusão do tungstênio?", in,
        PackOptions.builder().budget(1500).build());
    assertEquals("insufficient", no.evidence().status(), trace(no));
    assertTrue(no.prompt().contains("Nenhuma fonte encontrada para esta pergunta"), no.prompt());
    assertTrue(no.prompt().contains(PromptTemplate.PT.abstention()), no.prompt());

    ContextPackage yes = EvidencePacker.builder().build().pack("Quando ocorre a renovação de matrícula?", in,
        PackOptions.builder().budget(1500).build());
    assertEquals("sufficient", yes.evidence().status(), trace(yes));
    assertTrue(sources(yes).contains("semestralmente"), sources(yes));
    assertFalse(sources(yes).contains("biblioteca"), "the unrelated source is not sent: " + sources(yes));
  }

  @Test
  void bestEffortSendsTheBestEvidenceAndStillSaysInsufficient() throws Exception {
    ContextPackage p = EvidencePacker.builder().build().pack("What is the boiling point of liquid nitrogen in kelvin?",
        tower(), PackOptions.builder().budget(2000).onInsufficient(OnInsufficient.BEST_EFFORT).build());
    assertEquals("insufficient", p.evidence().status());
    assertEquals("best-effort", p.evidence().action());
    assertFalse(p.sources().isEmpty(), "the budget is filled anyway");
    assertFalse(p.prompt().contains("No source found for this question"), p.prompt());
    assertTrue(p.trace().stream().anyMatch(d -> d.rule().equals("relevance:insufficient") && d.into().equals("best-effort")));
  }

  @Test
  void failThrowsWithTheClosestCandidates() {
    InsufficientEvidenceException e = assertThrows(InsufficientEvidenceException.class, () -> EvidencePacker.builder().build()
        .pack("What is the boiling point of liquid nitrogen in kelvin?", tower(),
            PackOptions.builder().budget(2000).onInsufficient(OnInsufficient.FAIL).build()));
    assertEquals("insufficient", e.evidence().status());
    assertFalse(e.evidence().closest().isEmpty());
    assertTrue(e.getMessage().startsWith("insufficient evidence: no sentence clears the relevance line 0.14; closest:"),
        e.getMessage());
  }

  @Test
  void noCandidateAtAllIsInsufficientToo() throws Exception {
    ContextPackage p = EvidencePacker.builder().build().pack("Who built the tower?", List.of(),
        PackOptions.builder().budget(400).build());
    assertEquals("insufficient", p.evidence().status());
    assertTrue(p.evidence().closest().isEmpty());
  }

  @Test
  void aLineOutsideZeroToOneIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PackOptions.builder().minRelevance(1.5).build());
    assertEquals("min relevance must be in [0, 1], was 1.5", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> OnInsufficient.parse("retry"));
    assertEquals(OnInsufficient.BEST_EFFORT, OnInsufficient.parse(" Best-Effort "));
  }

  @Test
  void sameQuestionSamePackage() throws Exception {
    EvidencePacker packer = EvidencePacker.builder().build();
    PackOptions o = PackOptions.builder().budget(2000).build();
    String q = "What is the boiling point of liquid nitrogen in kelvin?";
    assertEquals(packer.pack(q, tower(), o), packer.pack(q, tower(), o));
  }

  /** The best sentence's probability for {@code q}: read from a package whose line nothing clears. */
  private static double best(EvidencePacker packer, String q) throws Exception {
    ContextPackage probe = packer.pack(q, tower(), PackOptions.builder().budget(2000).minRelevance(1).build());
    assertEquals("insufficient", probe.evidence().status());
    return probe.evidence().closest().get(0).score();
  }

  @Test
  void underTheLineAPassageCoveringTheQuestionStillSendsItsEvidenceAndTheTraceSaysWhy() throws Exception {
    EvidencePacker packer = EvidencePacker.builder().build();
    String q = "When was the Eiffel Tower completed?";
    double best = best(packer, q);
    double line = Math.min(1, best + 0.01); // just over the best sentence, well within its covered share

    ContextPackage covered = packer.pack(q, tower(), PackOptions.builder().budget(2000).minRelevance(line).minCoverage(0.5).build());
    assertEquals("sufficient", covered.evidence().status(), trace(covered));
    assertTrue(sources(covered).contains("completed in 1889"), sources(covered));
    Decision d = covered.trace().stream().filter(x -> x.rule().equals("relevance:covered")).findFirst().orElseThrow();
    assertEquals(List.of("t1"), d.ids());
    assertTrue(d.reason().contains("covers 1.00 of the query's weighted terms (at least 0.50): its evidence is sent"), d.reason());

    ContextPackage off = packer.pack(q, tower(), PackOptions.builder().budget(2000).minRelevance(line)
        .minCoverage(PackOptions.Relevance.NO_COVER).build());
    assertEquals("insufficient", off.evidence().status(), "off: the line alone decides");
    assertFalse(off.trace().stream().anyMatch(x -> x.rule().startsWith("relevance:covered") || x.rule().startsWith("relevance:uncovered")));

    ContextPackage handSet = packer.pack(q, tower(), PackOptions.builder().budget(2000).minRelevance(line).build());
    assertEquals("insufficient", handSet.evidence().status(), "a hand-set line means what it says unless a coverage is asked");

    String weak = "Who called the lattice an eyesore?";
    double weakBest = best(packer, weak);
    assertTrue(weakBest / PackOptions.Relevance.COVERED_SHARE + 0.01 <= 1, "a line over the covered share exists: " + weakBest);
    ContextPackage underFloor = packer.pack(weak, tower(), PackOptions.builder().budget(2000)
        .minRelevance(weakBest / PackOptions.Relevance.COVERED_SHARE + 0.01).minCoverage(0).build());
    assertEquals("insufficient", underFloor.evidence().status(), "under the covered share of the line, coverage is not read");
    assertFalse(underFloor.trace().stream().anyMatch(x -> x.rule().startsWith("relevance:")
        && !x.rule().equals("relevance:insufficient")), trace(underFloor));
  }

  @Test
  void aPassageThatCoversTooLittleLeavesTheVerdictToTheLine() throws Exception {
    EvidencePacker packer = EvidencePacker.builder().build();
    String q = "When was the Eiffel Tower completed for the exhibition of industrial machinery in Lyon?";
    double best = best(packer, q);
    ContextPackage p = packer.pack(q, tower(), PackOptions.builder().budget(2000).minRelevance(Math.min(1, best + 0.01))
        .minCoverage(1).build());
    assertEquals("insufficient", p.evidence().status(), trace(p));
    Decision d = p.trace().stream().filter(x -> x.rule().equals("relevance:uncovered")).findFirst().orElseThrow();
    assertTrue(d.reason().endsWith("(under 1.00): the line decides"), d.reason());
    assertTrue(p.trace().stream().anyMatch(x -> x.rule().equals("relevance:insufficient")));
  }

  @Test
  void theCoverageIsTheDefaultLinesOnlyUnlessAsked() {
    PackOptions.Relevance defaults = PackOptions.defaults().relevance();
    assertEquals(PackOptions.Relevance.DEFAULT_COVERAGE, defaults.coverageNeeded());
    assertEquals(PackOptions.Relevance.NO_COVER, PackOptions.builder().minRelevance(0.3).build().relevance().coverageNeeded());
    assertEquals(0.25, PackOptions.builder().minRelevance(0.3).minCoverage(0.25).build().relevance().coverageNeeded());
    assertEquals(PackOptions.Relevance.NO_COVER, PackOptions.builder().minCoverage(PackOptions.Relevance.NO_COVER).build()
        .relevance().coverageNeeded());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PackOptions.builder().minCoverage(1.5).build());
    assertEquals("min coverage must be in [0, 1], was 1.5", e.getMessage());
  }
}
