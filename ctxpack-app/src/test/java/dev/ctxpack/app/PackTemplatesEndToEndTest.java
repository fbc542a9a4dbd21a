package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.pack.PromptTemplate;
import dev.ctxpack.token.Tokenizers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pack --template}: the JSON-claims templates verified end to end, template files, batch lines and the service. */
class PackTemplatesEndToEndTest {
  private static final String RHINE = "The Rhine rises in the Swiss Alps. It flows through six countries before "
      + "reaching the North Sea. The river is about 1,230 km long.";
  private static final String CERRADO = "O Cerrado cobre cerca de 22% do território brasileiro. A vegetação sofre "
      + "com queimadas na estação seca, entre maio e setembro.";

  @TempDir Path dir;
  String index;

  @BeforeEach
  void ingest() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    Files.writeString(corpus.resolve("rhine.txt"), RHINE);
    Files.writeString(corpus.resolve("cerrado.txt"), CERRADO);
    index = dir.resolve("idx").toString();
    CliRunner r = CliRunner.run("ingest", "--index", index, "--no-embed", corpus.toString());
    assertThat(r.code()).as(r.err()).isZero();
  }

  private CliRunner pack(String query, String... more) {
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(
        "pack", "--index", index, "--format", "json", "-q", query, "--embedder", "none"));
    args.addAll(java.util.List.of(more));
    if (!args.contains("--budget")) args.addAll(java.util.List.of("--budget", "600"));
    return CliRunner.run(args.toArray(String[]::new));
  }

  @Test
  void anAnswerInTheJsonTemplatesShapeCitingThePackagesLabelsVerifiesAsSupported() throws Exception {
    CliRunner pack = pack("How long is the Rhine?", "--template", "json");
    assertThat(pack.code()).as(pack.err()).isZero();
    JsonNode p = pack.json();
    assertThat(p.get("prompt").asText()).contains("{\"answer\": \"...\", \"claims\": [{\"text\": \"...\", \"citations\": [\"S1\"]}]}");
    String label = null;
    for (JsonNode s : p.get("sources")) {
      if (s.get("text").asText().contains("1,230 km")) label = s.get("id").asText();
    }
    assertThat(label).as(p.toString()).isNotNull();
    Path pkg = Files.writeString(dir.resolve("package.json"), pack.out());
    Path answer = Files.writeString(dir.resolve("answer.json"), "{\"answer\": \"The Rhine is about 1,230 km long.\", \"claims\": ["
        + "{\"text\": \"The Rhine is about 1,230 km long\", \"citations\": [\"" + label + "\"]}]}");
    CliRunner v = CliRunner.run("verify", "--package", pkg.toString(), "--answer", answer.toString(),
        "--format", "json", "--embedder", "none");
    assertThat(v.code()).as(v.err()).isZero();
    JsonNode out = v.json();
    assertThat(out.get("claims")).hasSize(1);
    assertThat(out.get("claims").get(0).get("verdict").asText()).isEqualTo("supported");
    assertThat(out.get("invalidCitations")).isEmpty();
    assertThat(out.get("abstentionCorrect").asBoolean()).isTrue();

    // The abstention the Portuguese JSON template asks for is read as an abstention.
    CliRunner pt = pack("Qual é a capital da Mongólia?", "--template", "json");
    assertThat(pt.json().get("prompt").asText()).contains("{\"answer\": \"" + PromptTemplate.PT.abstention() + "\", \"claims\": []}");
    Path ptPkg = Files.writeString(dir.resolve("pt.json"), pt.out());
    Path abstain = Files.writeString(dir.resolve("abstain.json"),
        "{\"answer\": \"" + PromptTemplate.PT.abstention() + "\", \"claims\": []}");
    JsonNode ab = CliRunner.run("verify", "--package", ptPkg.toString(), "--answer", abstain.toString(),
        "--format", "json", "--embedder", "none").json();
    assertThat(ab.get("abstained").asBoolean()).as(ab.toString()).isTrue();
  }

  @Test
  void aTemplateFileIsUsedAndABadOneIsAUsageErrorNamingFileAndLine() throws Exception {
    Path good = Files.writeString(dir.resolve("house.tmpl"), """
        language: pt
        [instructions]
        Responda só com as fontes; cite cada frase com [S1]. Sem resposta: "{{abstention}}".
        [sources-header]
        EVIDÊNCIAS
        [question-header]
        PEDIDO
        """);
    for (int budget : new int[] {150, 400}) {
      CliRunner r = pack("How long is the Rhine?", "--template", good.toString(), "--budget", Integer.toString(budget));
      assertThat(r.code()).as(r.err()).isZero();
      JsonNode p = r.json();
      String prompt = p.get("prompt").asText();
      assertThat(prompt).startsWith("Responda só com as fontes; cite cada frase com [S1]. Sem resposta: \""
          + PromptTemplate.PT.abstention() + "\".").contains("\nEVIDÊNCIAS\n").contains("\nPEDIDO\nHow long is the Rhine?\n");
      assertThat(Tokenizers.defaultTokenizer().count(prompt)).isEqualTo(p.get("budget").get("used").asInt())
          .isLessThanOrEqualTo(budget);
      assertThat(p.get("trace").toString()).contains("template=file:house.tmpl");
    }
    Path bad = Files.writeString(dir.resolve("bad.tmpl"), "language: en\n[instructions]\nCite {{labels}}.\n");
    CliRunner r = pack("How long is the Rhine?", "--template", bad.toString());
    assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("--template").contains(bad + ":3: unknown placeholder {{labels}}");
    CliRunner unknown = pack("How long is the Rhine?", "--template", "yaml");
    assertThat(unknown.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(unknown.err()).contains("unknown template 'yaml'").contains("json").contains("template file");
  }

  @Test
  void batchLinesAndPostV1PackTakeATemplateNameButNeverAFile() throws Exception {
    Path file = Files.writeString(dir.resolve("t.tmpl"), "language: en\n[instructions]\n{{abstention}}\n"
        + "[sources-header]\nS\n[question-header]\nQ\n");
    String lines = "{\"id\":\"j\",\"query\":\"Qual é a área do Cerrado?\",\"template\":\"json\"}\n"
        + "{\"id\":\"d\",\"query\":\"Qual é a área do Cerrado?\"}\n"
        + "{\"id\":\"f\",\"query\":\"Qual é a área do Cerrado?\",\"template\":\"" + file + "\"}\n";
    CliRunner r = CliRunner.runWithStdin(lines, "pack", "--index", index, "--batch", "-", "--embedder", "none");
    String[] out = r.out().strip().split("\n");
    ObjectMapper m = new ObjectMapper();
    assertThat(m.readTree(out[0]).get("prompt").asText()).contains("\"claims\": []").contains("FONTES");
    assertThat(m.readTree(out[1]).get("prompt").asText()).doesNotContain("\"claims\"").contains("FONTES");
    assertThat(m.readTree(out[2]).get("error").asText()).contains("field 'template'").contains("unknown template");

    try (Service server = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).embedder("none").build(),
            ServiceLog.text(new PrintWriter(new StringWriter(), true)))) {
      HttpClient http = HttpClient.newHttpClient();
      URI uri = URI.create("http://127.0.0.1:" + server.port() + "/v1/pack");
      var ok = http.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(
          "{\"query\":\"How long is the Rhine?\",\"template\":\"json-pt\"}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
      assertThat(m.readTree(ok.body()).get("prompt").asText()).contains("Responda com um único objeto JSON").contains("PERGUNTA");
      var bad = http.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(
          "{\"query\":\"x\",\"template\":\"" + file + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("template");
    }
  }
}
