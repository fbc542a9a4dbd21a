package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.onnx.Embedders;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One file the model cannot read (a 40,000-letter "word": a minified asset, a hash dump) must not
 * blind dense search over the rest of the index: its windows all embed as the word piece {@code
 * [UNK]}, and some 190 identical vectors used to trap the HNSW search, so every query's dense top-5
 * was that file's chunks and the right abstract came only at k = 200.
 */
class LongTokenDenseSearchTest {
  @TempDir Path dir;

  record Abstract(String id, String title, String text) {}

  @Test
  void aFileOfOneHugeWordDoesNotTakeOverDenseSearchAndStaysFoundByBm25() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("c"));
    List<Abstract> docs = abstracts(30);
    for (int i = 0; i < docs.size(); i++) {
      Files.writeString(corpus.resolve(String.format("doc%02d.txt", i)), docs.get(i).text());
    }
    Random random = new Random(23);
    StringBuilder junk = new StringBuilder("Intro. ");
    for (int i = 0; i < 40_000; i++) junk.append((char) ('a' + random.nextInt(26)));
    Files.writeString(corpus.resolve("zz-asset.txt"), junk.toString());

    String indexDir = dir.resolve("idx").toString();
    CliRunner in = CliRunner.run("ingest", "--index", indexDir, "--format", "json", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();
    JsonNode summary = in.json();
    assertThat(summary.get("added").asInt()).isEqualTo(31);
    // Its windows are the title and one [UNK] each, all the same vector: one keeps it, the rest go without.
    assertThat(summary.get("withoutVectors").path("sameVector").asInt()).isGreaterThan(50);

    Embedder minilm = Embedders.byName("minilm");
    try (Index index = Indexes.open(IndexSpec.ofPath(Path.of(indexDir)))) {
      String junkId = index.findBySourcePath(corpus.resolve("zz-asset.txt").toAbsolutePath().toString())
          .get(0).id();
      int right = 0;
      int junkSlots = 0;
      List<String> wrong = new ArrayList<>();
      for (int i = 0; i < docs.size(); i++) {
        List<Candidate> top = index.searchDense(minilm.embed(docs.get(i).title()), 5);
        String expected = index.findBySourcePath(corpus.resolve(String.format("doc%02d.txt", i)).toAbsolutePath().toString())
            .get(0).id();
        if (!top.isEmpty() && top.get(0).doc().id().equals(expected)) right++;
        else wrong.add(docs.get(i).title());
        junkSlots += (int) top.stream().filter(c -> c.doc().id().equals(junkId)).count();
      }
      assertThat(wrong).as("dense top-1 wrong for these titles").isEmpty();
      assertThat(right).isEqualTo(30);
      assertThat(junkSlots).as("junk chunks in the 150 dense top-5 slots").isLessThanOrEqualTo(docs.size());

      // The file is still indexed whole and found by its words.
      List<Candidate> bm25 = index.searchSparse("Intro", 3);
      assertThat(bm25).isNotEmpty();
      assertThat(bm25.get(0).doc().id()).isEqualTo(junkId);
    }
  }

  private List<Abstract> abstracts(int n) throws Exception {
    List<Abstract> out = new ArrayList<>();
    try (var r = new BufferedReader(new InputStreamReader(
        getClass().getResourceAsStream("/dev/ctxpack/app/samples/scifact-sample.jsonl"), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null && out.size() < n; line = r.readLine()) {
        JsonNode d = Json.MAPPER.readTree(line);
        out.add(new Abstract(d.get("_id").asText(), d.get("title").asText(), d.get("text").asText()));
      }
    }
    return out;
  }
}
