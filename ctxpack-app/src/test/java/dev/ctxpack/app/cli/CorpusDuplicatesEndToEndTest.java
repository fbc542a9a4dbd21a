package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corpus-level duplicates end to end on real text (SciFact abstracts from the bundled sample):
 * exact copies recorded and not indexed, edited copies indexed and marked, a recurring notice
 * flagged as boilerplate and down-weighted, a later ingest compared with the stored corpus, packing
 * preferring the original, and {@code corpus-report} listing it all.
 */
class CorpusDuplicatesEndToEndTest {
  static final String FOOTER = "This abstract is distributed by the university library under the Open Data Commons"
      + " Attribution License; please cite the original article when you reuse it.";

  @TempDir Path dir;
  Path corpus;
  Path index;
  List<String> abstracts = new ArrayList<>();

  @BeforeEach
  void corpus() throws Exception {
    try (var in = getClass().getResourceAsStream("/dev/ctxpack/app/samples/scifact-sample.jsonl");
        var r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null && abstracts.size() < 8; line = r.readLine()) {
        String text = Json.MAPPER.readTree(line).get("text").asText();
        if (text.length() > 600) abstracts.add(text);
      }
    }
    corpus = Files.createDirectories(dir.resolve("corpus"));
    index = dir.resolve("index");
    for (int i = 1; i <= 6; i++) Files.writeString(corpus.resolve("doc" + i + ".txt"), abstracts.get(i - 1) + "\n\n" + FOOTER + "\n");
    // Files are read in path order: the first of two copies is the original.
    Files.createDirectories(corpus.resolve("mirror"));
    Files.copy(corpus.resolve("doc1.txt"), corpus.resolve("mirror/doc1-copy.txt"));
    String seven = abstracts.get(6);
    Files.writeString(corpus.resolve("guide.txt"), seven);
    Files.writeString(corpus.resolve("guide_v2.txt"), edit(seven));
    Files.setLastModifiedTime(corpus.resolve("guide.txt"), FileTime.fromMillis(1_600_000_000_000L));
    Files.setLastModifiedTime(corpus.resolve("guide_v2.txt"), FileTime.fromMillis(1_700_000_000_000L));
    // An edited copy of doc3 under another name, with words of its own title ("nanoscience digest").
    Files.createDirectories(corpus.resolve("notes"));
    Files.writeString(corpus.resolve("notes/nanoscience-digest.txt"), edit(abstracts.get(2)) + "\n\n" + FOOTER + "\n");
  }

  /** A realistic light edit: one sentence reworded at the end, another word changed. */
  static String edit(String text) {
    int cut = text.lastIndexOf(". ", text.length() - 3);
    return text.substring(0, cut + 1) + " In short, the results above were confirmed in a second cohort.";
  }

  @Test
  void duplicatesAreRecordedMarkedPreferredAndReported() throws Exception {
    CliRunner ing = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", "--chunker", "sentence",
        "--format", "json", corpus.toString());
    assertThat(ing.code()).as(ing.err()).isZero();
    JsonNode s = ing.json();
    assertThat(s.get("added").asInt()).isEqualTo(9);
    assertThat(s.get("duplicates").asInt()).isEqualTo(1);
    Map<String, JsonNode> byPath = new HashMap<>();
    for (JsonNode d : s.get("duplicatesOf")) byPath.put(Path.of(d.get("path").asText()).getFileName().toString(), d);
    assertThat(byPath).containsOnlyKeys("doc1-copy.txt", "guide_v2.txt", "nanoscience-digest.txt");
    String doc1 = byPath.get("doc1-copy.txt").get("duplicateOf").asText();
    assertThat(byPath.get("guide_v2.txt").get("similarity").asDouble()).isBetween(0.8, 1.0);
    assertThat(byPath.get("nanoscience-digest.txt").has("nearDuplicateOf")).isTrue();
    // Six documents end with the same notice, a sentence chunk of its own; the digest makes seven.
    // (Section headings such as "CONCLUSIONS" open the sentence after them, so they recur in no chunk.)
    assertThat(s.get("boilerplateChunks").asInt()).isEqualTo(7);

    // A later ingest is still compared with the stored corpus.
    Path late = Files.createDirectories(dir.resolve("late"));
    Files.writeString(late.resolve("doc5-revised.txt"), edit(abstracts.get(4)) + "\n\n" + FOOTER + "\n");
    JsonNode s2 = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", "--chunker", "sentence",
        "--format", "json", late.toString()).json();
    assertThat(s2.get("added").asInt()).isEqualTo(1);
    assertThat(s2.get("duplicatesOf").get(0).get("nearDuplicateOf").asText()).isEqualTo(docId(corpus.resolve("doc5.txt")));
    // Re-ingesting the corpus changes nothing and records the copy once.
    CliRunner again = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", "--chunker", "sentence",
        "--format", "json", corpus.toString());
    assertThat(again.json().get("unchanged").asInt()).isEqualTo(9);

    JsonNode report = CliRunner.run("corpus-report", "--index", index.toString(), "--format", "json").json();
    assertThat(report.get("documents").asInt()).isEqualTo(10);
    assertThat(report.get("exact")).hasSize(1);
    JsonNode exact = report.get("exact").get(0);
    assertThat(exact.get("original").get("id").asText()).isEqualTo(doc1);
    assertThat(exact.get("original").get("path").asText()).endsWith("doc1.txt");
    assertThat(exact.get("copies")).hasSize(1);
    assertThat(exact.get("copies").get(0).asText()).endsWith("doc1-copy.txt");
    assertThat(report.get("near")).hasSize(3);
    assertThat(report.get("versions")).hasSize(1);
    JsonNode version = report.get("versions").get(0);
    assertThat(version.get("newer").get("path").asText()).endsWith("guide_v2.txt");
    assertThat(version.get("older").get("path").asText()).endsWith("guide.txt");
    assertThat(version.get("by").asText()).isEqualTo("file-time");
    assertThat(version.get("shared").asText()).isEqualTo("stem");
    assertThat(report.get("boilerplate")).hasSize(1);
    JsonNode boiler = report.get("boilerplate").get(0);
    assertThat(boiler.get("documents").asInt()).isEqualTo(8);
    assertThat(boiler.get("text").asText()).isEqualTo(FOOTER);

    CliRunner text = CliRunner.run("corpus-report", "--index", index.toString());
    assertThat(text.code()).isZero();
    assertThat(text.out()).contains("10 documents: 1 exact duplicate cluster(s), 3 near-duplicate cluster(s), 1 old version(s)")
        .contains("8 documents: \"This abstract is distributed");

    // Packing: the boilerplate notice is down-weighted, and the original's chunk leads its copy's.
    // The abstract's first sentence as the sentence chunker cuts it (with its heading, "OBJECTIVES").
    String lastSentence = abstracts.get(2).substring(0, abstracts.get(2).indexOf(". ") + 1);
    CliRunner pack = CliRunner.run("pack", "--index", index.toString(), "--no-compress", "--format", "json",
        "--query", "nanoscience digest: " + lastSentence + " Open Data Commons license", "--budget", "2000");
    assertThat(pack.code()).as(pack.err()).isZero();
    JsonNode p = pack.json();
    String trace = p.get("trace").toString();
    assertThat(trace).contains("corpus:boilerplate").contains("corpus:near-duplicate-of");
    String doc3 = docId(corpus.resolve("doc3.txt"));
    String first = null;
    for (JsonNode src : p.get("sources")) {
      if (src.get("text").asText().equals(lastSentence)) {
        first = src.get("docId").asText();
        break;
      }
    }
    assertThat(first).isEqualTo(doc3);
  }

  @Test
  void theSameTextUnderTwoGivenIdsIsIndexedTwiceAndMarked() throws Exception {
    Path jsonl = dir.resolve("export.jsonl");
    String a = Json.MAPPER.writeValueAsString(Map.of("_id", "x1", "title", "Report", "text", abstracts.get(0),
        "metadata", Map.of("date", "2024-05-01")));
    String b = Json.MAPPER.writeValueAsString(Map.of("_id", "x2", "title", "report", "text", abstracts.get(0).replaceFirst(" the ", " this "),
        "metadata", Map.of("date", "2023-01-10")));
    String c = Json.MAPPER.writeValueAsString(Map.of("_id", "x3", "title", "Other", "text", abstracts.get(0)));
    Files.writeString(jsonl, a + "\n" + b + "\n" + c + "\n");
    JsonNode s = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", "--format", "json", jsonl.toString()).json();
    assertThat(s.get("added").asInt()).isEqualTo(3);
    assertThat(s.get("duplicates").asInt()).isZero();
    assertThat(s.get("duplicatesOf").toString())
        .contains("\"docId\":\"x3\",\"nearDuplicateOf\":\"x1\",\"similarity\":1.0")
        .contains("\"docId\":\"x2\",\"nearDuplicateOf\":\"x1\"");
    JsonNode versions = CliRunner.run("corpus-report", "--index", index.toString(), "--format", "json").json().get("versions");
    assertThat(versions).hasSize(1);
    assertThat(versions.get(0).get("newer").get("id").asText()).isEqualTo("x1");
    assertThat(versions.get(0).get("older").get("id").asText()).isEqualTo("x2");
    assertThat(versions.get(0).get("by").asText()).isEqualTo("metadata-date");
    assertThat(versions.get(0).get("shared").asText()).isEqualTo("title");
  }

  @Test
  void documentsCommittedEarlierInTheRunAreFoundThroughTheIndex() throws Exception {
    // One document per commit: every comparison goes through the stored signatures and band keys.
    JsonNode one = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", "--chunker", "sentence",
        "--commit-every", "1", "--format", "json", corpus.toString()).json();
    JsonNode all = CliRunner.run("ingest", "--index", dir.resolve("index2").toString(), "--no-embed", "--chunker",
        "sentence", "--format", "json", corpus.toString()).json();
    assertThat(one.get("duplicatesOf")).hasSize(3);
    assertThat(one.get("duplicatesOf")).isEqualTo(all.get("duplicatesOf"));
    assertThat(one.get("boilerplateChunks").asInt()).isEqualTo(7).isEqualTo(all.get("boilerplateChunks").asInt());
  }

  @Test
  void aBadThresholdIsAUsageError() {
    CliRunner r = CliRunner.run("ingest", "--index", index.toString(), "--near-duplicate", "1.5", corpus.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--near-duplicate must be in (0, 1], was 1.5");
    CliRunner c = CliRunner.run("corpus-report", "--index", dir.resolve("none").toString());
    assertThat(c.code()).isEqualTo(1);
    assertThat(c.err()).contains("no index at");
  }

  private String docId(Path file) throws Exception {
    JsonNode chunks = CliRunner.run("chunk", "--chunker", "sentence", file.toString()).jsonLines().get(0);
    return chunks.get("docId").asText();
  }
}
