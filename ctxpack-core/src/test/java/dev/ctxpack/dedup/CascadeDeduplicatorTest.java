package dev.ctxpack.dedup;

import dev.ctxpack.model.Action;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.similarity.Words;
import static dev.ctxpack.testing.Fixtures.candidate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Trace;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class CascadeDeduplicatorTest {
  private static CascadeDeduplicator cascade(DedupOptions o) {
    return new CascadeDeduplicator(o);
  }

  private static final CascadeDeduplicator STRICT = cascade(DedupOptions.strict());

  private static Candidate c(String id, String doc, String text, double score) {
    return candidate(id, doc, text, 5, Scores.of(Signal.FUSED, score));
  }

  private static Candidate at(String id, String doc, String docText, int start, int end, double score) {
    return candidate(id, doc, start, docText.substring(start, end), 5, Scores.of(Signal.FUSED, score));
  }

  private static List<Passage> run(CascadeDeduplicator d, Trace t, Candidate... cs) throws IOException {
    return run(d, PassageVectors.none(), t, cs);
  }

  private static List<Passage> run(CascadeDeduplicator d, PassageVectors v, Trace t, Candidate... cs) throws IOException {
    return d.dedupCandidates(List.of(cs), Tokenizers.defaultTokenizer(), v, t).passages();
  }

  private static List<String> sourceIds(Passage p) {
    return p.sources().stream().map(x -> x.chunk().id()).toList();
  }

  @Example
  void exactCopiesAfterCaseWhitespaceAndNfkcAreDroppedIntoTheBestRanked() throws IOException {
    Candidate best = c("c1", "d1", "The cat sat on the mat.", 0.9);
    Candidate other = c("c2", "d2", "A different sentence.", 0.8);
    Candidate spaced = c("c3", "d3", "THE  cat\r\nsat on\tthe MAT.", 0.7);
    Candidate fullWidth = c("c4", "d4", "Ｔｈｅ cat sat on the mat.", 0.6);
    Trace trace = new Trace();

    List<Passage> out = run(cascade(DedupOptions.strict().withLevels(EnumSet.of(DedupLevel.EXACT))), trace,
        best, other, spaced, fullWidth);

    assertThat(out).extracting(Passage::id).containsExactly("c1", "c2");
    assertThat(out.get(0).text()).isEqualTo("The cat sat on the mat.");
    assertThat(out.get(0).sources()).containsExactly(best, spaced, fullWidth);
    assertThat(trace.decisions()).extracting(Decision::action).containsOnly(Action.DROP);
    assertThat(trace.decisions()).extracting(Decision::level).containsOnly("exact");
    assertThat(trace.decisions()).extracting(Decision::ids).containsExactly(List.of("c3"), List.of("c4"));
  }

  @Example
  void punctuationOnlyCopyIsANearCopyAndAddsNothing() throws IOException {
    Trace trace = new Trace();
    List<Passage> out = run(STRICT, trace,
        c("a", "d1", "Coffee is grown in Brazil. It is exported worldwide.", 0.9),
        c("b", "d2", "Coffee is grown in Brazil; it is exported worldwide!", 0.5));
    assertThat(out).hasSize(1);
    assertThat(out.get(0).text()).isEqualTo("Coffee is grown in Brazil. It is exported worldwide.");
    assertThat(sourceIds(out.get(0))).containsExactly("a", "b");
    Decision d = trace.decisions().get(0);
    assertThat(d.action()).isEqualTo(Action.MERGE);
    assertThat(d.rule()).isEqualTo("near:jaccard>=0.85");
    assertThat(d.similarity()).isEqualTo(1.0);
    assertThat(d.into()).isEqualTo("a");
  }

  @Example
  void nearCopyWithAnAddedSentenceKeepsThatSentenceVerbatimWithItsOffsets() throws IOException {
    String base = "The committee met on Tuesday to review the annual budget of the city library and its branches. "
        + "Members agreed that the reading rooms will stay open on weekends during the whole summer season. "
        + "The decision follows a long public consultation with readers, staff and local schools across the region.";
    String added = "Update from the press office. ";
    Trace trace = new Trace();
    List<Passage> out = run(STRICT, trace, c("a", "d1", base, 0.9), c("b", "d2", added + base, 0.4));

    assertThat(out).hasSize(1);
    Passage p = out.get(0);
    assertThat(p.pieces()).hasSize(2);
    assertThat(p.text()).isEqualTo(base + Passage.GAP + "Update from the press office.");
    Passage.Piece extra = p.pieces().get(1);
    assertThat(extra.docId()).isEqualTo("d2");
    assertThat((added + base).substring(extra.span().start(), extra.span().end())).isEqualTo(extra.text());
    assertThat(sourceIds(p)).containsExactly("a", "b");
    assertThat(trace.decisions().get(0).reason()).contains("1 sentence(s) only it has kept");
  }

  @Example
  void aShortPassageWithAWholeSentenceAddedIsANearCopyByContainment() throws IOException {
    String base = "The museum opens at nine on weekdays. Tickets are sold at the main entrance only.";
    String longer = base + " Guided tours in English and Portuguese start every hour from the lobby.";
    double j = Words.shingleJaccard(base, longer, 5);
    assertThat(j).isLessThan(0.85);
    Trace trace = new Trace();
    List<Passage> out = run(STRICT, trace, c("a", "d1", base, 0.9), c("b", "d2", longer, 0.8));
    assertThat(out).hasSize(1);
    assertThat(out.get(0).text()).isEqualTo(base + Passage.GAP
        + "Guided tours in English and Portuguese start every hour from the lobby.");
    assertThat(trace.decisions().get(0).rule()).isEqualTo("near:containment>=0.90");
    assertThat(trace.decisions().get(0).similarity()).isEqualTo(1.0);
    // with containment switched off (threshold 1 can still match a full subset), only jaccard counts
    assertThat(run(cascade(DedupOptions.strict().withNearContainment(1.0).withLevels(EnumSet.of(DedupLevel.NEAR))),
        new Trace(), c("a", "d1", base, 0.9), c("b", "d2", longer.replace("nine", "ten"), 0.8))).hasSize(2);
  }

  @Example
  void theGuardKeepsRuleAndExceptionApartInEnglishAndPortuguese() throws IOException {
    String[][] pairs = {
        {"Employees may work remotely on Fridays with the approval of their manager and team lead.",
            "Employees may not work remotely on Fridays with the approval of their manager and team lead.", "negation"},
        {"The refund is paid within 30 days of the request being received by the finance department.",
            "The refund is paid within 45 days of the request being received by the finance department.", "number"},
        {"O reembolso é pago em até 30 dias após o recebimento do pedido pelo departamento financeiro.",
            "O reembolso não é pago em até 30 dias após o recebimento do pedido pelo departamento financeiro.", "negation"},
        {"O acesso ao laboratório é permitido a todos os alunos matriculados no curso de química geral.",
            "O acesso ao laboratório é permitido a todos os alunos matriculados no curso, exceto química geral.", "condition"},
        {"The new policy takes effect on 1 March 2025 for every office in the northern region of the country.",
            "The new policy takes effect on 1 June 2025 for every office in the northern region of the country.", "date"},
        {"A taxa de juros subiu para 13,75% ao ano segundo o comunicado divulgado pelo banco central hoje.",
            "A taxa de juros subiu para 13,25% ao ano segundo o comunicado divulgado pelo banco central hoje.", "number"},
    };
    DedupOptions loose = DedupOptions.strict().withNearJaccard(0.3);
    for (String[] pair : pairs) {
      Trace trace = new Trace();
      List<Passage> out = run(cascade(loose), trace, c("a", "d1", pair[0], 0.9), c("b", "d2", pair[1], 0.8));
      assertThat(out).as(pair[2] + ": " + pair[1]).hasSize(2);
      Decision keep = trace.decisions().stream().filter(d -> d.action() == Action.KEEP).findFirst().orElseThrow();
      assertThat(keep.rule()).isEqualTo("near:guard:" + pair[2]);
      assertThat(keep.ids()).containsExactly("b");
      assertThat(keep.into()).isEqualTo("a");
    }
  }

  @Example
  void aPassageThatNegatesAnotherNeverAbsorbsIt() throws IOException {
    String base = "Foi aprovado pelo conselho o novo regulamento de estágio dos cursos de engenharia da universidade.";
    Trace trace = new Trace();
    List<Passage> out = run(STRICT, trace, c("n", "d1", "Não " + base.substring(0, 1).toLowerCase() + base.substring(1), 0.9),
        c("p", "d2", base, 0.8));
    assertThat(out).hasSize(2);
    assertThat(trace.decisions()).extracting(Decision::rule).containsExactly("near:guard:negation");
  }

  @Example
  void withTheGuardOffTheSamePairsMerge() throws IOException {
    DedupOptions noGuard = DedupOptions.strict().withNearJaccard(0.3).withGuard(false);
    List<Passage> out = run(cascade(noGuard), new Trace(),
        c("a", "d1", "Employees may work remotely on Fridays with the approval of their manager.", 0.9),
        c("b", "d2", "Employees may not work remotely on Fridays with the approval of their manager.", 0.8));
    assertThat(out).hasSize(1);
    // the merge still keeps the differing sentence: nothing is lost, only the provenance blurs
    assertThat(out.get(0).text()).contains("may not work");
  }

  @Example
  void overlappingAndTouchingWindowsOfOneDocumentAreStitchedWithBothEdges() throws IOException {
    String doc = "Alpha one two three. Beta four five six. Gamma seven eight nine. Delta ten eleven twelve. "
        + "Epsilon thirteen fourteen.";
    Trace trace = new Trace();
    List<Passage> out = run(STRICT, trace,
        at("w2", "d", doc, 21, 64, 0.9), // Beta..Gamma
        at("w1", "d", doc, 0, 40, 0.8), // Alpha..Beta (overlaps w2)
        at("w3", "d", doc, 64, 90, 0.7), // Delta.. (touches w2 at 64)
        at("x", "other", "Unrelated text about tea.", 0, 25, 0.6));

    assertThat(out).extracting(Passage::id).containsExactly("w2", "x");
    Passage p = out.get(0);
    assertThat(p.pieces()).hasSize(1);
    assertThat(p.pieces().get(0).span().start()).isZero();
    assertThat(p.pieces().get(0).span().end()).isEqualTo(90);
    assertThat(p.text()).isEqualTo(doc.substring(0, 90));
    assertThat(sourceIds(p)).containsExactly("w2", "w1", "w3");
    assertThat(trace.decisions()).filteredOn(d -> d.action() == Action.STITCH).hasSize(2)
        .allSatisfy(d -> assertThat(d.rule()).isEqualTo("overlap:same-document-offsets"));
  }

  @Example
  void windowsWhoseTextsDisagreeOnTheirOverlapAreNotStitched() throws IOException {
    Trace trace = new Trace();
    List<Passage> out = run(STRICT, trace,
        candidate("a", "d", 0, "abcdefghij", 3, Scores.of(Signal.FUSED, 0.9)),
        candidate("b", "d", 5, "XXXXXklmno", 3, Scores.of(Signal.FUSED, 0.8)));
    assertThat(out).hasSize(2);
    assertThat(trace.decisions()).extracting(Decision::rule).contains("overlap:texts-disagree");
  }

  @Example
  void semanticMatchesAreGroupedWithDistinctSentencesAndSharedOnesOnce() throws IOException {
    Map<String, float[]> vecs = Map.of(
        "a", new float[] {1, 0, 0}, "b", new float[] {0.96f, 0.28f, 0}, "c", new float[] {0, 0, 1},
        "n", new float[] {0.97f, 0.243f, 0});
    PassageVectors pv = ps -> vecs;
    CascadeDeduplicator d = new CascadeDeduplicator(DedupOptions.strict());
    Trace trace = new Trace();
    List<Passage> out = run(d, pv, trace,
        c("a", "d1", "Aspirin reduces fever in adults. It is sold over the counter.", 0.9),
        c("b", "d2", "In adults, fever goes down with aspirin. It is sold over the counter.", 0.8),
        c("c", "d3", "Penguins live in the southern hemisphere.", 0.7),
        c("n", "d4", "Aspirin does not reduce fever in adults. It is sold over the counter.", 0.6));

    assertThat(out).extracting(Passage::id).containsExactly("a", "c", "n");
    Passage group = out.get(0);
    assertThat(group.text()).isEqualTo("Aspirin reduces fever in adults. It is sold over the counter."
        + Passage.GAP + "In adults, fever goes down with aspirin.");
    assertThat(sourceIds(group)).containsExactly("a", "b");
    Decision g = trace.decisions().stream().filter(x -> x.action() == Action.GROUP).findFirst().orElseThrow();
    assertThat(g.rule()).isEqualTo("semantic:cosine>=0.91");
    assertThat(g.similarity()).isCloseTo(0.96, org.assertj.core.data.Offset.offset(0.001));
    assertThat(trace.decisions()).extracting(Decision::rule).contains("semantic:guard:negation");
  }

  @Example
  void semanticLevelIsSkippedWithoutVectors() throws IOException {
    List<Passage> out = run(STRICT, new Trace(),
        c("a", "d1", "Aspirin reduces fever in adults.", 0.9), c("b", "d2", "In adults, fever goes down with aspirin.", 0.8));
    assertThat(out).hasSize(2);
  }

  // ---- properties ----

  private static final List<String> SENTENCES = List.of(
      "The river floods every spring.", "Farmers plant rice after the flood.", "O rio não transborda no inverno.",
      "Prices rose 12% in 2024.", "Prices rose 15% in 2024.", "Os preços subiram exceto no Norte.",
      "Rain falls mostly in March.", "Nobody lives on the island.", "A ponte foi construída em 1950.",
      "Birds migrate south in autumn.");

  record Doc(String id, String text) {}

  @Provide
  Arbitrary<List<Candidate>> windows() {
    Arbitrary<Doc> doc = Combinators.combine(Arbitraries.integers().between(0, 4),
        Arbitraries.of(SENTENCES).list().ofMinSize(2).ofMaxSize(8)).as((i, ss) -> new Doc("d" + i, String.join(" ", ss)));
    return doc.list().ofMinSize(1).ofMaxSize(4).uniqueElements(Doc::id).flatMap(docs ->
        Combinators.combine(Arbitraries.integers().between(0, docs.size() - 1), Arbitraries.doubles().between(0, 1),
            Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1))
            .as((di, a, b, score) -> {
              Doc d = docs.get(di);
              int x = (int) (a * d.text().length());
              int y = (int) (b * d.text().length());
              int s = Math.min(x, y);
              int e = Math.max(x, y);
              if (e == s) e = Math.min(d.text().length(), s + 1);
              return candidate(d.id() + "@" + s + "-" + e + "#" + Math.round(score * 1e6), d.id(), s,
                  d.text().substring(s, e), 3, Scores.of(Signal.FUSED, score));
            }).list().ofMinSize(0).ofMaxSize(25).uniqueElements(x -> x.chunk().id()));
  }

  /**
   * Two cascades sharing a memory (a packer's two passes), each run twice over the same
   * candidates, give the passages and trace of cascades without one; and the memory holds reads.
   */
  @Property(tries = 200)
  void cascadesSharingAMemoryDedupAsCascadesWithout(@ForAll("windows") List<Candidate> in) throws IOException {
    DedupMemory memory = new DedupMemory(1_000_000);
    CascadeDeduplicator before = cascade(DedupOptions.conservative());
    CascadeDeduplicator after = STRICT;
    CascadeDeduplicator beforeRemembering = before.withMemory(memory);
    CascadeDeduplicator afterRemembering = after.withMemory(memory);
    for (int round = 0; round < 2; round++) {
      Trace plain = new Trace();
      Trace remembering = new Trace();
      var tok = Tokenizers.defaultTokenizer();
      List<Passage> first = before.dedupCandidates(in, tok, PassageVectors.none(), plain).passages();
      List<Passage> firstRemembering = beforeRemembering.dedupCandidates(in, tok, PassageVectors.none(), remembering).passages();
      assertThat(firstRemembering).isEqualTo(first);
      List<Passage> second = after.dedup(first, tok, PassageVectors.none(), plain).passages();
      List<Passage> secondRemembering = afterRemembering.dedup(firstRemembering, tok, PassageVectors.none(), remembering).passages();
      assertThat(secondRemembering).isEqualTo(second);
      assertThat(remembering.decisions()).isEqualTo(plain.decisions());
    }
    assertThat(memory.size()).isLessThanOrEqualTo(2 * in.size());
    if (!in.isEmpty()) assertThat(memory.size()).isPositive();
  }

  @Property(tries = 300)
  void everyInputLandsInExactlyOnePassageAndEveryPieceIsVerbatim(@ForAll("windows") List<Candidate> in)
      throws IOException {
    Map<String, String> chunkTextById = new HashMap<>();
    for (Candidate x : in) chunkTextById.put(x.chunk().id(), x.chunk().text());
    Trace trace = new Trace();
    List<Passage> out = STRICT.dedupCandidates(in, Tokenizers.defaultTokenizer(), PassageVectors.none(), trace).passages();

    Map<String, Integer> seen = new HashMap<>();
    for (Passage p : out) {
      for (Candidate s : p.sources()) seen.merge(s.chunk().id(), 1, Integer::sum);
      assertThat(p.text()).isEqualTo(Passage.join(p.pieces()));
      for (Passage.Piece piece : p.pieces()) {
        // verbatim: the piece is the text of some input window of its document at its offsets,
        // or the union of windows whose texts agree (so any window inside it matches it)
        boolean covered = in.stream().filter(x -> x.doc().id().equals(piece.docId()))
            .filter(x -> x.chunk().span().start() >= piece.span().start() && x.chunk().span().end() <= piece.span().end())
            .allMatch(x -> piece.text().substring(x.chunk().span().start() - piece.span().start(),
                x.chunk().span().end() - piece.span().start()).equals(x.chunk().text()));
        assertThat(covered).as("piece %s of %s", piece.span(), piece.docId()).isTrue();
        boolean inside = in.stream().filter(x -> x.doc().id().equals(piece.docId())).anyMatch(x ->
            x.chunk().span().start() <= piece.span().start() && piece.span().end() <= x.chunk().span().end())
            || in.stream().anyMatch(x -> x.doc().id().equals(piece.docId()) && x.chunk().span().start() == piece.span().start());
        assertThat(inside).isTrue();
      }
    }
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(chunkTextById.keySet());
    assertThat(seen.values()).allMatch(n -> n == 1, "appears once");
    // every candidate absorbed into another has exactly one decision saying so
    long absorbed = trace.decisions().stream().filter(d -> d.action() != Action.KEEP).count();
    assertThat(absorbed).isEqualTo(in.size() - out.size());
    // best first, deterministic, independent of input order
    assertThat(out).isSortedAccordingTo((x, y) -> Double.compare(y.score(), x.score()));
    List<Candidate> reversed = new ArrayList<>(in);
    java.util.Collections.reverse(reversed);
    assertThat(STRICT.dedupCandidates(reversed, Tokenizers.defaultTokenizer(), PassageVectors.none(), new Trace()).passages()).isEqualTo(out);
  }

  private static final List<String> RULES = List.of(
      "The clinic opens at 8 on weekdays.", "Members may bring one guest.", "O prazo de entrega é de 30 dias.",
      "Refunds are paid in March.", "A biblioteca abre aos sábados.", "Parking is free for residents.",
      "O exame é obrigatório para todos os alunos.", "Tickets cost 12 euros.");

  /** One sentence turned around: a negation inserted, a number or a month changed, an exception added. */
  private static String mutate(String sentence, int how) {
    return switch (how) {
      case 0 -> sentence.matches(".*\\d.*") ? sentence.replaceFirst("\\d+", "47") : sentence.replaceFirst(" ", " not ");
      case 1 -> sentence.replaceFirst(" (é|abre|may|opens|cost|are|is) ", " não $1 ").replace("não may", "may not");
      case 2 -> sentence.replace(".", ", except on holidays.");
      default -> sentence.contains("March") ? sentence.replace("March", "June") : sentence.replace(".", ", desde que pago.");
    };
  }

  @Property(tries = 200)
  void aRuleAndItsExceptionNeverShareAPassage(@ForAll("windows") List<Candidate> noise,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 7) int rule,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 3) int how,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 5) int contextSentences,
      @ForAll boolean mutatedFirst) throws IOException {
    String context = String.join(" ", SENTENCES.subList(0, contextSentences));
    String original = (context + " " + RULES.get(rule)).strip();
    String changed = (context + " " + mutate(RULES.get(rule), how)).strip();
    org.junit.jupiter.api.Assumptions.assumeFalse(original.equals(changed));
    List<Candidate> in = new ArrayList<>(noise);
    in.add(c("orig", "rule-a", original, mutatedFirst ? 0.4 : 0.9));
    in.add(c("changed", "rule-b", changed, mutatedFirst ? 0.9 : 0.4));
    List<Passage> out = STRICT.dedupCandidates(in, Tokenizers.defaultTokenizer(), PassageVectors.none(), new Trace()).passages();
    for (Passage p : out) {
      List<String> ids = sourceIds(p);
      assertThat(ids.contains("orig") && ids.contains("changed")).as("%s / %s merged", original, changed).isFalse();
    }
  }
}
