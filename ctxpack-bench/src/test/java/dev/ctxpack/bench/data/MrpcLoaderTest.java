package dev.ctxpack.bench.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class MrpcLoaderTest {
  private static final String HEADER = "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\r\n";

  @Test
  void readsPlainAndQuotedFieldsWithDoubledQuotes() throws IOException {
    String tsv = HEADER
        + "1\t702876\t702977\t\"Amrozi accused his brother , whom he called \"\" the witness \"\" , of lying .\"\t"
        + "\"Referring to him as only \"\" the witness \"\" , Amrozi accused his brother .\"\r\n"
        + "0\t2108705\t2108831\tYucaipa owned Dominick 's before 1998 .\tYucaipa bought Dominick 's in 1995 .\r\n";
    List<TextPair> pairs = MrpcLoader.read(new StringReader(tsv), "train.txt", "train");
    assertThat(pairs).hasSize(2);
    TextPair p = pairs.get(0);
    assertThat(p.id()).isEqualTo("mrpc:702876-702977");
    assertThat(p.a()).isEqualTo("Amrozi accused his brother , whom he called \" the witness \" , of lying .");
    assertThat(p.b()).isEqualTo("Referring to him as only \" the witness \" , Amrozi accused his brother .");
    assertThat(p.paraphrase()).isTrue();
    assertThat(pairs.get(1).paraphrase()).isFalse();
    assertThat(pairs.get(1).a()).isEqualTo("Yucaipa owned Dominick 's before 1998 .");
    assertThat(pairs.get(1).label()).isEqualTo("0");
  }

  @Test
  void aQuotedFieldEndingInAQuoteKeepsIt() throws IOException {
    // MRPC line 1097577: the sentence ends in a closing quote, written as """ before the tab.
    String tsv = HEADER + "1\t1\t2\t\"Oracle intends to support customers . \"\"\"\tplain text\n";
    assertThat(MrpcLoader.read(new StringReader(tsv), "t", "t").get(0).a()).isEqualTo("Oracle intends to support customers . \"");
  }

  @Test
  void aFieldNotStartingWithAQuoteIsTakenAsItIs() throws IOException {
    List<QuotedTsv.Row> rows = QuotedTsv.read(new StringReader("a \"b\" c\td\n"), "t");
    assertThat(rows.get(0).fields()).containsExactly("a \"b\" c", "d");
  }

  @Test
  void quotedFieldsMayHoldTabsAndLineBreaksAndLinesAreCounted() throws IOException {
    List<QuotedTsv.Row> rows = QuotedTsv.read(new StringReader("\"x\ty\nz\"\t2\n\nlast\t3"), "t");
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).fields()).containsExactly("x\ty\nz", "2");
    assertThat(rows.get(1).line()).isEqualTo(4);
    assertThat(rows.get(1).fields()).containsExactly("last", "3");
  }

  @Test
  void errorsNameTheFileAndLine() {
    assertThatThrownBy(() -> MrpcLoader.read(new StringReader(HEADER + "1\t1\t2\tonly four\n"), "train.txt", "t"))
        .isInstanceOf(IOException.class).hasMessageContaining("train.txt:2").hasMessageContaining("5 fields");
    assertThatThrownBy(() -> MrpcLoader.read(new StringReader(HEADER + "2\t1\t2\ta\tb\n"), "train.txt", "t"))
        .hasMessageContaining("quality must be 0 or 1");
    assertThatThrownBy(() -> QuotedTsv.read(new StringReader("\"never closed\tx\n"), "f"))
        .hasMessageContaining("f:1").hasMessageContaining("never closed");
    assertThatThrownBy(() -> QuotedTsv.read(new StringReader("\"a\"b\tx\n"), "f")).hasMessageContaining("after the closing quote");
    assertThatThrownBy(() -> MrpcLoader.read(new StringReader("id\ttext\n"), "f", "t")).hasMessageContaining("header");
  }
}
