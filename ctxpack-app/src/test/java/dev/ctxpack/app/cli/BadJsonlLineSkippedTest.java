package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestSummary;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 (8a): one bad JSON Lines line (5,000 of 10,000) rejected the whole file. Without the
 * option the file is still refused, naming the line; with {@code --skip-bad-lines} the other lines
 * are ingested and the summary lists every skipped line (file, line, reason), in text and JSON.
 */
class BadJsonlLineSkippedTest {
  private static final int LINES = 2_000;
  @TempDir Path dir;

  /** 2,000 lines (the issue had 10,000): line 1,000 is not JSON, 1,200 has no text, 1,400 is not UTF-8. */
  private Path corpus() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int i = 1; i <= LINES; i++) {
      String line = switch (i) {
        case 1_000 -> "{\"_id\": \"d1000\", \"text\": \"truncated";
        case 1_200 -> "{\"_id\": \"d1200\", \"title\": \"no text\"}";
        case 1_400 -> null;
        default -> "{\"_id\": \"d" + i + "\", \"text\": \"Documento " + i + " sobre o tema " + (i % 97) + ". Document "
            + i + " about topic " + (i % 89) + ".\"}";
      };
      if (line == null) {
        b.write("{\"_id\": \"d1400\", \"text\": \"a\u00e7\u00e3o ".getBytes(StandardCharsets.UTF_8));
        b.write(new byte[] {(byte) 0xE7, (byte) 0xE3}); // Latin-1 bytes: not UTF-8
        b.write("\"}".getBytes(StandardCharsets.UTF_8));
      } else {
        b.write(line.getBytes(StandardCharsets.UTF_8));
      }
      b.write(i % 2 == 0 ? "\r\n".getBytes(StandardCharsets.UTF_8) : "\n".getBytes(StandardCharsets.UTF_8));
    }
    Path f = dir.resolve("export.jsonl");
    Files.write(f, b.toByteArray());
    return f;
  }

  @Test
  void withoutTheOptionTheFileIsRefusedNamingTheLine() throws Exception {
    Path f = corpus();
    String index = dir.resolve("idx").toString();
    CliRunner r = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", f.toString());
    assertThat(r.code()).isEqualTo(1);
    JsonNode s = r.json();
    assertThat(s.get("added").asInt()).isZero();
    assertThat(s.get("failed").get(0).get("error").asText()).contains("export.jsonl:1000: invalid JSON");
    assertThat(s.has("badLines")).isFalse();
  }

  @Test
  void skipBadLinesIngestsTheRestAndListsEveryBadLine() throws Exception {
    Path f = corpus();
    String index = dir.resolve("idx").toString();
    CliRunner r = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", "--skip-bad-lines",
        f.toString());
    assertThat(r.code()).as(r.err()).isEqualTo(1);
    JsonNode s = r.json();
    assertThat(s.get("added").asInt()).isEqualTo(LINES - 3);
    assertThat(s.get("failed")).isEmpty();
    assertThat(s.get("badLineCount").asInt()).isEqualTo(3);
    JsonNode bad = s.get("badLines");
    assertThat(bad).hasSize(3);
    assertThat(bad.get(0).get("path").asText()).isEqualTo(f.toString());
    assertThat(bad.get(0).get("line").asInt()).isEqualTo(1_000);
    assertThat(bad.get(0).get("error").asText()).startsWith("invalid JSON");
    assertThat(bad.get(1).get("line").asInt()).isEqualTo(1_200);
    assertThat(bad.get(1).get("error").asText()).isEqualTo("missing field 'text'");
    assertThat(bad.get(2).get("line").asInt()).isEqualTo(1_400);
    assertThat(bad.get(2).get("error").asText()).isEqualTo("not valid UTF-8");
    try (Index idx = Indexes.openExisting(IndexSpec.ofPath(Path.of(index)))) {
      assertThat(idx.stats().documents()).isEqualTo(LINES - 3);
      assertThat(idx.find("d999")).isPresent();
      assertThat(idx.find("d1001")).isPresent();
      assertThat(idx.find("d1000")).isEmpty();
      assertThat(idx.find("d1400")).isEmpty();
    }

    // The same file again: the good lines are unchanged, the bad ones listed again; the text summary lists them.
    CliRunner t = CliRunner.run("ingest", "--index", index, "--no-embed", "--skip-bad-lines", f.toString());
    assertThat(t.code()).isEqualTo(1);
    assertThat(t.out()).contains("unchanged " + (LINES - 3))
        .contains("skipped 3 bad lines (--skip-bad-lines):")
        .contains("  " + f + ":1000: invalid JSON")
        .contains("  " + f + ":1200: missing field 'text'")
        .contains("  " + f + ":1400: not valid UTF-8");
  }

  @Test
  void theListIsCappedButTheCountIsExact() throws Exception {
    int bad = IngestSummary.MAX_LISTED_BAD_LINES + 30;
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 200; i++) sb.append(i <= bad ? "not json " + i : "{\"_id\": \"g" + i + "\", \"text\": \"good " + i + "\"}").append('\n');
    Path f = Files.writeString(dir.resolve("mostly-bad.jsonl"), sb);
    String index = dir.resolve("idx2").toString();
    JsonNode s = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", "--skip-bad-lines",
        f.toString()).json();
    assertThat(s.get("added").asInt()).isEqualTo(200 - bad);
    assertThat(s.get("badLineCount").asInt()).isEqualTo(bad);
    assertThat(s.get("badLines")).hasSize(IngestSummary.MAX_LISTED_BAD_LINES);
    assertThat(s.get("badLines").get(IngestSummary.MAX_LISTED_BAD_LINES - 1).get("line").asInt())
        .isEqualTo(IngestSummary.MAX_LISTED_BAD_LINES);
    CliRunner t = CliRunner.run("ingest", "--index", index, "--no-embed", "--skip-bad-lines", f.toString());
    assertThat(t.out()).contains("skipped " + bad + " bad lines").contains("… and 30 more (the first 100 are listed)");
  }
}
