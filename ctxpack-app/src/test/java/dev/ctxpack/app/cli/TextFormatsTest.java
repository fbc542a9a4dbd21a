package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text formats of chunk, dedup, compress, assemble and memory say what their JSON says: the
 * same chunks with their offsets, the same passages with the ids merged into each, the same kept
 * and dropped sentences, the same budget; and without {@code --format} the output is the JSON it
 * always was.
 */
class TextFormatsTest {
  @TempDir Path dir;

  private static final String RHINE = "The Rhine is a river that begins in the Swiss Alps. The river is about 1,230 km long."
      + " Home | About | Contact. Its largest tributaries are the Aare, the Main and the Moselle.";
  private static final String BUDGET = "The committee approved the new budget for the public library after a long debate on"
      + " Tuesday evening, and the reading room will be renovated during the summer.";

  private Path lines(String name, List<Map<String, Object>> rows) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (Map<String, Object> r : rows) sb.append(Json.MAPPER.writeValueAsString(r)).append('\n');
    return Files.writeString(dir.resolve(name), sb.toString());
  }

  @Test
  void chunkTextHasOneBlockPerChunkWithItsOffsetsAndTokens() throws Exception {
    Path md = Files.writeString(dir.resolve("guide.md"), "# Guide\n\n## Renewal\nRenewal happens every semester in the"
        + " student portal.\n\n## Leave\nA leave of absence can be asked for once per course.\n");
    CliRunner json = CliRunner.run("chunk", md.toString(), "--chunker", "recursive", "--chunk-tokens", "20");
    CliRunner text = CliRunner.run("chunk", md.toString(), "--chunker", "recursive", "--chunk-tokens", "20", "--format", "text");
    assertThat(json.code()).as(json.err()).isZero();
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(CliRunner.run("chunk", md.toString(), "--chunker", "recursive", "--chunk-tokens", "20", "--format", "json").out())
        .isEqualTo(json.out());
    List<JsonNode> chunks = json.jsonLines();
    assertThat(chunks).hasSizeGreaterThan(1);
    String[] blocks = text.out().split("\n\n");
    assertThat(blocks).hasSameSizeAs(chunks);
    for (int i = 0; i < chunks.size(); i++) {
      JsonNode c = chunks.get(i);
      assertThat(blocks[i]).startsWith("chunk " + c.get("chunkId").asText() + " · " + c.get("start").asInt() + "-"
          + c.get("end").asInt() + " · " + c.get("tokens").asInt() + " tokens");
      if (!c.get("section").asText().isEmpty()) assertThat(blocks[i]).contains(" · section " + c.get("section").asText());
      for (String line : c.get("text").asText().split("\n")) if (!line.isEmpty()) assertThat(blocks[i]).contains("\n  " + line);
    }
  }

  @Test
  void compressTextListsEachKeptPassageAndEachDroppedSentenceWithItsReason() throws Exception {
    Path in = lines("rhine.jsonl", List.of(Map.of("id", "r1", "text", RHINE)));
    String[] args = {"compress", "-q", "How long is the Rhine?", "--budget", "20", "--embedder", "none", "--input", in.toString()};
    JsonNode json = CliRunner.run(args).json();
    CliRunner text = CliRunner.runWithStdin("", append(args, "--format", "text"));
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).startsWith("compressed " + json.get("tokensIn").asInt() + " tokens to "
        + json.get("tokensOut").asInt() + " (scorer " + json.get("scorer").asText() + ")\n");
    for (JsonNode p : json.get("passages")) {
      assertThat(text.out()).contains(p.get("id").asText() + " · " + p.get("tokens").asInt() + " tokens: " + p.get("text").asText());
    }
    assertThat(json.get("dropped").size()).isPositive();
    for (JsonNode d : json.get("dropped")) {
      String sentence = RHINE.substring(d.get("start").asInt(), d.get("end").asInt());
      assertThat(text.out()).contains("  r1 " + d.get("start").asInt() + "-" + d.get("end").asInt() + " "
          + d.get("reason").asText()).contains(sentence);
    }
  }

  @Test
  void dedupTextShowsTheIdsMergedIntoEachPassageAndOneLinePerDecision() throws Exception {
    Path in = lines("dd.jsonl", List.of(Map.of("id", "a", "text", BUDGET), Map.of("id", "b", "text", BUDGET),
        Map.of("id", "c", "text", BUDGET.replace("approved", "did not approve"))));
    JsonNode json = CliRunner.run("dedup", "--input", in.toString(), "--embedder", "none").json();
    CliRunner text = CliRunner.run("dedup", "--input", in.toString(), "--embedder", "none", "--format", "text");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).startsWith("3 passages in, " + json.get("passages").size() + " out, "
        + json.get("decisions").size() + " decision" + (json.get("decisions").size() == 1 ? "" : "s") + "\n");
    for (JsonNode p : json.get("passages")) {
      List<String> sources = new java.util.ArrayList<>();
      p.get("sources").forEach(s -> sources.add(s.asText()));
      assertThat(text.out()).contains(p.get("id").asText() + " · from " + String.join(", ", sources) + "\n");
    }
    assertThat(text.out()).contains("a · from a, b\n").contains("c · from c\n");
    for (JsonNode d : json.get("decisions")) {
      assertThat(text.out()).contains("  " + d.get("level").asText() + " " + d.get("action").asText() + " "
          + d.get("from").asText() + " -> " + d.get("into").asText());
    }
  }

  @Test
  void assembleTextGivesTheBudgetByComponentAndTheMessagesByRole() throws Exception {
    Path req = Files.writeString(dir.resolve("request.json"), "{\"window\": 2000, \"reserve\": 300, \"system\": \"Be brief.\","
        + " \"history\": [{\"role\": \"user\", \"content\": \"Hello\"}, {\"role\": \"assistant\", \"content\": \"Hi!\"}],"
        + " \"memories\": [\"Ana prefers short answers.\"], \"query\": \"What is the weather in Lisbon?\", \"retrieval\": false}");
    // No --index (and none at ./.ctxpack): a window without evidence.
    String[] noIndex = {"assemble", "--request", req.toString(), "--embedder", "none"};
    CliRunner json = CliRunner.run(noIndex);
    assertThat(json.code()).as(json.err()).isZero();
    CliRunner text = CliRunner.run(append(noIndex, "--format", "text"));
    assertThat(text.code()).as(text.err()).isZero();
    JsonNode budget = json.json().get("budget");
    assertThat(text.out()).startsWith("gpt-4o: " + budget.get("used").asInt() + " of " + budget.get("limit").asInt()
        + " tokens used, " + budget.get("left").asInt() + " left (window 2000, reserve 300)\n");
    budget.get("byComponent").properties().forEach(e ->
        assertThat(text.out()).containsPattern("(?m)^  " + e.getKey() + " +" + e.getValue().asInt() + "$"));
    assertThat(text.out()).contains("\n--- system (system)\nBe brief.\n").contains("\n--- user (history)\nHello\n")
        .contains("\n--- assistant (history)\nHi!\n").contains("\n--- user (query)\nWhat is the weather in Lisbon?\n")
        .contains("- Ana prefers short answers.");
  }

  @Test
  void memoryTextIsOneLinePerMemoryAndMemoryFormatIsTheDefaultOfItsSubcommands() throws Exception {
    Path store = dir.resolve("memories");
    CliRunner add = CliRunner.run("memory", "add", "--memory", store.toString(), "--user", "ana", "--kind", "fact",
        "--text", "Ana prefers short answers.");
    assertThat(add.code()).as(add.err()).isZero();
    assertThat(add.out()).matches("m[0-9a-f]{16}\tfact\t\\S+\n");
    String id = add.out().substring(0, 17);
    CliRunner list = CliRunner.run("memory", "list", "--memory", store.toString(), "--user", "ana");
    assertThat(list.out()).matches(id + "\tfact\t\\S+\tAna prefers short answers.\n");
    JsonNode json = CliRunner.run("memory", "--format", "json", "list", "--memory", store.toString(), "--user", "ana").json();
    assertThat(json.get("memories").get(0).get("id").asText()).isEqualTo(id);
    assertThat(CliRunner.run("memory", "--format", "json", "list", "--memory", store.toString(), "--user", "ana",
        "--format", "text").out()).as("the subcommand's own --format wins").isEqualTo(list.out());
  }

  private static String[] append(String[] args, String... more) {
    String[] out = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, out, args.length, more.length);
    return out;
  }
}
