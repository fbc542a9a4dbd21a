package dev.ctxpack.bench.clean;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.bench.clean.BoilerplateCorpus.Doc;
import dev.ctxpack.bench.clean.BoilerplateCorpus.Item;
import dev.ctxpack.bench.clean.BoilerplateCorpus.Kind;
import dev.ctxpack.bench.clean.BoilerplateCorpus.Line;
import dev.ctxpack.ingest.clean.CleanOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CleanEvalTest {
  private static List<Item> items(int n) {
    // Random words, letters only: lines that differ only in digits would look alike.
    java.util.Random r = new java.util.Random(n);
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder sb = new StringBuilder();
      for (int w = 0; w < 120; w++) {
        for (int c = 0; c < 3 + r.nextInt(6); c++) sb.append((char) ('a' + r.nextInt(26)));
        sb.append(' ');
      }
      out.add(new Item("Title " + sb.substring(0, 20), sb.toString()));
    }
    return out;
  }

  @Test
  void theBaselineRemovesACommonRunningHeadButNotChangingPageNumbers() {
    String head = "Annals of Things · Volume 3\n";
    List<Integer> starts = new ArrayList<>();
    StringBuilder sb = new StringBuilder();
    for (int p = 1; p <= 5; p++) {
      starts.add(sb.length());
      sb.append(head).append("Body text of page ").append(p).append(" goes on here with words ").append(p * 7)
          .append(".\nPage ").append(p).append(" of 5\n");
    }
    boolean[] removed = HaystackCleaner.removed(sb.toString(), starts);
    String text = sb.toString();
    for (int p = 0; p < 5; p++) {
      for (int i = 0; i < head.length() - 1; i++) assertThat(removed[starts.get(p) + i]).isTrue();
    }
    int foot = text.indexOf("Page 3 of 5");
    assertThat(removed[foot]).isFalse();
    // Without form feeds (no page starts) the baseline finds nothing.
    boolean[] none = HaystackCleaner.removed(text, List.of());
    for (boolean b : none) assertThat(b).isFalse();
  }

  @Test
  void theCorpusLabelsEveryLineAndIsDeterministic() {
    List<Doc> a = BoilerplateCorpus.build(items(60), 3, BoilerplateCorpus.EN, true, 7);
    List<Doc> b = BoilerplateCorpus.build(items(60), 3, BoilerplateCorpus.EN, true, 7);
    assertThat(a).isEqualTo(b);
    assertThat(a).hasSize(20);
    for (Doc d : a) {
      assertThat(d.pageStarts()).isNotEmpty();
      int covered = 0;
      for (Line l : d.lines()) covered += l.end() - l.start() + 1;
      assertThat(covered).isEqualTo(d.text().length());
      assertThat(d.lines()).anyMatch(l -> l.kind() == Kind.FOOTER);
    }
    assertThat(BoilerplateCorpus.build(items(60), 3, BoilerplateCorpus.EN, false, 7).get(0).pageStarts()).isEmpty();
  }

  @Test
  void ctxpackFindsTheInjectedLinesWithoutPageBreaksWhereTheBaselineFindsNone() {
    List<Doc> docs = BoilerplateCorpus.build(items(240), 3, BoilerplateCorpus.EN, false, 3);
    CleanEval.SetResult r = CleanEval.evaluate("t", docs, BoilerplateCorpus.EN, false, CleanOptions.defaults());
    assertThat(r.scores().get("haystack").recall()).isZero();
    assertThat(r.scores().get("ctxpack").recall(Kind.BOILERPLATE)).isEqualTo(1.0);
    assertThat(r.scores().get("ctxpack").touchedProse).isZero();
  }
}
