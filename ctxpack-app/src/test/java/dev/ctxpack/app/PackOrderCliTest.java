package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.token.Tokenizers;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pack --order} and {@code --repeat-key} end to end over a real index, and their bad values. */
class PackOrderCliTest {
  @TempDir Path dir;
  String index;

  @BeforeEach
  void ingest() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    index = dir.resolve("idx").toString();
    Files.writeString(corpus.resolve("rhine.txt"), "The Rhine is 1,230 km long. It rises in the Swiss Alps and flows"
        + " into the North Sea near Rotterdam. Barges carry coal and grain along the Rhine between Basel and Rotterdam.");
    Files.writeString(corpus.resolve("danube.txt"), "The Danube is 2,850 km long and flows into the Black Sea."
        + " It passes through ten countries, more than any other river in the world.");
    Files.writeString(corpus.resolve("elbe.txt"), "The Elbe river rises in the Czech Republic and reaches the North Sea"
        + " at Cuxhaven, 1,094 km from its source.");
    Files.writeString(corpus.resolve("amazonas.txt"), "O rio Amazonas tem cerca de 6.400 km de comprimento. Ele nasce"
        + " nos Andes peruanos e deságua no oceano Atlântico, perto de Belém.");
    CliRunner r = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", corpus.toString());
    assertThat(r.code()).as(r.err()).isZero();
  }

  private JsonNode pack(String query, String... extra) {
    List<String> args = new ArrayList<>(List.of("pack", "--index", index, "--format", "json", "-q", query,
        "--mode", "bm25", "--no-compress"));
    args.addAll(List.of(extra));
    CliRunner r = CliRunner.run(args.toArray(String[]::new));
    assertThat(r.code()).as(r.err()).isZero();
    return r.json();
  }

  @Test
  void repeatKeyRepeatsTheBestSentenceOfTheStrongestSourceWithinTheExactBudget() {
    for (int budget : new int[] {400, 1000}) {
      JsonNode p = pack("How long is the Rhine river?", "--repeat-key", "--budget", Integer.toString(budget));
      String prompt = p.get("prompt").asText();
      String s1 = p.get("sources").get(0).get("id").asText();
      assertThat(p.get("sources").get(0).get("text").asText()).startsWith("The Rhine is 1,230 km long.");
      assertThat(prompt).containsPattern("Key passage \\(repeated from " + s1 + "\\):\n<source-[0-9a-f]{12} id=\"" + s1
          + "\">\nThe Rhine is 1,230 km long.\n</source-[0-9a-f]{12}>\n\nQUESTION\n");
      int counted = Tokenizers.defaultTokenizer().count(prompt);
      assertThat(p.get("budget").get("used").asInt()).isEqualTo(counted).isLessThanOrEqualTo(budget);
      JsonNode by = p.get("budget").get("byComponent");
      assertThat(by.get("key").asInt()).isPositive();
      int sum = 0;
      for (JsonNode v : by) sum += v.asInt();
      assertThat(sum).isEqualTo(counted);
      assertThat(p.get("trace").toString()).contains("\"action\":\"repeat-key\"").contains("\"ids\":[\"" + s1 + "\"");
    }
    JsonNode plain = pack("How long is the Rhine river?");
    assertThat(plain.get("prompt").asText()).doesNotContain("Key passage");
  }

  @Test
  void aPortugueseQueryGetsThePortugueseHeader() {
    JsonNode p = pack("Qual é o comprimento do rio Amazonas?", "--repeat-key");
    assertThat(p.get("prompt").asText()).contains("Trecho principal (repetido de S1):")
        .contains("\nO rio Amazonas tem cerca de 6.400 km de comprimento.\n</source-");
  }

  @Test
  void everyOrderRunsAndTheTraceNamesIt() {
    for (String order : List.of("lost-in-the-middle", "score", "source", "topic", "position")) {
      JsonNode p = pack("Which river flows into the North Sea?", "--order", order);
      assertThat(p.get("trace").toString()).contains("\"stage\":\"order\",\"action\":\"order\",\"rule\":\"" + order + "\"");
    }
  }

  @Test
  void aBadOrderIsAUsageErrorNamingTheValue() {
    CliRunner r = CliRunner.run("pack", "--index", index, "-q", "rivers", "--order", "chronological");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--order").contains("'chronological'").contains("topic").contains("position");
  }

  @Test
  void batchLinesTakeOrderAndRepeatKeyAndNameBadValues() throws Exception {
    Path batch = dir.resolve("batch.jsonl");
    Files.writeString(batch, String.join("\n",
        "{\"id\": \"a\", \"query\": \"How long is the Rhine river?\", \"order\": \"topic\", \"repeatKey\": true}",
        "{\"id\": \"b\", \"query\": \"rivers\", \"order\": \"sideways\"}",
        "{\"id\": \"c\", \"query\": \"rivers\", \"repeatKey\": \"yes\"}") + "\n");
    CliRunner r = CliRunner.run("pack", "--index", index, "--mode", "bm25", "--no-compress", "--batch", batch.toString());
    assertThat(r.code()).isEqualTo(1);
    String[] lines = r.out().strip().split("\n");
    assertThat(lines).hasSize(3);
    ObjectMapper m = new ObjectMapper();
    JsonNode a = m.readTree(lines[0]);
    assertThat(a.get("prompt").asText()).contains("Key passage (repeated from ");
    assertThat(a.get("trace").toString()).contains("\"rule\":\"topic\"");
    assertThat(m.readTree(lines[1]).get("error").asText()).contains("field 'order'").contains("'sideways'");
    assertThat(m.readTree(lines[2]).get("error").asText()).contains("field 'repeatKey'").contains("\"yes\"");
  }

  @Test
  void theServiceTakesOrderAndRepeatKeyInAPackBody() throws Exception {
    try (Service server = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).build(),
            ServiceLog.text(new PrintWriter(new StringWriter(), true)))) {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<String> ok = post(http, server.port(),
          "{\"query\": \"How long is the Rhine river?\", \"order\": \"position\", \"repeatKey\": true, \"budget\": 800}");
      assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
      JsonNode p = new ObjectMapper().readTree(ok.body());
      assertThat(p.get("prompt").asText()).contains("Key passage (repeated from ");
      assertThat(p.get("budget").get("byComponent").get("key").asInt()).isPositive();
      assertThat(p.get("budget").get("used").asInt()).isLessThanOrEqualTo(800);
      assertThat(p.get("trace").toString()).contains("\"rule\":\"position\"");
      HttpResponse<String> bad = post(http, server.port(), "{\"query\": \"rivers\", \"order\": \"backwards\"}");
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("field 'order'").contains("'backwards'");
    }
  }

  private static HttpResponse<String> post(HttpClient http, int port, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/pack"))
        .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
