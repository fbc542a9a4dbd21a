package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ctxpack dedup} and the cascade inside {@code pack}, end to end on real components. */
class DedupEndToEndTest {
  @TempDir Path dir;

  private static final String BASE = "The city library will keep its reading rooms open on weekends during the summer. "
      + "The decision follows a public consultation with readers and staff.";

  @Test
  void dedupMergesNearCopiesStitchesWindowsGuardsExceptionsAndCitesEveryInput() throws Exception {
    String doc = "Alpha one two three. Beta four five six. Gamma seven eight nine.";
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, String.join("\n",
        "{\"id\": \"a\", \"text\": \"" + BASE + "\", \"score\": 0.9}",
        "{\"id\": \"b\", \"text\": \"Press release. " + BASE + "\", \"score\": 0.8}",
        "{\"id\": \"c\", \"text\": \"" + BASE.replace("will keep", "will not keep") + "\", \"score\": 0.7}",
        "{\"id\": \"w1\", \"docId\": \"doc\", \"start\": 0, \"end\": 40, \"text\": \"" + doc.substring(0, 40) + "\", \"score\": 0.6}",
        "{\"id\": \"w2\", \"docId\": \"doc\", \"start\": 21, \"end\": " + doc.length() + ", \"text\": \"" + doc.substring(21) + "\", \"score\": 0.5}",
        "{\"id\": \"d\", \"text\": \"" + BASE + "\"}",
        ""));
    // One inserted word changes five 5-word shingles: in a text this short, c is only a near copy
    // at a lower threshold, which is where the guard has to hold.
    CliRunner r = CliRunner.run("dedup", "--input", in.toString(), "--embedder", "none", "--near-jaccard", "0.6");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode out = r.json();

    List<String> cited = new ArrayList<>();
    for (JsonNode p : out.get("passages")) p.get("sources").forEach(s -> cited.add(s.asText()));
    assertThat(cited).containsExactlyInAnyOrder("a", "b", "c", "w1", "w2", "d");

    JsonNode a = out.get("passages").get(0);
    assertThat(a.get("id").asText()).isEqualTo("a");
    assertThat(a.get("text").asText()).isEqualTo(BASE + " … Press release.");
    assertThat(a.get("sources").toString()).isEqualTo("[\"a\",\"d\",\"b\"]"); // exact runs before near
    JsonNode stitched = null;
    for (JsonNode p : out.get("passages")) if (p.get("id").asText().equals("w1")) stitched = p;
    assertThat(stitched.get("text").asText()).isEqualTo(doc);
    assertThat(stitched.get("pieces").get(0).get("end").asInt()).isEqualTo(doc.length());

    String decisions = out.get("decisions").toString();
    assertThat(decisions).contains("\"level\":\"exact\",\"action\":\"drop\",\"from\":\"d\",\"into\":\"a\"");
    assertThat(decisions).contains("\"level\":\"near\",\"action\":\"merge\",\"from\":\"b\",\"into\":\"a\"");
    assertThat(decisions).contains("\"level\":\"overlap\",\"action\":\"stitch\",\"from\":\"w2\",\"into\":\"w1\"");
    assertThat(decisions).contains("\"action\":\"keep\",\"from\":\"c\"").contains("guard:negation");
  }

  @Test
  void aBadLineIsNamedAndTheOthersAreStillDeduplicated() throws Exception {
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"text\": \"one\"}\n{\"id\": \"b\", \"text\": \"one\", \"start\": 0, \"end\": 9}\n"
        + "not json\n{\"id\": \"a\", \"text\": \"dup id\"}\n{\"id\": \"c\", \"text\": \"ONE\"}\n");
    CliRunner r = CliRunner.run("dedup", "--input", in.toString(), "--embedder", "none");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("line 2").contains("end - start of b is 9").contains("line 3").contains("line 4")
        .contains("appears twice");
    assertThat(r.json().get("passages").get(0).get("sources").toString()).isEqualTo("[\"a\",\"c\"]");

    CliRunner unknown = CliRunner.run("dedup", "--input", in.toString(), "--levels", "exact,fuzzy");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("fuzzy");
  }

  @Test
  void batchModeGivesOneResultPerLine() throws Exception {
    String batch = "{\"id\": \"r1\", \"passages\": [{\"id\": \"x\", \"text\": \"Same words here.\"}, {\"id\": \"y\", \"text\": \"same words here\"}]}\n"
        + "{\"id\": \"r2\", \"passages\": \"oops\"}\n";
    CliRunner r = CliRunner.runWithStdin(batch, "dedup", "--batch", "-", "--embedder", "none");
    assertThat(r.code()).isEqualTo(1);
    String[] lines = r.out().strip().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0]).contains("\"id\":\"r1\"").contains("\"sources\":[\"x\",\"y\"]");
    assertThat(lines[1]).contains("\"line\":2").contains("passages");
  }

  @Test
  void packStitchesOverlappingChunksAndMergesNearCopiesFromARealIndex() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("c"));
    StringBuilder longDoc = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      longDoc.append("Section ").append(i).append(" of the harbour report describes tides, cranes and ferry timetables. ");
    }
    Files.writeString(corpus.resolve("harbour.txt"), longDoc.toString());
    Files.writeString(corpus.resolve("library.txt"), BASE);
    // Read after library.txt (path order), so ingestion marks it near-duplicate-of library.txt.
    Files.writeString(corpus.resolve("library_copy.txt"), "Press release. " + BASE);
    String index = dir.resolve("idx").toString();
    CliRunner in = CliRunner.run("ingest", "--index", index, "--format", "json", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();

    // Whole passages (--no-compress), so the merged copy's extra sentence shows as dedup left it;
    // compression would drop it as unrelated to the query.
    CliRunner pack = CliRunner.run("pack", "--index", index, "--format", "json", "--budget", "6000", "--no-compress",
        "-q", "harbour report tides cranes ferry timetables; library reading rooms weekends");
    assertThat(pack.code()).as(pack.err()).isZero();
    JsonNode p = pack.json();
    String trace = p.get("trace").toString();
    assertThat(trace).contains("\"action\":\"stitch\"").contains("\"action\":\"merge\"");
    JsonNode library = null;
    for (JsonNode s : p.get("sources")) if (s.get("text").asText().startsWith("The city library")) library = s;
    assertThat(library).isNotNull();
    assertThat(library.get("text").asText()).isEqualTo(BASE + " … Press release.");
    assertThat(library.get("spans").size()).isEqualTo(2);
    // the harbour report's chunks, overlapping by 15 %, come back as fewer sources covering more text
    long harbourSources = 0;
    for (JsonNode s : p.get("sources")) if (s.get("text").asText().contains("harbour")) harbourSources++;
    int harbourChunks = 0;
    for (JsonNode s : p.get("sources")) if (s.get("text").asText().contains("harbour")) harbourChunks += s.get("spans").size();
    assertThat(harbourChunks).isGreaterThan((int) harbourSources);
    assertThat(p.get("budget").get("used").asInt()).isLessThanOrEqualTo(6000);

    CliRunner off = CliRunner.run("pack", "--index", index, "--format", "json", "--budget", "6000", "--no-dedup",
        "--no-compress", "-q", "harbour report tides cranes ferry timetables; library reading rooms weekends");
    assertThat(off.json().get("sources").size()).isGreaterThan(p.get("sources").size());
  }
}
