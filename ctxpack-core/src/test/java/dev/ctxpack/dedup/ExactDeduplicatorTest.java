package dev.ctxpack.dedup;

import static dev.ctxpack.testing.Fixtures.candidate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Trace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ExactDeduplicatorTest {
  private final ExactDeduplicator dedup = new ExactDeduplicator();

  private static Candidate c(String id, String doc, String text, double score) {
    return candidate(id, doc, text, 5, Scores.of(Signal.FUSED, score));
  }

  @Example
  void copiesDifferingInCaseWhitespaceAndNfkcAreMergedIntoTheBestRanked() {
    Candidate best = c("c1", "d1", "The cat sat on the mat.", 0.9);
    Candidate other = c("c2", "d2", "A different sentence.", 0.8);
    Candidate spaced = c("c3", "d3", "THE  cat\r\nsat on\tthe MAT.", 0.7);
    Candidate fullWidth = c("c4", "d4", "Ｔｈｅ cat sat on the mat.", 0.6);
    Candidate punctuation = c("c5", "d5", "The cat sat on the mat!", 0.5);
    Trace trace = new Trace();

    List<Passage> out = dedup.dedup(List.of(best, other, spaced, fullWidth, punctuation), trace);

    assertThat(out).extracting(Passage::id).containsExactly("c1", "c2", "c5");
    Passage merged = out.get(0);
    assertThat(merged.text()).isEqualTo("The cat sat on the mat.");
    assertThat(merged.score()).isEqualTo(0.9);
    assertThat(merged.primary()).isEqualTo(best);
    assertThat(merged.sources()).containsExactly(best, spaced, fullWidth);
    assertThat(out.get(1).sources()).containsExactly(other);
    assertThat(out.get(2).sources()).containsExactly(punctuation);

    List<Decision> decisions = trace.decisions();
    assertThat(decisions).hasSize(2);
    assertThat(decisions).allSatisfy(d -> {
      assertThat(d.stage()).isEqualTo("dedup");
      assertThat(d.action()).isEqualTo("drop");
      assertThat(d.rule()).isEqualTo(ExactDeduplicator.RULE);
      assertThat(d.into()).isEqualTo("c1");
      assertThat(d.tokensSaved()).isEqualTo(5);
    });
    assertThat(decisions).extracting(Decision::ids).containsExactly(List.of("c3"), List.of("c4"));
    assertThat(decisions.get(0).reason()).contains("d3");
  }

  @Example
  void nothingToMergeKeepsEveryCandidateInOrder() {
    List<Candidate> in = List.of(c("x", "d", "one", 3), c("y", "d", "two", 2), c("z", "d", "three", 1));
    Trace trace = new Trace();
    assertThat(dedup.dedup(in, trace)).extracting(Passage::id).containsExactly("x", "y", "z");
    assertThat(trace.decisions()).isEmpty();
    assertThat(dedup.dedup(List.of(), trace)).isEmpty();
  }

  @Example
  void negationsAndNumbersAreNotDuplicates() {
    List<Candidate> in = List.of(
        c("a", "d1", "O prazo é de 30 dias.", 3), c("b", "d2", "O prazo é de 60 dias.", 2),
        c("c", "d3", "O prazo não é de 30 dias.", 1), c("d", "d4", "o prazo é de 30 dias.", 0.5));
    Trace trace = new Trace();
    List<Passage> out = dedup.dedup(in, trace);
    assertThat(out).extracting(Passage::id).containsExactly("a", "b", "c");
    assertThat(out.get(0).sources()).extracting(x -> x.chunk().id()).containsExactly("a", "d");
  }

  @Provide
  Arbitrary<List<Candidate>> candidates() {
    Arbitrary<String> base = Arbitraries.of("Alpha beta.", "Gamma delta!", "Não há prazo.", "3.14 is pi", "Ａｌｐｈａ");
    Arbitrary<String> variant = base.flatMap(t -> Arbitraries.of(t, t.toUpperCase(), " " + t + "\n", t.replace(" ", "  \t")));
    Arbitrary<Double> scores = Arbitraries.doubles().between(0, 1);
    return Arbitraries.integers().between(0, 30).flatMap(n -> variant.list().ofSize(n).flatMap(texts ->
        scores.list().ofSize(n).map(ss -> {
          ss.sort((x, y) -> Double.compare(y, x));
          List<Candidate> out = new ArrayList<>();
          for (int i = 0; i < n; i++) out.add(c("c" + i, "d" + (i % 4), texts.get(i), ss.get(i)));
          return out;
        })));
  }

  @Property(tries = 300)
  void everyCandidateLandsInExactlyOnePassageAndEveryDropIsRecorded(@ForAll("candidates") List<Candidate> in) {
    Trace trace = new Trace();
    List<Passage> out = dedup.dedup(in, trace);

    Map<String, Integer> seen = new HashMap<>();
    for (Passage p : out) {
      assertThat(p.id()).isEqualTo(p.primary().chunk().id());
      assertThat(p.text()).isEqualTo(p.primary().chunk().text());
      for (Candidate s : p.sources()) seen.merge(s.chunk().id(), 1, Integer::sum);
      // the kept copy is the best-ranked of its group: it comes first in the input
      assertThat(p.sources()).isSortedAccordingTo((x, y) -> Integer.compare(in.indexOf(x), in.indexOf(y)));
    }
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(in.stream().map(x -> x.chunk().id()).toList());
    assertThat(seen.values()).allMatch(n -> n == 1, "appears once");
    assertThat(trace.decisions()).hasSize(in.size() - out.size());
    // order preserved: passages appear in the order of their primaries in the input
    assertThat(out).isSortedAccordingTo((x, y) -> Integer.compare(in.indexOf(x.primary()), in.indexOf(y.primary())));
    // no two passages are exact duplicates of each other
    assertThat(out.stream().map(p -> dev.ctxpack.text.TextNormalizer.identityForm(p.text())).distinct().count())
        .isEqualTo(out.size());
  }
}
