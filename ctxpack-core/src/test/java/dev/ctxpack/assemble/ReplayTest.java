package dev.ctxpack.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.token.ModelProfiles;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class ReplayTest {
  private static List<Turn> transcript(int pairs) {
    List<Turn> out = new ArrayList<>();
    for (int i = 1; i <= pairs; i++) {
      out.add(Turn.of("user", "Question " + i + ": how does a " + "longer roast change the taste of the beans? ".repeat(6)));
      out.add(Turn.of("assistant", "Answer " + i + ": " + "the sugars caramelise and the acidity falls. ".repeat(12)));
    }
    return out;
  }

  @Test
  void eachUserTurnIsAssembledAndTheTurnWhereHistoryIsFirstCutIsFound() throws Exception {
    AssembleRequest base = AssembleRequest.builder(ModelProfiles.builtIn().get("gpt-4o")).window(2_000).reserve(300)
        .system("You answer questions about coffee.").build();
    List<Turn> t = transcript(12);
    Replay.Result r = new Replay(Assembler.builder().build()).run(base, t);
    assertThat(r.steps()).hasSize(12);
    assertThat(r.steps()).allSatisfy(s -> assertThat(s.budget().used()).isLessThanOrEqualTo(1_700));
    // History grows until it no longer fits; from then on it is cut at every turn.
    int start = r.compressionStartsAt();
    assertThat(start).isGreaterThan(1).isLessThan(12);
    for (Replay.Step s : r.steps()) {
      assertThat(s.history().given()).isEqualTo(2 * (s.turn() - 1));
      assertThat(s.history().compacted()).isEqualTo(s.turn() >= start);
    }
    assertThat(r.steps().get(start - 2).budget().get(Component.HISTORY))
        .isLessThan(r.steps().get(start - 1).budget().get(Component.HISTORY) + 2_000);
  }

  @Test
  void theChartIsWellFormedSvgWithTheMarkerAtTheTurnCompressionStarts() throws Exception {
    AssembleRequest base = AssembleRequest.builder(ModelProfiles.builtIn().get("gpt-4o")).window(2_000).reserve(300)
        .system("You answer questions about coffee & <tea>.").build();
    Replay.Result r = new Replay(Assembler.builder().build()).run(base, transcript(12));
    String svg = ReplayChart.svg(r, "replay of \"coffee\" <chat>");
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
    var xp = XPathFactory.newInstance().newXPath();
    Element marker = (Element) xp.evaluate("//*[@id='compression-start']", doc, XPathConstants.NODE);
    assertThat(marker).isNotNull();
    assertThat(marker.getAttribute("data-turn")).isEqualTo(Integer.toString(r.compressionStartsAt()));
    // The marker's line stands at the left edge of that turn's bar.
    Element line = (Element) marker.getElementsByTagNameNS("*", "line").item(0);
    NodeList bars = (NodeList) xp.evaluate("//*[@class='turn' and @data-turn='" + r.compressionStartsAt() + "']/*[local-name()='rect']",
        doc, XPathConstants.NODESET);
    assertThat(bars.getLength()).isPositive();
    double barX = Double.parseDouble(((Element) bars.item(0)).getAttribute("x"));
    double lineX = Double.parseDouble(line.getAttribute("x1"));
    assertThat(lineX).isLessThanOrEqualTo(barX).isGreaterThan(barX - 10);
    // One group per turn, one colour per component.
    assertThat(((NodeList) xp.evaluate("//*[@class='turn']", doc, XPathConstants.NODESET)).getLength()).isEqualTo(12);
  }

  @Test
  void noMarkerWhenTheHistoryAlwaysFitsAndATranscriptWithoutUserTurnsIsRefused() throws Exception {
    AssembleRequest base = AssembleRequest.builder(ModelProfiles.builtIn().get("gpt-4o")).build();
    Replay replay = new Replay(Assembler.builder().build());
    Replay.Result r = replay.run(base, transcript(3));
    assertThat(r.compressionStartsAt()).isZero();
    assertThat(ReplayChart.svg(r, "t")).doesNotContain("compression-start");
    assertThatThrownBy(() -> replay.run(base, List.of(Turn.of("assistant", "hello")))).hasMessageContaining("no user turn");
  }
}
