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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pack --redact-pii} over a real index: placeholders in the prompt, no values, the budget exact, offsets into the documents. */
class RedactPiiEndToEndTest {
  @TempDir Path dir;
  private String index;

  private static final Map<String, String> DOCS = Map.of(
      "contrato", "O contrato de locação foi assinado por Ana Souza, CPF 529.982.247-25, e pela empresa Aluga Bem"
          + " Ltda., CNPJ 11.222.333/0001-81. O aluguel de R$ 2.500,00 vence todo dia 5. Dúvidas sobre o aluguel:"
          + " ana.souza@example.com.br ou (11) 98765-4321.",
      "pagamento", "O aluguel pode ser pago por transferência para a conta PT50 0002 0123 1234 5678 9015 4 ou no"
          + " cartão 4111 1111 1111 1111. A multa por atraso do aluguel é de 2% ao mês, desde 2019.",
      "invoice", "The rent invoice was emailed to ana.souza@example.com.br from server 192.168.10.24 (IPv6"
          + " 2001:db8::8a2e:370:7334). Call +1 212-555-0123 with questions about the rent; version 1.2.3.4 of the form.",
      "clean", "O aluguel é reajustado anualmente pelo IGP-M, conforme a cláusula 4.2 do contrato de 2021.");

  private static final List<String> VALUES = List.of("529.982.247-25", "11.222.333/0001-81", "ana.souza@example.com.br",
      "(11) 98765-4321", "PT50 0002 0123 1234 5678 9015 4", "4111 1111 1111 1111", "192.168.10.24",
      "2001:db8::8a2e:370:7334", "+1 212-555-0123");

  @BeforeEach
  void ingest() throws Exception {
    ObjectMapper m = new ObjectMapper();
    StringBuilder jsonl = new StringBuilder();
    for (var e : DOCS.entrySet()) {
      jsonl.append(m.writeValueAsString(m.createObjectNode().put("_id", e.getKey()).put("title", e.getKey()).put("text", e.getValue())))
          .append('\n');
    }
    Path corpus = dir.resolve("docs.jsonl");
    Files.writeString(corpus, jsonl);
    index = dir.resolve("index").toString();
    CliRunner in = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();
  }

  @Test
  void thePromptHoldsPlaceholdersAndNoValuesAndEveryRedactionPointsAtItsValue() throws Exception {
    CliRunner r = CliRunner.run("pack", "--index", index, "--min-relevance", "0", "--format", "json", "-q", "Como pagar o aluguel (the rent)?",
        "--budget", "700", "--no-compress", "--redact-pii");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode p = r.json();
    String prompt = p.get("prompt").asText();
    assertThat(p.get("sources").size()).isEqualTo(4);
    for (String v : VALUES) assertThat(prompt).doesNotContain(v);
    assertThat(r.out()).doesNotContain("529.982.247-25").doesNotContain("ana.souza@").doesNotContain("4111 1111");
    assertThat(prompt).contains("[CPF_1]", "[CNPJ_1]", "[EMAIL_1]", "[PHONE_1]", "[IBAN_1]", "[CARD_1]", "[IP_1]", "[IP_2]",
        "[PHONE_2]", "version 1.2.3.4", "R$ 2.500,00", "2019");
    // The same address in two documents is one placeholder.
    assertThat(prompt.split("\\[EMAIL_1]", -1).length - 1).isEqualTo(2);
    assertThat(prompt).doesNotContain("[EMAIL_2]");

    int redactions = 0;
    for (JsonNode s : p.get("sources")) {
      String doc = DOCS.get(s.get("docId").asText());
      JsonNode span = s.get("spans").get(0);
      // Put the values back where the placeholders stand: the span's document text comes back.
      String text = s.get("text").asText();
      StringBuilder restored = new StringBuilder();
      int at = 0;
      for (JsonNode red : s.path("redactions")) {
        redactions++;
        String value = doc.substring(red.get("start").asInt(), red.get("end").asInt());
        assertThat(VALUES).as("%s in %s", red, s.get("docId")).contains(value);
        assertThat(red.has("value")).isFalse();
        int ph = text.indexOf(red.get("placeholder").asText(), at);
        restored.append(text, at, ph).append(value);
        at = ph + red.get("placeholder").asText().length();
      }
      restored.append(text.substring(at));
      assertThat(restored.toString()).isEqualTo(doc.substring(span.get("start").asInt(), span.get("end").asInt()));
    }
    assertThat(redactions).isEqualTo(10);
    String trace = p.get("trace").toString();
    assertThat(trace).contains("\"stage\":\"redact\"").contains("cpf=1, email=1").contains("no PII found");
    for (String v : VALUES) assertThat(trace).doesNotContain(v);
  }

  @Test
  void theBudgetHoldsExactlyWithPlaceholdersAndTheTypesCanBeChosen() throws Exception {
    for (int budget : new int[] {260, 320, 420}) {
      CliRunner r = CliRunner.run("pack", "--index", index, "--min-relevance", "0", "--format", "json", "-q", "What about the rent?",
          "--budget", Integer.toString(budget), "--redact-pii=email,cpf");
      assertThat(r.code()).as(r.err()).isZero();
      JsonNode p = r.json();
      String prompt = p.get("prompt").asText();
      int used = Tokenizers.defaultTokenizer().count(prompt);
      assertThat(p.get("budget").get("used").asInt()).isEqualTo(used);
      assertThat(used).isLessThanOrEqualTo(budget);
      assertThat(prompt).doesNotContain("ana.souza@example.com.br").doesNotContain("529.982.247-25");
      assertThat(prompt).doesNotContain("[CARD_").doesNotContain("[IP_").doesNotContain("[CNPJ_");
    }
    CliRunner bad = CliRunner.run("pack", "--index", index, "--min-relevance", "0", "-q", "rent", "--redact-pii=email,ssn");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--redact-pii").contains("ssn");
  }

  @Test
  void aBatchLineTurnsItOnAndOffIsTheDefault() throws Exception {
    String lines = "{\"id\":\"on\",\"query\":\"Como pagar o aluguel?\",\"redactPii\":true}\n"
        + "{\"id\":\"off\",\"query\":\"Como pagar o aluguel?\"}\n"
        + "{\"id\":\"some\",\"query\":\"Como pagar o aluguel?\",\"redactPii\":[\"card\"]}\n"
        + "{\"id\":\"bad\",\"query\":\"Como pagar o aluguel?\",\"redactPii\":\"cpf,passport\"}\n";
    CliRunner r = CliRunner.runWithStdin(lines, "pack", "--index", index, "--min-relevance", "0", "--batch", "-");
    String[] out = r.out().strip().split("\n");
    ObjectMapper m = new ObjectMapper();
    assertThat(m.readTree(out[0]).get("prompt").asText()).contains("[CARD_1]").doesNotContain("4111 1111 1111 1111");
    assertThat(m.readTree(out[1]).get("prompt").asText()).contains("4111 1111 1111 1111").doesNotContain("[CARD_1]");
    assertThat(m.readTree(out[1]).get("trace").toString()).doesNotContain("\"stage\":\"redact\"");
    assertThat(m.readTree(out[2]).get("prompt").asText()).contains("[CARD_1]").contains("529.982.247-25");
    assertThat(m.readTree(out[3]).get("error").asText()).contains("redactPii").contains("passport");
  }

  @Test
  void postV1PackTakesRedactPiiAndABadValueIsA400NamingIt() throws Exception {
    try (Service server = Service.start(ServiceConfig.builder().index(IndexSpec.parse(index)).port(0).build(),
            ServiceLog.text(new PrintWriter(new StringWriter(), true)))) {
      HttpClient http = HttpClient.newHttpClient();
      URI uri = URI.create("http://127.0.0.1:" + server.port() + "/v1/pack");
      var ok = http.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(
          "{\"minRelevance\": 0, \"query\":\"Como pagar o aluguel?\",\"redactPii\":[\"cpf\",\"iban\"]}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
      JsonNode p = new ObjectMapper().readTree(ok.body());
      assertThat(p.get("prompt").asText()).contains("[IBAN_1]").doesNotContain("PT50 0002").contains("4111 1111 1111 1111");
      assertThat(p.toString()).doesNotContain("PT50 0002 0123 1234 5678 9015 4");
      var bad = http.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(
          "{\"minRelevance\": 0, \"query\":\"aluguel\",\"redactPii\":7}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("redactPii").contains("7");
    }
  }
}
