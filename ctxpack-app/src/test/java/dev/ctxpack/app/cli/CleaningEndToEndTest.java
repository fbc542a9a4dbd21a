package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cleaning seen from the command line: {@code chunk --removals}, {@code --remove}, {@code --no-clean}, the ingest summary. */
class CleaningEndToEndTest {
  @TempDir Path dir;

  private Path corpus() throws IOException {
    Path c = Files.createDirectories(dir.resolve("c"));
    String[] animals = {"otters", "herons", "badgers", "voles", "newts", "wrens", "stoats", "moles", "larks", "hares",
        "finches", "toads", "adders", "owls", "kites", "crakes", "shrews", "martens", "plovers", "swifts", "egrets"};
    for (String a : animals) {
      Files.writeString(c.resolve(a + ".txt"), "Todos os direitos reservados.\nField notes on " + a
          + ", written   over  one summer.\n\nWe counted " + a + " at dawn near the old mill.\n");
    }
    return c;
  }

  @Test
  void chunkPrintsRemovalsBeforeTheChunksWithOffsetsInTheLoadedText() throws IOException {
    Path c = corpus();
    List<Path> files;
    try (var s = Files.list(c)) {
      files = s.sorted().toList();
    }
    String[] args = new String[files.size() + 2];
    args[0] = "chunk";
    args[1] = "--removals";
    for (int i = 0; i < files.size(); i++) args[i + 2] = files.get(i).toString();
    CliRunner r = CliRunner.run(args);
    assertThat(r.code()).as(r.err()).isZero();
    List<JsonNode> lines = r.jsonLines();
    JsonNode first = lines.get(0).get("removed");
    assertThat(first.get("reason").asText()).isEqualTo("repeated-line");
    assertThat(first.get("text").asText()).isEqualTo("Todos os direitos reservados.\n");
    assertThat(first.get("start").asInt()).isZero();
    assertThat(first.get("end").asInt()).isEqualTo(30);
    JsonNode chunk = lines.get(1);
    assertThat(chunk.get("docId").asText()).isEqualTo(first.get("docId").asText());
    assertThat(chunk.get("text").asText()).startsWith("Field notes on").contains("written over one summer").doesNotContain("direitos");
    assertThat(lines.stream().filter(l -> l.has("removed")).count()).isEqualTo(files.size());

    CliRunner raw = CliRunner.run("chunk", "--no-clean", files.get(0).toString());
    assertThat(raw.jsonLines().get(0).get("text").asText()).startsWith("Todos os direitos reservados.");
  }

  @Test
  void removeTakesRegexesAndABadOneIsAUsageErrorNamingIt() throws IOException {
    Path f = Files.writeString(dir.resolve("memo.txt"), "Memo 12 of the board.\nPÁGINA 3\nThe board approved the plan.\n");
    CliRunner r = CliRunner.run("chunk", "--removals", "--remove", "(?i)^página \\d+$", f.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.jsonLines().get(0).get("removed").get("reason").asText()).isEqualTo("regex");
    assertThat(r.jsonLines().get(1).get("text").asText()).isEqualTo("Memo 12 of the board.\nThe board approved the plan.");

    CliRunner bad = CliRunner.run("chunk", "--remove", "ok", "--remove", "[unclosed", f.toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--remove").contains("'[unclosed'");
  }

  @Test
  void ingestReportsWhatWasCleanedAndStaysUnchangedOnReingest() throws IOException {
    Path c = corpus();
    Path index = dir.resolve("idx");
    CliRunner r = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", "--format", "json", c.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("cleaned").get("repeated-line").asInt()).isEqualTo(21);
    assertThat(r.json().get("cleaned").get("whitespace").asInt()).isPositive();
    CliRunner again = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", "--format", "json", c.toString());
    assertThat(again.json().get("unchanged").asInt()).isEqualTo(21);
    assertThat(again.json().get("added").asInt() + again.json().get("updated").asInt()).isZero();
    CliRunner search = CliRunner.run("search", "--index", index.toString(), "--query", "direitos reservados", "--format", "json");
    assertThat(search.out()).doesNotContain("direitos");
  }
}
