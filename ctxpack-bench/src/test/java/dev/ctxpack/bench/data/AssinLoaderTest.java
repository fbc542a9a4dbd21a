package dev.ctxpack.bench.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class AssinLoaderTest {
  private static List<TextPair> read(String xml) throws IOException {
    return AssinLoader.read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "assin-ptbr-dev.xml", "assin-ptbr-dev");
  }

  @Test
  void readsPairsWithLabelsAndSimilarity() throws IOException {
    List<TextPair> pairs = read("""
        <?xml version='1.0' encoding='utf-8'?>
        <entailment-corpus>
            <pair entailment="None" id="1" similarity="2.0">
                <t>A gente faz o aporte financeiro.</t>
                <h>Fernando Moraes afirma que não tem vínculo.</h>
            </pair>
            <pair entailment="Paraphrase" id="7" similarity="4.75">
                <t>O jogo terminou empatado &amp; sem gols.</t>
                <h>A partida acabou 0 a 0.</h>
            </pair>
        </entailment-corpus>
        """);
    assertThat(pairs).hasSize(2);
    assertThat(pairs.get(0).id()).isEqualTo("assin-ptbr-dev:1");
    assertThat(pairs.get(0).label()).isEqualTo("None");
    assertThat(pairs.get(0).paraphrase()).isFalse();
    assertThat(pairs.get(0).b()).isEqualTo("Fernando Moraes afirma que não tem vínculo.");
    assertThat(pairs.get(1).paraphrase()).isTrue();
    assertThat(pairs.get(1).a()).isEqualTo("O jogo terminou empatado & sem gols.");
    assertThat(pairs.get(1).similarity()).isEqualTo(4.75);
  }

  @Test
  void rejectsUnknownLabelsMissingTextsAndDoctypes() {
    assertThatThrownBy(() -> read("<c><pair entailment=\"Maybe\" id=\"3\" similarity=\"1\"><t>a</t><h>b</h></pair></c>"))
        .isInstanceOf(IOException.class).hasMessageContaining("pair 3").hasMessageContaining("Maybe");
    assertThatThrownBy(() -> read("<c><pair entailment=\"None\" id=\"4\" similarity=\"1\"><t>a</t></pair></c>"))
        .hasMessageContaining("<h>");
    assertThatThrownBy(() -> read("<!DOCTYPE c [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><c>&x;</c>"))
        .hasMessageContaining("not ASSIN XML");
  }
}
