package dev.ctxpack.bench.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.eval.Judgments;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SMART parser on small samples written like the real files (CRLF line ends included). */
class CranfieldLoaderTest {

  private static final String DOCS = String.join("\r\n",
      ".I 1",
      ".T",
      "experimental investigation of the aerodynamics of a",
      "wing in a slipstream .",
      ".A",
      "brenckman,m.",
      ".B",
      "j. ae. scs. 25, 1958, 324.",
      ".W",
      "experimental investigation of the aerodynamics of a",
      "wing in a slipstream .",
      "  an experimental study of a wing in a propeller slipstream was",
      "made in order to determine the spanwise distribution .",
      ".I 2",
      ".T",
      "a theoretical analysis of heat transfer .",
      ".A",
      "dean r. chapman",
      ".B",
      "naca technote 3792",
      ".W",
      "the flow field analyzed consists of a thin layer .",
      ".A",
      "application to turbulent separations is made for a prandtl number of",
      ".B",
      "unity in low-speed flow without injection .",
      ".I 3",
      ".T",
      ".A",
      ".B",
      ".W",
      "");

  @Test
  void readsDocumentsJoiningWrappedLines() throws Exception {
    List<CorpusDoc> docs = CranfieldLoader.readDocuments(new StringReader(DOCS), "cran.all.1400");
    assertThat(docs).hasSize(3);
    assertThat(docs.get(0)).isEqualTo(new CorpusDoc("1",
        "experimental investigation of the aerodynamics of a wing in a slipstream .",
        "experimental investigation of the aerodynamics of a wing in a slipstream . an experimental study of a wing"
            + " in a propeller slipstream was made in order to determine the spanwise distribution ."));
  }

  @Test
  void aRepeatedFieldMarkerInsideTheTextDoesNotSwitchFields() throws Exception {
    // Like document 240 of the real file: a second .A and .B in the middle of the abstract.
    CorpusDoc d = CranfieldLoader.readDocuments(new StringReader(DOCS), "cran.all.1400").get(1);
    assertThat(d.text()).isEqualTo("the flow field analyzed consists of a thin layer . application to turbulent"
        + " separations is made for a prandtl number of unity in low-speed flow without injection .");
    assertThat(d.title()).isEqualTo("a theoretical analysis of heat transfer .");
  }

  @Test
  void emptyRecordsAreKeptButMarkedEmpty() throws Exception {
    CorpusDoc d = CranfieldLoader.readDocuments(new StringReader(DOCS), "cran.all.1400").get(2);
    assertThat(d.id()).isEqualTo("3");
    assertThat(d.isEmpty()).isTrue();
  }

  @Test
  void queriesAreNumberedByPositionNotByTheirWrittenIds() throws Exception {
    String qry = String.join("\r\n",
        ".I 001", ".W", "what similarity laws must be obeyed when constructing aeroelastic models",
        "of heated high speed aircraft .",
        ".I 002", ".W", "what are the structural and aeroelastic problems .",
        ".I 004", ".W", "what problems of heat conduction in composite slabs have been solved so", "far .", "");
    Map<String, String> q = CranfieldLoader.readQueries(new StringReader(qry), "cran.qry");
    assertThat(q.keySet()).containsExactly("1", "2", "3");
    assertThat(q.get("3")).isEqualTo("what problems of heat conduction in composite slabs have been solved so far .");
  }

  @Test
  void gradesMapToGainsAndMinusOneRowsAreDropped() throws Exception {
    // 1 -> 4, 2 -> 3, 3 -> 2, 4 -> 1; -1 dropped; trailing spaces and CRLF as in the real file.
    String rel = "1 184 2 \r\n1 29 1 \r\n1 12 3 \r\n1 51 4 \r\n1 1 -1 \r\n3 5 -1 \r\n";
    Map<String, Judgments> qrels = CranfieldLoader.readQrels(new StringReader(rel), "cranqrel", 3);
    assertThat(qrels.keySet()).containsExactly("1");
    assertThat(qrels.get("1").gains()).containsExactlyInAnyOrderEntriesOf(
        Map.of("184", 3, "29", 4, "12", 2, "51", 1));
  }

  @Test
  void badRowsAreRejectedWithTheirLine() {
    assertThatThrownBy(() -> CranfieldLoader.readQrels(new StringReader("1 2 2\n9 2 2\n"), "cranqrel", 3))
        .hasMessage("cranqrel:2: query number 9 is outside 1..3");
    assertThatThrownBy(() -> CranfieldLoader.readQrels(new StringReader("1 2 7\n"), "cranqrel", 3))
        .hasMessageContaining("cranqrel:1: grade 7");
    assertThatThrownBy(() -> CranfieldLoader.readQrels(new StringReader("1 2\n"), "cranqrel", 3))
        .hasMessageStartingWith("cranqrel:1:");
    assertThatThrownBy(() -> CranfieldLoader.readDocuments(new StringReader("stray text\n.I 1\n"), "cran.all.1400"))
        .hasMessageStartingWith("cran.all.1400:1: text outside a field");
  }
}
