package dev.ctxpack.bench.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The reliability arithmetic on an example computed by hand, and the diagram drawn from it. */
class CalibrationTest {
  // Four bins: [0, .25) [.25, .5) [.5, .75) [.75, 1]. Bin 0: 0.1 (no), 0.2 (yes); bin 1: 0.25 (no,
  // on the edge), 0.45 (no); bin 2 empty; bin 3: 0.75 (yes, on the edge), 1.0 (yes), 0.8 (yes), 0.85 (no).
  static final double[] P = {0.1, 0.2, 0.25, 0.45, 0.75, 1.0, 0.8, 0.85};
  static final boolean[] Y = {false, true, false, false, true, true, true, false};

  @Test
  void binsEceBrierAndTheMidRangeGapMatchTheHandComputedExample() {
    Calibration.Result r = Calibration.of(P, Y, 4);
    assertThat(r.n()).isEqualTo(8);
    assertThat(r.positives()).isEqualTo(4);
    List<Calibration.Bin> b = r.bins();
    assertThat(b).extracting(Calibration.Bin::count).containsExactly(2, 2, 0, 4);
    assertThat(b.get(0).predicted()).isCloseTo(0.15, within(1e-12));
    assertThat(b.get(0).observed()).isCloseTo(0.5, within(1e-12));
    assertThat(b.get(1).predicted()).isCloseTo(0.35, within(1e-12));
    assertThat(b.get(1).observed()).isCloseTo(0.0, within(1e-12));
    assertThat(b.get(2).predicted()).isNaN();
    assertThat(b.get(3).predicted()).isCloseTo(0.85, within(1e-12));
    assertThat(b.get(3).observed()).isCloseTo(0.75, within(1e-12));
    // ECE = 2/8 × 0.35 + 2/8 × 0.35 + 4/8 × 0.10 (weighted by count: not the plain mean of the gaps, 0.2667).
    assertThat(r.ece()).isCloseTo(0.225, within(1e-12));
    assertThat(r.maxGap()).isCloseTo(0.35, within(1e-12));
    // Brier = (0.01 + 0.64 + 0.0625 + 0.2025 + 0.0625 + 0 + 0.04 + 0.7225) / 8.
    assertThat(r.brier()).isCloseTo(1.74 / 8, within(1e-12));
    assertThat(r.meanPredicted()).isCloseTo(0.55, within(1e-12));
    assertThat(r.baseRate()).isCloseTo(0.5, within(1e-12));
    // [0.2, 0.8): 0.2 (yes), 0.25, 0.45, 0.75 (yes): observed 2/4 against predicted 1.65/4.
    assertThat(r.midCount()).isEqualTo(4);
    assertThat(r.midGap()).isCloseTo(0.0875, within(1e-12));
  }

  @Test
  void aPerfectlyCalibratedSetHasNoErrorAndOneOutsideTheUnitIntervalIsRefused() {
    double[] p = {0.25, 0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 0.75};
    boolean[] y = {true, false, false, false, true, true, true, false};
    assertThat(Calibration.of(p, y, 10).ece()).isCloseTo(0, within(1e-12));
    assertThatThrownBy(() -> Calibration.of(new double[] {1.2}, new boolean[] {true}, 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.2");
    assertThatThrownBy(() -> Calibration.of(new double[] {0.5}, new boolean[0], 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 probabilities for 0 labels");
  }

  @Test
  void theIntervalResamplesWholeQuestions() {
    // Two identical questions: every resample is the same set, so the interval is the point itself.
    double[] p = new double[2 * P.length];
    boolean[] y = new boolean[2 * P.length];
    int[] q = new int[2 * P.length];
    for (int i = 0; i < p.length; i++) {
      p[i] = P[i % P.length];
      y[i] = Y[i % P.length];
      q[i] = i / P.length;
    }
    double[] ci = Calibration.eceInterval(p, y, q, 4, 200, 1);
    assertThat(ci[0]).isCloseTo(0.225, within(1e-12));
    assertThat(ci[1]).isCloseTo(0.225, within(1e-12));
    // Each sentence its own question: resamples differ, the interval brackets the point and is the same every time.
    int[] each = new int[P.length];
    for (int i = 0; i < each.length; i++) each[i] = i;
    double[] wide = Calibration.eceInterval(P, Y, each, 4, 500, 1);
    assertThat(wide[0]).isLessThan(0.225);
    assertThat(wide[1]).isGreaterThan(0.225);
    assertThat(Calibration.eceInterval(P, Y, each, 4, 500, 1)).containsExactly(wide);
  }

  @Test
  void theDiagramHasOneCircleAndOneCountBarPerBinAndTheSameBytesEachTime() throws Exception {
    Calibration.Result r = Calibration.of(P, Y, 4);
    List<CalibrationChart.Series> s = List.of(new CalibrationChart.Series("en & <report>", r, false, 0),
        new CalibrationChart.Series("en, FIT", r, true, 0));
    String svg = CalibrationChart.svg("A & B", s);
    assertThat(CalibrationChart.svg("A & B", s)).isEqualTo(svg);
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    NodeList circles = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "circle");
    int bins = 0;
    for (int i = 0; i < circles.getLength(); i++) {
      Element c = (Element) circles.item(i);
      if (!c.getAttribute("class").equals("bin")) continue;
      bins++;
      if (c.getAttribute("data-lo").equals("0.0")) {
        assertThat(c.getAttribute("data-count")).isEqualTo("2");
        assertThat(c.getAttribute("data-predicted")).isEqualTo("0.1500");
        assertThat(c.getAttribute("data-observed")).isEqualTo("0.5000");
        // x = 64 + 400 × 0.15, y = 48 + 400 − 400 × 0.5
        assertThat(c.getAttribute("cx")).isEqualTo("124.0");
        assertThat(c.getAttribute("cy")).isEqualTo("248.0");
      }
    }
    assertThat(bins).isEqualTo(2 * 3); // the empty bin has no point
    assertThat(svg).contains("ECE 0.2250, Brier 0.2175, 8 sentences");
    assertThat(svg.split("class=\"count\"", -1)).hasSize(2 * 4 + 1);
  }
}
