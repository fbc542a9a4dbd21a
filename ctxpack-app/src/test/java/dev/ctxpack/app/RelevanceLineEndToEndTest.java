package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.index.IndexSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relevance line end to end: {@code pack --min-relevance} and {@code --on-insufficient} over a
 * real index (text, JSON, batch, exit codes), {@code POST /v1/pack} and {@code POST /v1/assemble} on
 * a real service on loopback.
 */
class RelevanceLineEndToEndTest {
  @TempDir static Path dir;
  static String index;
  static Service server;
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final ObjectMapper JSON = new ObjectMapper();
  static final String OFF = "What is the boiling point of river water in the old town?";
  static final String ON = "How long is the Rhine river?";

  @BeforeAll
  static void ingest() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    index = dir.resolve("idx").toString();
    Files.writeString(corpus.resolve("rhine.txt"), "The Rhine is 1,230 km long. It rises in the Swiss Alps and flows"
        + " into the North Sea near Rotterdam. Barges carry coal and grain along the Rhine between Basel and Rotterdam.");
    Files.writeString(corpus.resolve("danube.txt"), "The Danube flows into the Black Sea. It passes through ten"
        + " countries, more than any other river in the world. Vienna and Budapest stand on its banks.");
    Files.writeString(corpus.resolve("bakery.txt"), "Bakeries in the old town open at six. Their bread is baked in wood"
        + " ovens and sold until noon. Many visitors come for the pastries on Sunday mornings.");
    Files.writeString(corpus.resolve("matricula.txt"), "A renovação de matrícula ocorre semestralmente, no período"
        + " previsto no calendário acadêmico. O aluno que não renovar perde o vínculo com o curso.");
    CliRunner r = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", corpus.toString());
    assertThat(r.code()).as(r.err()).isZero();
    server = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).build(),
        ServiceLog.text(new PrintWriter(new StringWriter(), true)));
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) server.close();
  }

  private static CliRunner pack(String query, String... extra) {
    List<String> args = new ArrayList<>(List.of("pack", "--index", index, "-q", query, "--mode", "bm25"));
    args.addAll(List.of(extra));
    return CliRunner.run(args.toArray(String[]::new));
  }

  /** {@code pack ON FLAGS} exits 2 with {@code message} on stderr. */
  private static void assertUsageError(String message, String... flags) {
    CliRunner r = pack(ON, flags);
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains(message);
  }

  private static String texts(JsonNode p) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode s : p.get("sources")) sb.append(s.get("text").asText()).append('\n');
    return sb.toString();
  }

  @Test
  void anAnswerableQuestionGetsOnlyTheEvidenceAboveTheLine() {
    CliRunner lined = pack(ON, "--format", "json");
    assertThat(lined.code()).as(lined.err()).isZero();
    JsonNode p = lined.json();
    assertThat(p.get("evidence").get("status").asText()).isEqualTo("sufficient");
    assertThat(p.get("evidence").get("line").asDouble()).isEqualTo(0.14);
    assertThat(texts(p)).contains("1,230 km").doesNotContain("Bakeries").doesNotContain("renovação");
    assertThat(p.get("trace").toString()).contains("compress:below-relevance");

    JsonNode filled = pack(ON, "--format", "json", "--min-relevance", "0").json();
    assertThat(filled.get("evidence").get("status").asText()).isEqualTo("unchecked");
    assertThat(filled.get("budget").get("byComponent").get("sources").asInt())
        .isGreaterThan(p.get("budget").get("byComponent").get("sources").asInt());
  }

  @Test
  void anOffCorpusQuestionAbstainsWithWhatCameClosest() {
    CliRunner r = pack(OFF, "--format", "json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode p = r.json();
    JsonNode e = p.get("evidence");
    assertThat(e.get("status").asText()).isEqualTo("insufficient");
    assertThat(e.get("action").asText()).isEqualTo("abstain");
    assertThat(p.get("sources").size()).isZero();
    assertThat(p.get("budget").get("byComponent").get("sources").asInt()).isZero();
    assertThat(p.get("prompt").asText()).contains("No source found for this question is relevant enough to send")
        .contains("The sources do not contain the answer.").contains(OFF);
    assertThat(e.get("closest").size()).isBetween(1, 3);
    JsonNode c = e.get("closest").get(0);
    assertThat(c.get("score").asDouble()).isLessThan(0.14);
    assertThat(c.get("docId").asText()).isNotEmpty();
    assertThat(c.get("end").asInt()).isGreaterThan(c.get("start").asInt());

    CliRunner text = pack(OFF);
    assertThat(text.code()).isZero();
    assertThat(text.out()).contains("No source found for this question");
    assertThat(text.err()).contains("evidence: insufficient (nothing clears the relevance line 0.14; abstain)")
        .contains("  closest ");
  }

  @Test
  void failExitsThreeAndBestEffortSendsTheBestAnyway() {
    CliRunner fail = pack(OFF, "--on-insufficient", "fail", "--format", "json");
    assertThat(fail.code()).isEqualTo(ExitCodes.INSUFFICIENT).isEqualTo(3);
    assertThat(fail.out()).isEmpty();
    assertThat(fail.err()).startsWith("error: insufficient evidence: no sentence clears the relevance line 0.14; closest: ");

    JsonNode best = pack(OFF, "--on-insufficient", "best-effort", "--format", "json").json();
    assertThat(best.get("evidence").get("status").asText()).isEqualTo("insufficient");
    assertThat(best.get("evidence").get("action").asText()).isEqualTo("best-effort");
    assertThat(best.get("sources").size()).isPositive();

    JsonNode high = pack(ON, "--min-relevance", "0.999", "--format", "json").json();
    assertThat(high.get("evidence").get("status").asText()).as("a line nothing can clear").isEqualTo("insufficient");
  }

  @Test
  void portugueseAbstainsInPortuguese() {
    JsonNode no = pack("Qual é a temperatura de fusão do tungstênio?", "--format", "json").json();
    assertThat(no.get("evidence").get("status").asText()).isEqualTo("insufficient");
    assertThat(no.get("prompt").asText()).contains("Nenhuma fonte encontrada").contains("As fontes não contêm a resposta.");
    JsonNode yes = pack("Quando ocorre a renovação de matrícula?", "--format", "json").json();
    assertThat(yes.get("evidence").get("status").asText()).isEqualTo("sufficient");
    assertThat(texts(yes)).contains("semestralmente").doesNotContain("Rhine");
  }

  @Test
  void badValuesAreUsageErrorsNamingTheFlag() {
    assertUsageError("--min-relevance must be in [0, 1], was 1.5", "--min-relevance", "1.5");
    assertUsageError("--min-relevance must be a number in [0, 1] or auto, was 'half'", "--min-relevance", "half");
    assertUsageError("--on-insufficient: unknown on-insufficient 'retry': use abstain, best-effort or fail", "--on-insufficient", "retry");
    assertThat(pack(ON, "--min-relevance", "auto", "--format", "json").json().get("evidence").get("line").asDouble())
        .isEqualTo(0.14);
  }

  @Test
  void batchLinesCarryTheirOwnLineAndAction() {
    String lines = "{\"id\": \"a\", \"query\": \"" + OFF + "\"}\n"
        + "{\"id\": \"b\", \"query\": \"" + OFF + "\", \"onInsufficient\": \"fail\"}\n"
        + "{\"id\": \"c\", \"query\": \"" + ON + "\", \"minRelevance\": 0}\n"
        + "{\"id\": \"d\", \"query\": \"" + ON + "\", \"minRelevance\": 7}\n";
    CliRunner r = CliRunner.runWithStdin(lines, "pack", "--index", index, "--mode", "bm25", "--batch", "-");
    assertThat(r.code()).as("failed lines make exit code 1").isEqualTo(1);
    List<JsonNode> out = r.jsonLines();
    assertThat(out).hasSize(4);
    assertThat(out.get(0).get("evidence").get("status").asText()).isEqualTo("insufficient");
    assertThat(out.get(1).get("error").asText()).startsWith("insufficient evidence: no sentence clears the relevance line");
    assertThat(out.get(2).get("evidence").get("status").asText()).isEqualTo("unchecked");
    assertThat(out.get(3).get("error").asText()).contains("field 'minRelevance' must be a number in [0, 1]");
  }

  @Test
  void minCoverageOpensTheGateForACoveredQuestionAndIsOffWithAHandSetLine() {
    JsonNode probe = pack(ON, "--min-relevance", "1", "--format", "json").json();
    assertThat(probe.get("evidence").get("status").asText()).isEqualTo("insufficient");
    double best = probe.get("evidence").get("closest").get(0).get("score").asDouble();
    String line = String.valueOf(Math.min(1, best + 0.01));

    JsonNode covered = pack(ON, "--min-relevance", line, "--min-coverage", "0.5", "--format", "json").json();
    assertThat(covered.get("evidence").get("status").asText()).isEqualTo("sufficient");
    assertThat(texts(covered)).contains("1,230 km");
    assertThat(covered.get("trace").toString()).contains("relevance:covered");

    JsonNode handSet = pack(ON, "--min-relevance", line, "--format", "json").json();
    assertThat(handSet.get("evidence").get("status").asText()).as("auto coverage is off with a hand-set line")
        .isEqualTo("insufficient");
    JsonNode off = pack(ON, "--min-relevance", line, "--min-coverage", "off", "--format", "json").json();
    assertThat(off.get("evidence").get("status").asText()).isEqualTo("insufficient");
    assertThat(off.get("trace").toString()).doesNotContain("relevance:covered").doesNotContain("relevance:uncovered");

    assertUsageError("--min-coverage must be in [0, 1], was 1.5", "--min-coverage", "1.5");
    assertUsageError("--min-coverage must be a number in [0, 1], auto or off, was 'most'", "--min-coverage", "most");

    String lines = "{\"id\": \"a\", \"query\": \"" + ON + "\", \"minRelevance\": " + line + ", \"minCoverage\": 0.5}\n"
        + "{\"id\": \"b\", \"query\": \"" + ON + "\", \"minRelevance\": " + line + ", \"minCoverage\": \"off\"}\n"
        + "{\"id\": \"c\", \"query\": \"" + ON + "\", \"minCoverage\": true}\n";
    CliRunner r = CliRunner.runWithStdin(lines, "pack", "--index", index, "--mode", "bm25", "--batch", "-");
    assertThat(r.code()).isEqualTo(1);
    List<JsonNode> out = r.jsonLines();
    assertThat(out.get(0).get("evidence").get("status").asText()).isEqualTo("sufficient");
    assertThat(out.get(1).get("evidence").get("status").asText()).isEqualTo("insufficient");
    assertThat(out.get(2).get("error").asText()).contains("field 'minCoverage' must be a number in [0, 1], \"auto\" or \"off\"");
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theServiceAnswers422WithTheClosestWhenAskedToFail() throws Exception {
    HttpResponse<String> ok = post("/v1/pack", "{\"query\": \"" + OFF + "\", \"mode\": \"bm25\"}");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(ok.body()).get("evidence").get("status").asText()).isEqualTo("insufficient");

    HttpResponse<String> fail = post("/v1/pack", "{\"query\": \"" + OFF + "\", \"mode\": \"bm25\", \"onInsufficient\": \"fail\"}");
    assertThat(fail.statusCode()).isEqualTo(422);
    JsonNode body = JSON.readTree(fail.body());
    assertThat(body.get("error").get("code").asText()).isEqualTo("insufficient_evidence");
    assertThat(body.get("evidence").get("closest").size()).isPositive();

    HttpResponse<String> bad = post("/v1/pack", "{\"query\": \"" + ON + "\", \"minRelevance\": \"most\"}");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("field 'minRelevance' must be a number in [0, 1] or \\\"auto\\\"");
    HttpResponse<String> badCover = post("/v1/pack", "{\"query\": \"" + ON + "\", \"minCoverage\": 2}");
    assertThat(badCover.statusCode()).isEqualTo(400);
    assertThat(badCover.body()).contains("field 'minCoverage' must be a number in [0, 1]");
    HttpResponse<String> badAssemble = post("/v1/assemble", "{\"model\": \"gpt-4o\", \"window\": 1800, \"query\": \"" + ON
        + "\", \"retrieval\": {\"budget\": 800, \"mode\": \"bm25\", \"minCoverage\": \"some\"}}");
    assertThat(badAssemble.statusCode()).isEqualTo(400);
    assertThat(badAssemble.body()).contains("field 'retrieval.minCoverage' must be a number in [0, 1], auto or off, was 'some'");
  }

  @Test
  void assembleGivesTheTokensEvidenceDidNotUseToTheHistory() throws Exception {
    StringBuilder history = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      history.append(i == 0 ? "" : ",").append("{\"role\": \"").append(i % 2 == 0 ? "user" : "assistant")
          .append("\", \"content\": \"Turn ").append(i).append(" talks about the river trip, the boats, the weather on the")
          .append(" banks and the towns we passed on the way, at some length so that every turn costs tokens.\"}");
    }
    String template = "{\"model\": \"gpt-4o\", \"window\": 1800, \"reserve\": 100, \"query\": \"" + OFF
        + "\", \"history\": [" + history + "], \"retrieval\": {\"budget\": 3000, \"mode\": \"bm25\", \"minRelevance\": %s}}";
    JsonNode lined = JSON.readTree(post("/v1/assemble", template.formatted("\"auto\"")).body());
    JsonNode filled = JSON.readTree(post("/v1/assemble", template.formatted("0")).body());
    assertThat(lined.get("evidence").get("status").asText()).isEqualTo("insufficient");
    assertThat(filled.get("evidence").get("status").asText()).isEqualTo("unchecked");
    int linedEvidence = lined.get("budget").get("byComponent").get("evidence").asInt();
    int filledEvidence = filled.get("budget").get("byComponent").get("evidence").asInt();
    assertThat(linedEvidence).isLessThan(filledEvidence);
    assertThat(lined.get("history").get("sent").asInt()).as("the freed tokens carry more history")
        .isGreaterThan(filled.get("history").get("sent").asInt());
    String last = lined.get("messages").get(lined.get("messages").size() - 1).get("content").asText();
    assertThat(last).contains("No source found for this question").contains(OFF);
  }
}
