package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.text.TextNormalizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chunkers through the CLI: chunk, ingest, and widening sentence-window hits in search and pack. */
class ChunkersEndToEndTest {
  @TempDir Path dir;

  private static final String PT = "A cidade fica no litoral. O porto recebe navios do mundo inteiro. "
      + "A catedral foi construída no século XVIII. O mercado abre às seis da manhã. Os pescadores vendem peixe fresco.";
  private static final String EN = "# Coffee\n\nCoffee grows in the tropics. The beans are roasted in drums. "
      + "Caffeine is the stimulant in coffee. Espresso is brewed under pressure.\n\n# Tea\n\nTea is steeped in hot water.";

  private Path corpus() throws Exception {
    Path c = dir.resolve("corpus");
    Files.createDirectories(c);
    Files.writeString(c.resolve("cidade.txt"), PT);
    Files.writeString(c.resolve("coffee.md"), EN);
    return c;
  }

  @Test
  void everyChunkerCutsVerbatimSpansThroughTheChunkCommand() throws Exception {
    Path c = corpus();
    for (String chunker : List.of("token", "recursive", "sentence", "sentence-window", "passage")) {
      CliRunner r = CliRunner.run("chunk", "--chunker", chunker, "--chunk-tokens", "16",
          c.resolve("cidade.txt").toString(), c.resolve("coffee.md").toString());
      assertThat(r.code()).as(chunker + ": " + r.err()).isZero();
      for (JsonNode line : r.jsonLines()) {
        String text = line.get("text").asText();
        String whole = PT.contains(text) ? PT : EN;
        assertThat(whole.substring(line.get("start").asInt(), line.get("end").asInt())).as(chunker).isEqualTo(text);
        assertThat(line.get("tokens").asInt()).as(chunker).isLessThanOrEqualTo(16);
      }
    }
    CliRunner recursive = CliRunner.run("chunk", "--chunker", "recursive", c.resolve("coffee.md").toString());
    assertThat(recursive.jsonLines()).extracting(l -> l.get("text").asText()).containsExactly(
        EN.substring(0, EN.indexOf("\n\n# Tea")), EN.substring(EN.indexOf("# Tea")));
  }

  /**
   * Every chunk of the bundled sample corpus (SciFact in English, FaQuAD in Portuguese), under every
   * chunker, is the stored text at its offsets and within the maximum. Semantic runs on the Portuguese
   * sample only (there it cuts by structure; with the model it is tested in ctxpack-onnx).
   */
  @Test
  void everyChunkOfTheSampleCorpusIsItsDocumentsTextAtItsOffsets() throws Exception {
    Map<String, String> stored = new HashMap<>();
    Map<String, Path> files = new LinkedHashMap<>();
    for (String name : List.of("scifact-sample.jsonl", "faquad-sample.jsonl")) {
      Path f = dir.resolve(name);
      try (var in = ChunkersEndToEndTest.class.getResourceAsStream("/dev/ctxpack/app/samples/" + name)) {
        Files.copy(in, f);
      }
      files.put(name, f);
      for (String line : Files.readAllLines(f)) {
        JsonNode n = Json.MAPPER.readTree(line);
        stored.put(n.get("_id").asText(), TextNormalizer.storageForm(n.get("text").asText()));
      }
    }
    for (String chunker : List.of("token", "recursive", "sentence", "sentence-window", "passage", "semantic")) {
      List<Path> inputs = chunker.equals("semantic") ? List.of(files.get("faquad-sample.jsonl")) : List.copyOf(files.values());
      // Uncleaned, so the stored text is the storage form computed above; EveryFormatInvariantTest
      // (ctxpack-ingest) checks the same invariant against cleaned text of every format.
      List<String> args = new ArrayList<>(List.of("chunk", "--no-clean", "--chunker", chunker, "--chunk-tokens", "120"));
      for (Path in : inputs) args.add(in.toString());
      CliRunner r = CliRunner.run(args.toArray(String[]::new));
      assertThat(r.code()).as(chunker + ": " + r.err()).isZero();
      List<JsonNode> lines = r.jsonLines();
      assertThat(lines).as(chunker).isNotEmpty();
      for (JsonNode line : lines) {
        String text = stored.get(line.get("docId").asText());
        assertThat(text.substring(line.get("start").asInt(), line.get("end").asInt()))
            .as(chunker + " " + line.get("chunkId").asText()).isEqualTo(line.get("text").asText());
        assertThat(line.get("tokens").asInt()).as(chunker).isLessThanOrEqualTo(120);
      }
    }
  }

  @Test
  void anUnknownChunkerIsAUsageErrorNamingTheChoices() throws Exception {
    CliRunner r = CliRunner.run("chunk", "--chunker", "magic", corpus().resolve("cidade.txt").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("magic").contains("sentence-window").contains("passage");
  }

  @Test
  void sentenceWindowHitsAreWidenedInSearchAndPack() throws Exception {
    String index = dir.resolve("idx").toString();
    CliRunner ingest = CliRunner.run("ingest", "--index", index, "--no-embed", "--chunker", "sentence-window",
        "--format", "json", corpus().toString());
    assertThat(ingest.code()).as(ingest.err()).isZero();

    JsonNode narrow = CliRunner.run("search", "--index", index, "--format", "json", "-q", "catedral século",
        "--mode", "bm25", "-k", "1").json().get("results").get(0);
    assertThat(narrow.get("text").asText()).isEqualTo("A catedral foi construída no século XVIII.");

    JsonNode wide = CliRunner.run("search", "--index", index, "--format", "json", "-q", "catedral século",
        "--mode", "bm25", "-k", "1", "--window", "1").json().get("results").get(0);
    String expected = "O porto recebe navios do mundo inteiro. A catedral foi construída no século XVIII. O mercado abre às seis da manhã.";
    assertThat(wide.get("text").asText()).isEqualTo(expected);
    assertThat(PT.substring(wide.get("start").asInt(), wide.get("end").asInt())).isEqualTo(expected);
    assertThat(wide.get("chunkId").asText()).isEqualTo(narrow.get("chunkId").asText());

    CliRunner pack = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "Which stimulant is in coffee?",
        "--mode", "bm25", "--window", "1", "--no-compress");
    assertThat(pack.code()).as(pack.err()).isZero();
    JsonNode p = pack.json();
    List<String> expands = new ArrayList<>();
    for (JsonNode d : p.get("trace")) if (d.get("action").asText().equals("expand")) expands.add(d.get("rule").asText());
    assertThat(expands).isNotEmpty().allMatch(r -> r.equals("sentence-window:1"));
    assertThat(p.get("prompt").asText()).contains("The beans are roasted in drums. Caffeine is the stimulant in coffee. Espresso is brewed under pressure.");
  }
}
