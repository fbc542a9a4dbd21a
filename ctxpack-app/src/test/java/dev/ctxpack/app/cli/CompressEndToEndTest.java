package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ctxpack compress}, end to end with the real tokenizer, scorer and MiniLM. */
class CompressEndToEndTest {
  @TempDir Path dir;

  private static final String CURIE = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891 to study "
      + "physics. She won the Nobel Prize in Chemistry in 1911. We use cookies to improve your experience.";
  private static final String RHINE = "The Rhine rises in the Swiss Alps. It flows through six countries before "
      + "reaching the North Sea. The river is about 1,230 km long.";
  private static final String CERRADO = "O Cerrado cobre cerca de 22% do território brasileiro. A vegetação sofre "
      + "com queimadas na estação seca, entre maio e setembro. Muitos rios nascem no Cerrado.";

  @Test
  void keepsTheAnsweringSentencesVerbatimWithinTheBudgetAndSaysWhyTheRestWentMissing() throws Exception {
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, line("curie", CURIE) + "\n" + line("rhine", RHINE) + "\n");
    CliRunner r = CliRunner.run("compress", "--query", "How long is the Rhine?", "--budget", "20", "--input", in.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode out = r.json();

    assertThat(out.get("tokensOut").asInt()).isLessThanOrEqualTo(20).isPositive();
    assertThat(out.get("tokensIn").asInt()).isGreaterThan(40);
    assertThat(out.get("scorer").asText()).contains("minilm");
    JsonNode rhine = out.get("passages").get(0);
    assertThat(rhine.get("id").asText()).isEqualTo("rhine");
    assertThat(rhine.get("text").asText()).contains("The river is about 1,230 km long.");
    for (JsonNode span : rhine.get("spans")) {
      assertThat(rhine.get("text").asText()).contains(RHINE.substring(span.get(0).asInt(), span.get(1).asInt()));
    }
    String dropped = out.get("dropped").toString();
    assertThat(dropped).contains("\"reason\":\"boilerplate\"").contains("\"reason\":\"off-topic\"");
  }

  @Test
  void presetsThresholdAndLexicalOnlyWorkAndPortugueseIsServed() throws Exception {
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, line("curie", CURIE) + "\n" + line("cerrado", CERRADO) + "\n");
    CliRunner low = CliRunner.run("compress", "-q", "Quando ocorrem as queimadas no Cerrado?", "--preset", "low",
        "--input", in.toString(), "--embedder", "none");
    assertThat(low.code()).as(low.err()).isZero();
    // Everything but the cookie notice fits a 1,000-token budget.
    assertThat(low.json().get("passages").toString()).contains("entre maio e setembro").contains("Nobel");
    assertThat(low.json().get("scorer").asText()).isEqualTo("features:none");

    CliRunner strict = CliRunner.run("compress", "-q", "Quando ocorrem as queimadas no Cerrado?", "--threshold", "0.3",
        "--input", in.toString(), "--embedder", "none");
    assertThat(strict.code()).as(strict.err()).isZero();
    assertThat(strict.json().get("passages").toString()).contains("entre maio e setembro").doesNotContain("Nobel");
  }

  @Test
  void batchModeGivesOneResultPerLineAndABadLineDoesNotStopTheOthers() throws Exception {
    ObjectMapper m = new ObjectMapper();
    String ok = m.writeValueAsString(m.createObjectNode().put("id", "r1").put("query", "How long is the Rhine?").put("budget", 25)
        .set("passages", m.createArrayNode().add(m.createObjectNode().put("id", "a").put("text", RHINE))));
    String preset = m.writeValueAsString(m.createObjectNode().put("id", "r3").put("query", "Where was Curie born?").put("preset", "low")
        .set("passages", m.createArrayNode().add(m.createObjectNode().put("id", "a").put("text", CURIE))));
    String batch = ok + "\n{\"id\": \"r2\", \"query\": \"q\", \"budget\": -5, \"passages\": []}\n" + preset + "\n";
    CliRunner r = CliRunner.runWithStdin(batch, "compress", "--batch", "-", "--embedder", "none");
    assertThat(r.code()).isEqualTo(1);
    String[] lines = r.out().strip().split("\n");
    assertThat(lines).hasSize(3);
    assertThat(m.readTree(lines[0]).get("id").asText()).isEqualTo("r1");
    assertThat(m.readTree(lines[0]).get("tokensOut").asInt()).isLessThanOrEqualTo(25);
    assertThat(m.readTree(lines[1]).get("line").asInt()).isEqualTo(2);
    assertThat(m.readTree(lines[1]).get("error").asText()).contains("budget").contains("-5");
    assertThat(m.readTree(lines[2]).get("passages").toString()).contains("Warsaw");
  }

  @Test
  void badInvocationsAndBadLinesAreNamed() throws Exception {
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, line("a", RHINE) + "\nnot json\n{\"id\": \"b\", \"text\": \"\"}\n" + line("a", CURIE) + "\n");
    CliRunner r = CliRunner.run("compress", "-q", "How long is the Rhine?", "--budget", "100", "--input", in.toString(),
        "--embedder", "none");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("line 2").contains("line 3").contains("text' of b").contains("line 4").contains("appears twice");
    assertThat(r.json().get("passages").get(0).get("text").asText()).contains("1,230 km");

    assertThat(CliRunner.run("compress", "-q", "x", "--input", in.toString()).err()).contains("--budget N, --preset P or --threshold P");
    assertThat(CliRunner.run("compress", "-q", "x", "--preset", "huge", "--input", in.toString()).err()).contains("huge");
    assertThat(CliRunner.run("compress", "-q", "x", "--budget", "0", "--input", in.toString()).code()).isEqualTo(2);
    assertThat(CliRunner.run("compress", "-q", "x", "--threshold", "1.5", "--input", in.toString()).err()).contains("[0, 1]");
  }

  @Test
  void packCompressesWithTheSentenceVectorsStoredAtIngest() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    String page = "Home | News | Contact\n\n" + RHINE + " Barges carry coal and grain along its lower course. "
        + "The Rhine is an important shipping route in Europe.\n\nWe use cookies to improve your experience.";
    Files.writeString(corpus.resolve("rhine.txt"), page);
    Files.writeString(corpus.resolve("curie.txt"), CURIE);
    String index = dir.resolve("idx").toString();
    CliRunner in = CliRunner.run("ingest", "--index", index, "--format", "json", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();

    CliRunner pack = CliRunner.run("pack", "--index", index, "--format", "json", "--budget", "400", "-q", "How long is the Rhine?");
    assertThat(pack.code()).as(pack.err()).isZero();
    JsonNode p = pack.json();
    assertThat(p.get("trace").get(0).get("reason").asText()).contains("compress=features:index+all-minilm-l6-v2-q");
    String trace = p.get("trace").toString();
    assertThat(trace).contains("\"rule\":\"compress:navigation\"").contains("\"rule\":\"compress:boilerplate\"");
    JsonNode rhine = null;
    for (JsonNode s : p.get("sources")) if (s.get("docId").asText().length() > 0 && s.get("text").asText().contains("Rhine")) rhine = s;
    assertThat(rhine).isNotNull();
    assertThat(rhine.get("text").asText()).contains("The river is about 1,230 km long.").doesNotContain("cookies");
    for (String piece : rhine.get("text").asText().split(" … ")) assertThat(page).contains(piece);

    CliRunner whole = CliRunner.run("pack", "--index", index, "--format", "json", "--budget", "400", "--no-compress",
        "-q", "How long is the Rhine?");
    assertThat(whole.json().get("prompt").asText()).contains("cookies");
  }

  private static String line(String id, String text) throws Exception {
    ObjectMapper m = new ObjectMapper();
    return m.writeValueAsString(m.createObjectNode().put("id", id).put("text", text));
  }
}
