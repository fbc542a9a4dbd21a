package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ctxpack verify}, end to end: sources files, packages written by {@code pack}, JSON claims, batches. */
class VerifyEndToEndTest {
  @TempDir Path dir;

  private static final String RHINE = "The Rhine rises in the Swiss Alps. It flows through six countries before "
      + "reaching the North Sea. The river is about 1,230 km long.";
  private static final String CERRADO = "O Cerrado cobre cerca de 22% do território brasileiro. A vegetação sofre "
      + "com queimadas na estação seca, entre maio e setembro.";

  /** An index (no embedder) of files given as name, text, name, text ... under the test's folder. */
  private String ingested(String... namesAndTexts) throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    for (int i = 0; i < namesAndTexts.length; i += 2) Files.writeString(corpus.resolve(namesAndTexts[i]), namesAndTexts[i + 1]);
    String index = dir.resolve("idx").toString();
    CliRunner r = CliRunner.run("ingest", "--index", index, "--no-embed", corpus.toString());
    assertThat(r.code()).as(r.err()).isZero();
    return index;
  }

  private Path sources() throws Exception {
    Path s = dir.resolve("sources.jsonl");
    Files.writeString(s, Json.line(Json.object().put("id", "S1").put("text", RHINE)) + "\n"
        + Json.line(Json.object().put("id", "S2").put("text", CERRADO)) + "\n");
    return s;
  }

  @Test
  void eachClaimGetsAVerdictEvidenceAtItsOffsetsAndFeedback() throws Exception {
    Path answer = dir.resolve("answer.txt");
    Files.writeString(answer, "The Rhine is about 1,230 km long [S1]. It flows through seven countries [S1]. "
        + "It rises in the Alps [S4].\n");
    CliRunner r = CliRunner.run("verify", "--sources", sources().toString(), "--answer", answer.toString(),
        "--format", "json", "--embedder", "none");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode out = r.json();
    JsonNode claims = out.get("claims");
    assertThat(claims).hasSize(3);
    assertThat(claims.get(0).get("verdict").asText()).isEqualTo("supported");
    JsonNode ev = claims.get(0).get("evidence");
    assertThat(ev.get("source").asText()).isEqualTo("S1");
    assertThat(RHINE.substring(ev.get("start").asInt(), ev.get("end").asInt())).isEqualTo(ev.get("text").asText())
        .contains("1,230 km");
    assertThat(claims.get(1).get("verdict").asText()).isEqualTo("contradicted");
    assertThat(claims.get(2).get("verdict").asText()).isEqualTo("unsupported");
    assertThat(out.get("invalidCitations").toString()).isEqualTo("[\"S4\"]");
    assertThat(out.get("citationPrecision").asDouble()).isCloseTo(1.0 / 3, org.assertj.core.data.Offset.offset(0.01));
    assertThat(out.get("passed").asBoolean()).isFalse();
    assertThat(out.get("feedback").asText()).contains("Claim 2 contradicts [S1]").contains("Claim 3 cites [S4]");
    assertThat(out.get("abstentionCorrect").isNull()).isTrue();

    CliRunner text = CliRunner.run("verify", "--sources", sources().toString(), "--answer", answer.toString(),
        "--embedder", "none");
    assertThat(text.out()).contains("Claim 1 SUPPORTED [S1]").contains("Invalid citations: S4").contains("Feedback:");
  }

  @Test
  void jsonClaimsFromStdinAndAbstentionJudgedWithTheQuery() throws Exception {
    String claims = "{\"answer\": \"...\", \"claims\": [{\"text\": \"As queimadas ocorrem na estação seca, entre maio e setembro\","
        + " \"citations\": [\"S2\"]}]}";
    CliRunner r = CliRunner.runWithStdin(claims, "verify", "--sources", sources().toString(), "--answer", "-",
        "--format", "json", "--embedder", "none");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("claims").get(0).get("verdict").asText()).isEqualTo("supported");
    assertThat(r.json().get("passed").asBoolean()).isTrue();

    Path abstain = dir.resolve("abstain.txt");
    Files.writeString(abstain, "As fontes não contêm a resposta.");
    JsonNode wrong = CliRunner.run("verify", "--sources", sources().toString(), "--answer", abstain.toString(),
        "--query", "Quando ocorrem as queimadas no Cerrado?", "--format", "json", "--embedder", "none").json();
    assertThat(wrong.get("abstained").asBoolean()).isTrue();
    assertThat(wrong.get("abstentionCorrect").asBoolean()).isFalse();
    assertThat(wrong.get("feedback").asText()).startsWith("A resposta se abstém");
  }

  @Test
  void verifiesAnAnswerAgainstAPackageWrittenByPack() throws Exception {
    String index = ingested("rhine.txt", RHINE);
    CliRunner pack = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "How long is the Rhine?",
        "--budget", "500", "--embedder", "none");
    assertThat(pack.code()).as(pack.err()).isZero();
    Path pkg = dir.resolve("package.json");
    Files.writeString(pkg, pack.out());
    Path answer = dir.resolve("a.txt");
    Files.writeString(answer, "The Rhine is about 1,230 km long [S1]. It ends in the Black Sea [S2].");
    JsonNode out = CliRunner.run("verify", "--package", pkg.toString(), "--answer", answer.toString(),
        "--format", "json", "--embedder", "none").json();
    assertThat(out.get("claims").get(0).get("verdict").asText()).isEqualTo("supported");
    assertThat(out.get("invalidCitations").toString()).isEqualTo("[\"S2\"]");
    // the package's query is used: this answer does answer it
    assertThat(out.get("abstentionCorrect").asBoolean()).isTrue();
  }

  @Test
  void eachQuotingTemplateIsPackedAndItsAnswersQuotesAreCheckedVerbatim() throws Exception {
    String index = ingested("rhine.txt", RHINE);
    java.util.Map<String, String[]> answers = java.util.Map.of(
        "quotes", new String[] {"The Rhine is about 1,230 km long [S1] \"The river is about 1,230 km long\".",
            "The Rhine is about 1,230 km long [S1] \"The river is about 1,320 km long\"."},
        "quote-first", new String[] {"[S1] \"It flows through six countries before reaching the North Sea\" \u2014 it"
            + " flows through six countries [S1].", "[S1] \"It flows through six nations before reaching the North Sea\""
            + " \u2014 it flows through six countries [S1]."},
        "digest", new String[] {"Key extracts:\n- [S1] \"the river is about 1,230 km long\"\n\nAnswer: the Rhine is"
            + " about 1,230 km long [S1].", "Key extracts:\n- [S1] \"the river is about 1,230 km long and very deep\""
            + "\n\nAnswer: the Rhine is about 1,230 km long [S1]."});
    for (var e : answers.entrySet()) {
      CliRunner pack = CliRunner.run("pack", "--index", index, "--format", "json", "-q", "How long is the Rhine?",
          "--budget", "500", "--embedder", "none", "--template", e.getKey());
      assertThat(pack.code()).as(pack.err()).isZero();
      assertThat(pack.json().get("prompt").asText()).as(e.getKey()).contains("verbatim in double quotes")
          .contains("Missing: ");
      Path pkg = dir.resolve(e.getKey() + ".json");
      Files.writeString(pkg, pack.out());
      for (int i = 0; i < 2; i++) {
        Path answer = dir.resolve(e.getKey() + i + ".txt");
        Files.writeString(answer, e.getValue()[i]);
        JsonNode out = CliRunner.run("verify", "--package", pkg.toString(), "--answer", answer.toString(),
            "--format", "json", "--embedder", "none").json();
        JsonNode q = out.get("quotes").get(0);
        assertThat(q.get("citations").toString()).isEqualTo("[\"S1\"]");
        if (i == 0) {
          assertThat(q.get("status").asText()).as(e.getKey()).isEqualTo("verbatim");
          assertThat(out.get("passed").asBoolean()).as(out.toString()).isTrue();
        } else {
          assertThat(q.get("status").asText()).as(e.getKey()).isEqualTo("altered");
          JsonNode closest = q.get("closest");
          assertThat(RHINE.substring(closest.get("start").asInt(), closest.get("end").asInt()))
              .isEqualTo(closest.get("text").asText());
          assertThat(out.get("passed").asBoolean()).isFalse();
          assertThat(out.get("feedback").asText()).contains("Quote 1").contains("not verbatim");
        }
      }
    }
    Path abstain = dir.resolve("abstain.txt");
    Files.writeString(abstain, "The sources do not contain the answer.\nMissing: the Rhine's depth.\n"
        + "Next: retrieve a hydrology survey of the Rhine.");
    CliRunner gap = CliRunner.run("verify", "--sources", sources().toString(), "--answer", abstain.toString(),
        "--embedder", "none", "--format", "json");
    assertThat(gap.json().get("gap").get("missing").asText()).isEqualTo("the Rhine's depth.");
    assertThat(gap.json().get("claims")).isEmpty();
    CliRunner text = CliRunner.run("verify", "--sources", sources().toString(), "--answer",
        dir.resolve("quotes1.txt").toString(), "--embedder", "none");
    assertThat(text.out()).contains("Quote 1 ALTERED [S1]").contains("closest [S1]");
  }

  /** The sources {@code pack} would judge (every stage, no compression, so nothing is cut before verify reads them). */
  private Path packedSources(String index, String query) throws Exception {
    CliRunner all = CliRunner.run("pack", "--index", index, "--format", "json", "-q", query, "--no-compress",
        "--budget", "2000", "--embedder", "none");
    assertThat(all.code()).as(all.err()).isZero();
    StringBuilder lines = new StringBuilder();
    for (JsonNode s : all.json().get("sources")) {
      lines.append(Json.line(Json.object().put("id", s.get("id").asText()).put("text", s.get("text").asText()))).append('\n');
    }
    Path f = Files.createTempFile(dir, "sources", ".jsonl");
    Files.writeString(f, lines.toString());
    return f;
  }

  @Test
  void anAbstentionIsJudgedWithPacksRelevanceLine() throws Exception {
    String index = ingested("rhine.txt", RHINE, "cerrado.txt", CERRADO);
    Path abstain = dir.resolve("abstain.txt");
    Files.writeString(abstain, "The sources do not contain the answer.");
    String[][] cases = {
        {"How long is the Rhine?", "sufficient"},
        {"How many bridges cross the Rhine in Basel?", "insufficient"},
        {"Which fish species live in the Rhine delta?", "insufficient"},
        {"Quando ocorrem as queimadas no Cerrado?", "sufficient"}};
    for (String[] c : cases) {
      // pack's own verdict on its evidence, at its default line ...
      CliRunner pack = CliRunner.run("pack", "--index", index, "--format", "json", "-q", c[0], "--budget", "2000",
          "--embedder", "none");
      assertThat(pack.code()).as(pack.err()).isZero();
      assertThat(pack.json().get("evidence").get("status").asText()).as(c[0]).isEqualTo(c[1]);
      // ... is verify's on the same sources: abstaining is right exactly where pack found them insufficient.
      Path found = packedSources(index, c[0]);
      assertThat(Files.readString(found)).as(c[0] + ": candidates were found").isNotBlank();
      JsonNode v = CliRunner.run("verify", "--sources", found.toString(), "--answer",
          abstain.toString(), "-q", c[0], "--format", "json", "--embedder", "none").json();
      assertThat(v.get("abstentionCorrect").asBoolean()).as(c[0]).isEqualTo(c[1].equals("insufficient"));
    }
    // A line set by hand moves both alike.
    String q = cases[0][0];
    CliRunner high = CliRunner.run("pack", "--index", index, "--format", "json", "-q", q, "--budget", "2000",
        "--embedder", "none", "--min-relevance", "0.99");
    assertThat(high.json().get("evidence").get("status").asText()).isEqualTo("insufficient");
    Path sources = packedSources(index, q);
    JsonNode v = CliRunner.run("verify", "--sources", sources.toString(), "--answer", abstain.toString(), "-q", q,
        "--format", "json", "--embedder", "none", "--min-relevance", "0.99", "--min-coverage", "off").json();
    assertThat(v.get("abstentionCorrect").asBoolean()).isTrue();
    // The same through a batch line's fields; a bad value is that line's error, naming the field.
    String text = Files.readString(sources).lines().map(l -> l).reduce((a, b) -> a + "," + b).orElseThrow();
    String line = "{\"id\": \"%s\", \"query\": \"" + q + "\", \"sources\": [" + text + "],"
        + " \"answer\": \"The sources do not contain the answer.\"%s}";
    CliRunner batch = CliRunner.runWithStdin(String.format(line, "default", "") + "\n"
        + String.format(line, "high", ", \"minRelevance\": 0.99, \"minCoverage\": \"off\"") + "\n"
        + String.format(line, "bad", ", \"minCoverage\": \"most\"") + "\n", "verify", "--batch", "-", "--embedder", "none");
    var out = batch.jsonLines();
    assertThat(out.get(0).get("abstentionCorrect").asBoolean()).isFalse();
    assertThat(out.get(1).get("abstentionCorrect").asBoolean()).isTrue();
    assertThat(out.get(2).get("error").asText()).contains("minCoverage");
    // Bad flags are usage errors naming the flag.
    for (String[] bad : new String[][] {{"--min-relevance", "2"}, {"--min-relevance", "high"}, {"--min-coverage", "most"}}) {
      CliRunner r = CliRunner.run("verify", "--sources", sources.toString(), "--answer", abstain.toString(), "-q", q,
          "--embedder", "none", bad[0], bad[1]);
      assertThat(r.code()).as(String.join(" ", bad)).isEqualTo(2);
      assertThat(r.err()).contains(bad[0]);
    }
  }

  @Test
  void batchGivesOneLinePerRequestAndABadLineDoesNotStopTheOthers() throws Exception {
    String ok = "{\"id\": \"a\", \"sources\": [{\"id\": \"S1\", \"text\": \"" + RHINE + "\"}],"
        + " \"answer\": \"The Rhine rises in the Swiss Alps [S1].\"}";
    String bad = "{\"id\": \"b\", \"sources\": \"nope\", \"answer\": \"x\"}";
    String dup = "{\"id\": \"c\", \"sources\": [{\"id\": \"S1\", \"text\": \"a\"}, {\"id\": \"S1\", \"text\": \"b\"}],"
        + " \"answer\": \"x\"}";
    CliRunner r = CliRunner.runWithStdin(ok + "\n" + bad + "\n" + dup + "\n", "verify", "--batch", "-", "--embedder", "none");
    assertThat(r.code()).isEqualTo(1);
    var lines = r.jsonLines();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0).get("id").asText()).isEqualTo("a");
    assertThat(lines.get(0).get("claims").get(0).get("verdict").asText()).isEqualTo("supported");
    assertThat(lines.get(1).get("line").asInt()).isEqualTo(2);
    assertThat(lines.get(1).get("error").asText()).contains("sources");
    assertThat(lines.get(2).get("error").asText()).contains("'S1' appears twice");
  }

  @Test
  void badInvocationsAreUsageErrorsNamingTheProblem() throws Exception {
    CliRunner none = CliRunner.run("verify", "--answer", "x.txt");
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err()).contains("--package FILE or --sources FILE");
    CliRunner noAnswer = CliRunner.run("verify", "--sources", sources().toString());
    assertThat(noAnswer.code()).isEqualTo(2);
    assertThat(noAnswer.err()).contains("--answer");
    Path dup = dir.resolve("dup.jsonl");
    Files.writeString(dup, "{\"id\": \"S1\", \"text\": \"a\"}\n{\"id\": \"S1\", \"text\": \"b\"}\n");
    Path answer = dir.resolve("a.txt");
    Files.writeString(answer, "x [S1].");
    CliRunner d = CliRunner.run("verify", "--sources", dup.toString(), "--answer", answer.toString());
    assertThat(d.code()).isEqualTo(2);
    assertThat(d.err()).contains("dup.jsonl: line 2").contains("'S1' appears twice");
  }
}
