package dev.ctxpack.bench.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.BudgetReport;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DuplicatedCorpusTest {
  static List<SquadV2.Context> contexts() {
    List<SquadV2.Context> out = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String text = "Context number " + i + " speaks of the river Alpha" + i + " and its long valley. "
          + "The river Alpha" + i + " rises in the northern mountains near Beta" + i + ". "
          + "Its waters reach the sea after " + (100 + i) + " kilometres.";
      out.add(new SquadV2.Context(i, "T" + i, text,
          List.of(new SquadV2.Question("q" + i, "Where does Alpha" + i + " rise?", List.of("near Beta" + i)))));
    }
    return out;
  }

  @Test
  void everyContextAppearsOneToFourTimesVerbatimFirstAndTheSameForASeed() {
    List<SquadV2.Context> cs = contexts();
    DuplicatedCorpus a = DuplicatedCorpus.build(cs, 7);
    assertThat(DuplicatedCorpus.build(cs, 7).copies()).isEqualTo(a.copies());
    int[] per = new int[cs.size()];
    for (DuplicatedCorpus.Copy c : a.copies()) {
      per[c.origin()]++;
      assertThat(c.docId()).isEqualTo(DuplicatedCorpus.id(c.origin(), c.copy()));
      if (c.copy() == 0) {
        assertThat(c.kind()).isNull();
        assertThat(c.text()).isEqualTo(cs.get(c.origin()).text());
      } else {
        assertThat(c.kind()).isNotNull();
        assertThat(c.text()).isNotEqualTo(cs.get(c.origin()).text());
      }
      assertThat(c.donor() >= 0).isEqualTo(c.kind() == Perturbations.Kind.PREPEND_SENTENCE);
      assertThat(c.donor()).isNotEqualTo(c.origin());
    }
    for (int n : per) assertThat(n).isBetween(1, 4);
    assertThat(a.copies().stream().map(DuplicatedCorpus.Copy::docId).distinct().count()).isEqualTo(a.copies().size());
  }

  @Test
  void windowFactsCountContextsByTheirTextAndAnswersByString() {
    List<SquadV2.Context> cs = contexts();
    DuplicatedCorpus corpus = DuplicatedCorpus.build(cs, 7);
    WindowFacts facts = new WindowFacts(cs, corpus);
    // Context 3 verbatim, plus context 5 cited by a span whose text is only a fragment of it.
    String c3 = cs.get(3).text();
    Source s1 = source("S1", "c0003-0", c3);
    Source s2 = source("S2", "c0005-0", "Its waters reach the sea");
    ContextPackage pkg = new ContextPackage("q", "prompt", List.of(s1, s2), new BudgetReport(1000, 321, 0, Map.of()),
        List.of(), List.of());
    WindowFacts.Measures m = facts.measure(pkg, 3, cs.get(3).questions().get(0));
    assertThat(m.contextsCited()).isEqualTo(2);
    assertThat(m.contexts()).isEqualTo(1);
    assertThat(m.contextsAnySentence()).isEqualTo(1);
    assertThat(m.ownContext()).isTrue();
    assertThat(m.goldAnswers()).isEqualTo(1);
    assertThat(m.hit()).isTrue();
    assertThat(m.sources()).isEqualTo(2);
    assertThat(m.tokens()).isEqualTo(321);
    WindowFacts.Measures other = facts.measure(pkg, 5, cs.get(5).questions().get(0));
    assertThat(other.ownContext()).isFalse();
    assertThat(other.hit()).isFalse();
  }

  @Test
  void aPrependedSentenceAloneDoesNotMakeItsContextCount() {
    List<SquadV2.Context> cs = contexts();
    DuplicatedCorpus corpus = DuplicatedCorpus.build(cs, 7);
    DuplicatedCorpus.Copy prepended = corpus.copies().stream()
        .filter(c -> c.kind() == Perturbations.Kind.PREPEND_SENTENCE).findFirst().orElseThrow();
    String head = prepended.text().substring(0, prepended.text().length() - cs.get(prepended.origin()).text().length() - 1);
    WindowFacts facts = new WindowFacts(cs, corpus);
    ContextPackage pkg = new ContextPackage("q", "prompt", List.of(source("S1", prepended.docId(), head)),
        new BudgetReport(1000, 100, 0, Map.of()), List.of(), List.of());
    WindowFacts.Measures m = facts.measure(pkg, prepended.donor(), cs.get(prepended.donor()).questions().get(0));
    assertThat(m.contexts()).isZero();
    assertThat(m.contextsAnySentence()).isEqualTo(1);
    assertThat(m.contextsCited()).isEqualTo(1);
    assertThat(m.ownContext()).isFalse();
    assertThat(m.goldAnswers()).isZero();
  }

  private static Source source(String label, String docId, String text) {
    return new Source(label, docId, "", "", "", 0, "", List.of(new Source.DocSpan(docId, 0, text.length())), text);
  }
}
