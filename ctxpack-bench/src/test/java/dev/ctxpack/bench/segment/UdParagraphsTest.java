package dev.ctxpack.bench.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.bench.segment.UdParagraphs.Markers;
import dev.ctxpack.bench.segment.UdParagraphs.Paragraph;
import java.util.List;
import org.junit.jupiter.api.Test;

class UdParagraphsTest {
  private static List<String> lines(String s) {
    return List.of(s.split("\n", -1));
  }

  static final String EWT = """
      # newdoc id = d1
      # sent_id = d1-1
      # newpar id = d1-p1
      # text = Hello there.
      1\tHello\thello\tINTJ\t_\t_\t0\troot\t_\t_
      2\tthere\tthere\tADV\t_\t_\t1\tadvmod\t_\tSpaceAfter=No
      3\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_

      # sent_id = d1-2
      # text =   How are you?\s
      1\tHow\thow\tADV\t_\t_\t0\troot\t_\t_

      # sent_id = d1-3
      # newpar id = d1-p2
      # text = Fine.
      1\tFine\tfine\tADJ\t_\t_\t0\troot\t_\t_

      # newdoc id = d2
      # sent_id = d2-1
      # text = Next doc
      1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_
      1\tdo\tdo\tAUX\t_\t_\t0\troot\t_\t_

      # sent_id = d2-2
      # text = Same paragraph.
      1\tSame\tsame\tADJ\t_\t_\t0\troot\t_\t_
      """;

  @Test
  void newparAndNewdocOpenParagraphsAndSentencesAreJoinedWithSingleSpaces() {
    List<Paragraph> ps = UdParagraphs.parse(lines(EWT));
    assertThat(ps).extracting(Paragraph::id).containsExactly("d1-p1", "d1-p2", "d2");
    assertThat(ps).extracting(Paragraph::document).containsExactly("d1", "d1", "d2");
    assertThat(ps.get(0).text()).isEqualTo("Hello there. How are you?");
    assertThat(ps.get(0).sentenceEnds()).containsExactly(12, 25);
    assertThat(ps.get(1).text()).isEqualTo("Fine.");
    assertThat(ps.get(1).sentenceEnds()).containsExactly(5);
    assertThat(ps.get(2).text()).isEqualTo("Next doc Same paragraph.");
    assertThat(ps.get(2).sentenceEnds()).containsExactly(8, 24);
    assertThat(UdParagraphs.markers(lines(EWT))).isEqualTo(Markers.NEWPAR);
  }

  @Test
  void bosqueStyleNewdocUnderscoreBeforeTheTextOpensADocumentParagraph() {
    String bosque = """
        # newdoc_id = CF1
        # text = Título sem ponto
        # sent_id = CF1-1
        1\tTítulo\ttítulo\tNOUN\t_\t_\t0\troot\t_\t_

        # text = Primeira frase.
        # sent_id = CF1-2
        1\tPrimeira\tprimeiro\tADJ\t_\t_\t0\troot\t_\t_

        # newdoc_id = CF2
        # text = Outra.
        # sent_id = CF2-1
        1\tOutra\toutro\tPRON\t_\t_\t0\troot\t_\t_
        """;
    List<Paragraph> ps = UdParagraphs.parse(lines(bosque));
    assertThat(ps).extracting(Paragraph::id).containsExactly("CF1", "CF2");
    assertThat(ps).extracting(Paragraph::document).containsExactly("CF1", "CF2");
    assertThat(ps.get(0).text()).isEqualTo("Título sem ponto Primeira frase.");
    assertThat(ps.get(0).sentenceEnds()).containsExactly(16, 32);
    assertThat(ps.get(1).sentences()).isEqualTo(1);
    assertThat(UdParagraphs.markers(lines(bosque))).isEqualTo(Markers.NEWDOC);
  }

  @Test
  void withoutMarkersTheFileIsOneParagraphAndEmptyTextsAreSkipped() {
    String none = """
        # text = One.
        1\tOne\tone\tNUM\t_\t_\t0\troot\t_\t_

        # text =
        1\tx\tx\tX\t_\t_\t0\troot\t_\t_

        # text = Two.
        1\tTwo\ttwo\tNUM\t_\t_\t0\troot\t_\t_
        """;
    List<Paragraph> ps = UdParagraphs.parse(lines(none));
    assertThat(ps).hasSize(1);
    assertThat(ps.get(0).id()).isEqualTo("sentence-1");
    assertThat(ps.get(0).text()).isEqualTo("One. Two.");
    assertThat(ps.get(0).sentenceEnds()).containsExactly(4, 9);
    assertThat(UdParagraphs.markers(lines(none))).isEqualTo(Markers.NONE);
  }

  @Test
  void aHashInsideATokenLineIsNotAComment() {
    String s = """
        # newpar id = p
        # text = A # b.
        1\tA\ta\tX\t_\t_\t0\troot\t_\t_
        2\t#\t#\tSYM\t_\t_\t1\tdep\t_\t_
        # text = not a sentence
        """;
    List<Paragraph> ps = UdParagraphs.parse(lines(s));
    assertThat(ps).singleElement().extracting(Paragraph::text).isEqualTo("A # b.");
  }
}
