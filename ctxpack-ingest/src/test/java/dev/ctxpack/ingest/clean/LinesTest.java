package dev.ctxpack.ingest.clean;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LinesTest {
  @Test
  void pageNumberLinesAreRecognisedButABareNumberIsNot() {
    for (String l : new String[] {"Page 3 of 10", "Página 4 de 12", "Pág. 7", "p. 12", "— 5 —", "- 5 -", "3 / 10"}) {
      assertThat(Lines.pageNumber(Lines.key(l))).as(l).isTrue();
    }
    for (String l : new String[] {"3", "Table 3", "page three", "5 mg"}) assertThat(Lines.pageNumber(Lines.key(l))).as(l).isFalse();
    assertThat(Lines.key("Page 3 of 10")).isEqualTo(Lines.key("PAGE 14 of  10 "));
  }

  @Test
  void onlyShortWordyLinesThatAreNotStructureMayRepeat() {
    assertThat(Lines.repeatable("All rights reserved.", Lines.key("All rights reserved."), 200)).isTrue();
    assertThat(Lines.repeatable("Introduction", Lines.key("Introduction"), 200)).isFalse();
    assertThat(Lines.repeatable("2.1 Study design", Lines.key("2.1 Study design"), 200)).isFalse();
    assertThat(Lines.repeatable("| Total | 12 |", Lines.key("| Total | 12 |"), 200)).isFalse();
    assertThat(Lines.repeatable("    return x + y;", Lines.key("    return x + y;"), 200)).isFalse();
    String prose = "word ".repeat(50);
    assertThat(Lines.repeatable(prose, Lines.key(prose), 200)).isFalse();
  }
}
