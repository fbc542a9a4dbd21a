package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProgressTest {
  @Test
  void drawsABarOnATerminalAndClearsItAtTheEnd() {
    StringWriter sw = new StringWriter();
    Progress p = new Progress(new PrintWriter(sw), true);
    p.started(2);
    p.fileDone(Path.of("a.txt"), 0, 2);
    p.embedded(Path.of("b.jsonl"), 256, 1024);
    p.fileDone(Path.of("b.jsonl"), 1, 2);
    String out = sw.toString();
    assertThat(out).contains("] 1/2 files").contains("a.txt").contains("256/1024 texts embedded")
        .contains("[" + "#".repeat(30) + "] 2/2 files");
    assertThat(out).endsWith("\r\033[K");
  }

  @Test
  void staysQuietWhenNotATerminal() {
    StringWriter sw = new StringWriter();
    Progress p = new Progress(new PrintWriter(sw), false);
    p.started(1);
    p.embedded(Path.of("x"), 1, 2);
    p.fileDone(Path.of("x"), 0, 1);
    assertThat(sw.toString()).isEmpty();
  }
}
