package dev.ctxpack.bench.compress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class FrontierChartTest {

  private static List<FrontierChart.Series> series() {
    return List.of(
        new FrontierChart.Series("truncation", List.of(new FrontierChart.Point(0.1, 0.16), new FrontierChart.Point(0.25, 0.31),
            new FrontierChart.Point(0.5, 0.55))),
        new FrontierChart.Series("bm25 & <sentences>", List.of(new FrontierChart.Point(0.09, 0.86),
            new FrontierChart.Point(0.24, 0.96), new FrontierChart.Point(0.49, 0.99))),
        new FrontierChart.Series("oracle \"best\"", List.of(new FrontierChart.Point(0.05, 0.95), new FrontierChart.Point(0.07, 1.0),
            new FrontierChart.Point(Double.NaN, 1.0))));
  }

  @Test
  void isWellFormedXmlWithOneSeriesPerMethod() throws Exception {
    String svg = FrontierChart.svg("SQuAD & co: retention", series(), CompressEval.BUDGETS);
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
    NodeList groups = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
    List<String> methods = new ArrayList<>();
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      if (!g.getAttribute("class").equals("series")) continue;
      methods.add(g.getAttribute("data-method"));
      assertThat(g.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline").getLength()).isEqualTo(1);
      String points = ((Element) g.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline").item(0)).getAttribute("points");
      assertThat(points).doesNotContain("NaN");
    }
    assertThat(methods).containsExactly("truncation", "bm25 & <sentences>", "oracle \"best\"");
  }

  @Test
  void theSameFiguresGiveTheSameBytes() {
    assertThat(FrontierChart.svg("t", series(), CompressEval.BUDGETS)).isEqualTo(FrontierChart.svg("t", series(), CompressEval.BUDGETS));
  }
}
