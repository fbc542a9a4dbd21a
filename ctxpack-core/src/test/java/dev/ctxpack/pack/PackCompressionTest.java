package dev.ctxpack.pack;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import static dev.ctxpack.pack.DefaultContextPackerTest.candidate;
import static dev.ctxpack.pack.DefaultContextPackerTest.packer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Source;
import dev.ctxpack.token.Tokenizers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Compression inside {@code pack}: after selection, before ordering. */
class PackCompressionTest {
  private static final String DELTA = "The river delta covers 2,000 square kilometres. Rice fields line its western "
      + "channels. Fishermen sell their catch at dawn in the market of the old town. A ferry crosses the main channel "
      + "every hour. The delta was formed over the last 6,000 years by sediment from the mountains.";
  private static final String PORT = "Home | Port | Schedules | Contact\n\nThe port handles 4 million containers "
      + "a year. Cranes run day and night.\n\nWe use cookies to improve your experience.";

  @Test
  void keepsTheSentencesThatAnswerAtTheirDocumentOffsetsAndTracesWhatWentMissing() throws Exception {
    List<Candidate> c = List.of(candidate("d#0", "d", 120, DELTA, 0.9), candidate("p#0", "p", 0, PORT, 0.8));
    int budget = 220;
    // The budget is sized for the plain fence (the guard's instruction line would take a third of it).
    ContextPackage p = packer(c).pack("When was the river delta formed?",
        PackOptions.builder().budget(budget).injection(InjectionPolicy.OFF).build());

    assertThat(p.budget().used()).isLessThanOrEqualTo(budget);
    Source delta = p.sources().stream().filter(s -> s.docId().equals("d")).findFirst().orElseThrow();
    assertThat(delta.text()).contains("The delta was formed over the last 6,000 years").doesNotContain("Fishermen");
    assertThat(p.prompt()).doesNotContain("cookies").doesNotContain("Home | Port");
    List<Decision> drops = p.trace().stream().filter(d -> d.stage() == Stage.COMPRESS && d.action() == Action.DROP).toList();
    assertThat(drops).extracting(Decision::rule).contains("compress:boilerplate", "compress:navigation");
    // A dropped span names its document and offsets, which are offsets into the document.
    Decision fish = drops.stream().filter(d -> d.reason().startsWith("d [")).filter(d -> {
      int s = Integer.parseInt(d.reason().substring(3, d.reason().indexOf(',')));
      return DELTA.startsWith("Fishermen", s - 120);
    }).findFirst().orElseThrow();
    assertThat(fish.rule()).isIn("compress:budget", "compress:off-topic");
    assertThat(p.trace()).anySatisfy(d -> assertThat(d.action()).isEqualTo(Action.SUMMARY));
  }

  @Test
  void aCompressedSourceIsVerbatimPiecesOfItsDocumentJoinedByGaps() throws Exception {
    List<Candidate> c = List.of(candidate("d#0", "d", 120, DELTA, 0.9));
    ContextPackage p = packer(c).pack("How large is the river delta and how old is it?",
        PackOptions.builder().budget(220).injection(InjectionPolicy.OFF).build());

    Source delta = p.sources().get(0);
    String[] pieces = delta.text().split(" … ");
    assertThat(pieces.length).isGreaterThanOrEqualTo(1);
    for (String piece : pieces) assertThat(DELTA).contains(piece);
    assertThat(delta.text()).contains("2,000 square kilometres");
  }

  @Test
  void noCompressKeepsWholePassagesAndCompressionFitsMoreSources() throws Exception {
    List<Candidate> c = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      c.add(candidate("c" + i, "doc" + i, 0, "Station " + i + " measured the river delta level at " + (100 + i)
          + " cm. " + "Unrelated maintenance notes about paint, fences and parking were filed the same week by the "
          + "caretaker, who also repaired the gate and ordered new signs for the visitor centre.", 1.0 - i * 0.05));
    }
    int budget = 260;
    ContextPackage whole = packer(c).pack("river delta level", PackOptions.builder().budget(budget).compress(false).build());
    ContextPackage compressed = packer(c).pack("river delta level", PackOptions.builder().budget(budget).build());

    assertThat(whole.sources()).allSatisfy(s -> assertThat(s.text()).contains("caretaker"));
    assertThat(compressed.sources().size()).isGreaterThan(whole.sources().size());
    assertThat(compressed.sources()).allSatisfy(s -> assertThat(s.text()).doesNotContain("caretaker"));
    assertThat(compressed.budget().used()).isLessThanOrEqualTo(budget);
    assertThat(Tokenizers.defaultTokenizer().count(compressed.prompt())).isEqualTo(compressed.budget().used());
    assertThat(compressed.trace().get(0).reason()).contains("compress=features:none");
    assertThat(whole.trace().get(0).reason()).contains("compress=off");
  }
}
