package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.assemble.MessageCost;
import dev.ctxpack.assemble.Turn;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * {@code ctxpack assemble} over a real Lucene index (CLI, batch and replay), and {@code POST
 * /v1/assemble} on a real service on loopback, with tenants and access labels.
 */
class AssembleEndToEndTest {
  @TempDir static Path dir;
  static String index;
  static final Tokenizer TOK = Tokenizers.byName("o200k_base");

  static final String REQUEST = """
      {"id": "r1", "model": "gpt-4o", "system": "Você é o assistente de uma torrefação. Cite as fontes.",
       "tools": [
         {"type": "function", "function": {"name": "get_order", "description": "Busca um pedido pelo número",
          "parameters": {"type": "object", "properties": {"number": {"type": "string", "description": "número do pedido"}}}}},
         {"name": "get_weather", "description": "Weather of a city", "pinned": true,
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}],
       "history": [
         {"role": "user", "content": "Meu pedido 1234 chegou?"},
         {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
           "function": {"name": "get_order", "arguments": "{\\"number\\": \\"1234\\"}"}}]},
         {"role": "tool", "tool_call_id": "call_1", "name": "get_order", "content": "{\\"status\\": \\"entregue\\"}"},
         {"role": "assistant", "content": "Sim, foi entregue ontem.", "pinned": true}],
       "fewShot": [{"input": "Qual a temperatura da torra clara?", "output": "Cerca de 200 °C [S1]."}],
       "memories": ["Prefere respostas curtas.", {"text": "Comprou café etíope em março.", "kind": "episode"}],
       "query": "Quanto tempo dura a torra do café?",
       "retrieval": {"budget": 600, "k": 10}}
      """;

  @BeforeAll
  static void ingest() throws Exception {
    Path corpus = dir.resolve("corpus.jsonl");
    Files.writeString(corpus, String.join("\n",
        "{\"id\": \"torra\", \"title\": \"A torra\", \"text\": \"A torra do café dura de dez a quinze minutos, a cerca de 200 graus. Torras claras preservam a acidez.\"}",
        "{\"id\": \"moagem\", \"title\": \"Moagem\", \"text\": \"A moagem fina serve ao espresso; a grossa, à prensa francesa.\"}",
        "{\"id\": \"roast\", \"title\": \"Roasting\", \"text\": \"Coffee roasting takes ten to fifteen minutes at about 200 degrees Celsius.\"}"));
    index = dir.resolve("idx").toString();
    CliRunner r = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", corpus.toString());
    assertThat(r.code()).as(r.err()).isZero();
  }

  /** What the JSON messages and tools cost when counted from the bytes sent: they must be the budget's {@code used}. */
  static int countSent(JsonNode out) {
    int n = MessageCost.REPLY_PRIMING;
    for (JsonNode m : out.get("messages")) {
      Turn t = new Turn(m.get("role").asText(), m.path("content").isNull() ? "" : m.path("content").asText(),
          m.path("name").asText(""), m.path("tool_call_id").asText(""), m.has("tool_calls") ? Json.line(m.get("tool_calls")) : "", false);
      n += MessageCost.of(t, TOK);
    }
    for (JsonNode t : out.get("tools")) n += TOK.count(Json.line(t));
    return n;
  }

  @Test
  void theCliAssemblesTheWindowWithCitedEvidenceAndAnExactBudget() throws Exception {
    Path req = dir.resolve("request.json");
    Files.writeString(req, REQUEST);
    CliRunner r = CliRunner.run("assemble", "--request", req.toString(), "--index", index);
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode out = r.json();
    assertThat(out.path("id").asText()).isEqualTo("r1");
    JsonNode msgs = out.get("messages");
    assertThat(msgs.get(0).get("role").asText()).isEqualTo("system");
    assertThat(msgs.get(1).get("content").asText()).startsWith("O que você lembra").contains("Prefere respostas curtas.");
    String last = msgs.get(msgs.size() - 1).get("content").asText();
    assertThat(last).contains("Quanto tempo dura a torra do café?").contains("id=\"S1\"").contains("dez a quinze minutos");
    assertThat(out.get("sources").get(0).get("id").asText()).isEqualTo("S1");
    assertThat(msgs.findValues("tool_calls")).hasSize(1);
    // The pinned tool goes whatever its rank; both fit here.
    assertThat(out.get("tools").findValuesAsText("name")).containsExactly("get_order", "get_weather");
    assertThat(out.get("tools").get(1).has("pinned")).isFalse();
    JsonNode budget = out.get("budget");
    assertThat(budget.get("limit").asInt()).isEqualTo(128_000 - 4_000);
    assertThat(budget.get("used").asInt()).isEqualTo(countSent(out));
    int sum = 0;
    for (JsonNode v : budget.get("byComponent")) sum += v.asInt();
    assertThat(sum).isEqualTo(budget.get("used").asInt());
    assertThat(budget.get("byComponent").get("evidence").asInt()).isPositive().isLessThanOrEqualTo(600);
    // Anthropic's shape: system blocks, tool_use with its input object, tool_result in a user message.
    JsonNode a = out.get("anthropic");
    assertThat(a.get("system")).hasSize(2);
    assertThat(a.get("messages").findValuesAsText("role")).doesNotContain("system", "tool");
    JsonNode use = a.get("messages").findParents("type").stream().filter(b -> b.get("type").asText().equals("tool_use")).findFirst().orElseThrow();
    assertThat(use.get("input").get("number").asText()).isEqualTo("1234");
    assertThat(a.toString()).contains("\"tool_result\"").contains("\"tool_use_id\":\"call_1\"");
    assertThat(a.get("tools").get(0).get("input_schema").get("properties").has("number")).isTrue();
    String previousRole = "";
    for (JsonNode m : a.get("messages")) {
      assertThat(m.get("role").asText()).isNotEqualTo(previousRole);
      previousRole = m.get("role").asText();
    }
    // The same request gives byte-identical JSON.
    CliRunner again = CliRunner.run("assemble", "--request", req.toString(), "--index", index);
    assertThat(again.out()).isEqualTo(r.out());
  }

  @Test
  void toolsAreRankedAgainstTheQueryAndTheTightToolBudgetKeepsTheRelevantOne() throws Exception {
    String tools = """
        [{"type": "function", "function": {"name": "send_email", "description": "Send an e-mail message to a recipient",
          "parameters": {"type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string"}}}}},
         {"name": "list_commits", "description": "List the commits of a repository branch",
          "inputSchema": {"type": "object", "properties": {"repo": {"type": "string"}, "branch": {"type": "string"}}}},
         {"type": "function", "function": {"name": "get_weather", "description": "Current weather forecast for a city",
          "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "city name"}}}}},
         {"type": "function", "function": {"name": "create_invoice", "description": "Create an invoice for a customer",
          "parameters": {"type": "object", "properties": {"customer": {"type": "string"}, "amount": {"type": "number"}}}}}]
        """;
    Path req = dir.resolve("tools.json");
    // The cap holds one of these tools (each costs 30 to 45 tokens) but not two.
    Files.writeString(req, "{\"query\": \"What is the weather forecast in Lisbon tomorrow?\", \"retrieval\": false,"
        + " \"limits\": {\"tools\": {\"cap\": 60}}, \"tools\": " + tools + "}");
    CliRunner r = CliRunner.run("assemble", "--request", req.toString(), "--index", index);
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode out = r.json();
    assertThat(out.get("tools").findValuesAsText("name")).containsExactly("get_weather");
    assertThat(out.get("budget").get("byComponent").get("tools").asInt()).isPositive().isLessThanOrEqualTo(60);
    assertThat(out.get("trace").toString()).contains("tools-").contains("send_email");
  }

  @Test
  void aUsersStoredMemoriesAreRecalledAndAnOldHistoryIsSummarisedKeepingWhoSaidWhat() throws Exception {
    CliRunner add = CliRunner.run("memory", "add", "--index", index, "--user", "ana", "--kind", "fact",
        "--text", "Ana prefere café de torra clara.");
    assertThat(add.code()).as(add.err()).isZero();
    CliRunner other = CliRunner.run("memory", "add", "--index", index, "--user", "rui", "--kind", "fact",
        "--text", "Rui só bebe descafeinado.");
    assertThat(other.code()).as(other.err()).isZero();
    StringBuilder history = new StringBuilder("[");
    for (int i = 1; i <= 12; i++) {
      if (i > 1) history.append(',');
      history.append("{\"role\": \"user\", \"content\": \"Pergunta ").append(i)
          .append(": quanto tempo leva a torra número ").append(i).append("? ").append("Quero detalhes da torra. ".repeat(8)).append("\"},")
          .append("{\"role\": \"assistant\", \"content\": \"A torra ").append(i).append(" leva ").append(9 + i)
          .append(" minutos. ").append("Depois o café descansa um dia. ".repeat(8)).append("\"}");
    }
    history.append(']');
    Path req = dir.resolve("memory-request.json");
    Files.writeString(req, "{\"user\": \"ana\", \"query\": \"Quanto tempo leva a torra número 2?\", \"retrieval\": false,"
        + " \"limits\": {\"history\": {\"cap\": 900}}, \"history\": " + history + "}");
    CliRunner r = CliRunner.run("assemble", "--request", req.toString(), "--index", index);
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode out = r.json();
    String all = out.get("messages").toString();
    assertThat(all).contains("Ana prefere café de torra clara.").doesNotContain("descafeinado");
    JsonNode h = out.get("history");
    assertThat(h.get("compacted").asBoolean()).isTrue();
    assertThat(h.get("summarised").asInt()).isPositive();
    assertThat(out.get("budget").get("byComponent").get("history").asInt()).isLessThanOrEqualTo(900);
    // The summary names who said what, and keeps the older answer the query asks about, verbatim.
    String summary = out.get("messages").findValuesAsText("content").stream().filter(c -> c.contains("A torra 2 leva 11 minutos"))
        .findFirst().orElseThrow();
    assertThat(summary).contains("assistente:");
  }

  @Test
  void withLlmTheOlderTurnsAreSummarisedByTheModel() throws Exception {
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    java.util.List<String> asked = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    server.createContext("/v1/chat/completions", ex -> {
      JsonNode body = Json.MAPPER.readTree(ex.getRequestBody().readAllBytes());
      asked.add(body.path("messages").toString());
      byte[] out = Json.MAPPER.writeValueAsBytes(java.util.Map.of("choices", java.util.List.of(java.util.Map.of("message",
          java.util.Map.of("role", "assistant", "content", "usuário: perguntou pelas torras\nassistente: a torra 2 leva 11 minutos")))));
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, out.length);
      ex.getResponseBody().write(out);
      ex.close();
    });
    server.start();
    try {
      StringBuilder history = new StringBuilder("[");
      for (int i = 1; i <= 12; i++) {
        if (i > 1) history.append(',');
        history.append("{\"role\": \"user\", \"content\": \"Pergunta ").append(i).append(": ")
            .append("Quero detalhes da torra. ".repeat(10)).append("\"},{\"role\": \"assistant\", \"content\": \"A torra ")
            .append(i).append(" leva ").append(9 + i).append(" minutos. ").append("Depois o café descansa. ".repeat(10)).append("\"}");
      }
      Path req = dir.resolve("llm-request.json");
      Files.writeString(req, "{\"query\": \"Quanto tempo leva a torra número 2?\", \"retrieval\": false,"
          + " \"limits\": {\"history\": {\"cap\": 700}}, \"history\": " + history.append(']') + "}");
      CliRunner r = CliRunner.run("assemble", "--request", req.toString(), "--index", index, "--llm", "openai:summariser",
          "--llm-url", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
      assertThat(r.code()).as(r.err()).isZero();
      JsonNode out = r.json();
      assertThat(asked).hasSize(1);
      assertThat(asked.get(0)).contains("Pergunta 1");
      assertThat(out.get("messages").toString()).contains("a torra 2 leva 11 minutos");
      assertThat(out.get("trace").toString()).contains("history:llm:openai:summariser");
      assertThat(out.get("budget").get("byComponent").get("history").asInt()).isLessThanOrEqualTo(700);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void badRequestsNameTheFieldAndABadBatchLineDoesNotStopTheOthers() throws Exception {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"query\": \"q\", \"history\": [{\"role\": \"tool\", \"tool_call_id\": \"x\", \"content\": \"r\"}]}");
    CliRunner r = CliRunner.run("assemble", "--request", bad.toString(), "--index", index);
    assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("history[0]").contains("tool_call_id 'x'");
    Path batch = dir.resolve("batch.jsonl");
    Files.writeString(batch, String.join("\n",
        "{\"id\": \"a\", \"query\": \"torra\", \"retrieval\": false}",
        "{\"id\": \"b\", \"query\": \"torra\", \"limits\": {\"toolz\": {\"cap\": 1}}}",
        "{\"id\": \"c\", \"query\": \"torra\", \"window\": 300, \"reserve\": 100, \"system\": \"" + "regra ".repeat(300) + "\"}",
        "{\"id\": \"d\", \"query\": \"torra\", \"tools\": [{\"type\": \"function\", \"function\": {\"description\": \"x\"}}]}"));
    CliRunner b = CliRunner.run("assemble", "--batch", batch.toString(), "--index", index);
    assertThat(b.code()).isEqualTo(ExitCodes.FAILURE);
    var lines = b.jsonLines();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0).get("id").asText()).isEqualTo("a");
    assertThat(lines.get(0).get("sources")).isEmpty();
    assertThat(lines.get(1).get("error").asText()).contains("limits").contains("toolz");
    assertThat(lines.get(2).get("error").asText()).contains("pinned parts").contains("over the limit of 200");
    assertThat(lines.get(3).get("error").asText()).contains("tools").contains("tool 0").contains("name");
    CliRunner none = CliRunner.run("assemble", "--index", index);
    assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void aReplayReportsEveryTurnAndDrawsTheChartWithTheCompressionMarker() throws Exception {
    StringBuilder t = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      t.append("{\"role\": \"user\", \"content\": \"Pergunta ").append(i).append(": ").append("como a torra muda o sabor do café? ".repeat(6)).append("\"}\n");
      t.append("{\"role\": \"assistant\", \"content\": \"Resposta ").append(i).append(": ").append("os açúcares caramelizam e a acidez cai. ".repeat(12)).append("\"}\n");
    }
    Path transcript = dir.resolve("chat.jsonl");
    Files.writeString(transcript, t.toString());
    Path base = dir.resolve("base.json");
    Files.writeString(base, "{\"model\": \"gpt-4o\", \"window\": 2000, \"reserve\": 300, \"system\": \"Seja breve.\", \"retrieval\": false}");
    Path svg = dir.resolve("replay.svg");
    CliRunner r = CliRunner.run("assemble", "--replay", transcript.toString(), "--request", base.toString(), "--svg", svg.toString(),
        "--index", index);
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode out = r.json();
    assertThat(out.get("turns")).hasSize(10);
    int start = out.get("compressionStartsAt").asInt();
    assertThat(start).isBetween(2, 10);
    for (JsonNode turn : out.get("turns")) {
      assertThat(turn.get("used").asInt()).isLessThanOrEqualTo(1_700);
      assertThat(turn.get("history").get("compacted").asBoolean()).isEqualTo(turn.get("turn").asInt() >= start);
    }
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(Files.readAllBytes(svg)));
    Element marker = doc.getElementById("compression-start");
    if (marker == null) {
      var groups = doc.getElementsByTagNameNS("*", "g");
      for (int i = 0; i < groups.getLength(); i++) {
        Element g = (Element) groups.item(i);
        if (g.getAttribute("id").equals("compression-start")) marker = g;
      }
    }
    assertThat(marker).isNotNull();
    assertThat(marker.getAttribute("data-turn")).isEqualTo(Integer.toString(start));
  }

  @Test
  void withAnEmbedderFewShotExamplesAreChosenByMeaningNotSharedWords() throws Exception {
    var examples = java.util.List.of(new dev.ctxpack.assemble.FewShot("How do I reset the router?", "Hold the button for ten seconds."),
        new dev.ctxpack.assemble.FewShot("I forgot my login, how can I get into my account?", "Use the recovery link on the sign-in page."));
    int one = Math.max(MessageCost.of("How do I reset the router?", TOK) + MessageCost.of("Hold the button for ten seconds.", TOK),
        MessageCost.of(examples.get(1).input(), TOK) + MessageCost.of(examples.get(1).output(), TOK));
    var request = dev.ctxpack.assemble.AssembleRequest.builder(dev.ctxpack.token.ModelProfiles.builtIn().get("gpt-4o"))
        .fewShot(examples).query("How do I reset my password?")
        .limit(dev.ctxpack.assemble.Component.FEW_SHOT,
            dev.ctxpack.assemble.ComponentLimit.defaults(dev.ctxpack.assemble.Component.FEW_SHOT).withCap(one)).build();
    java.util.function.Function<dev.ctxpack.assemble.Assembler, String> chosen = a -> {
      try {
        return a.assemble(request).messages().get(0).turn().content();
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    };
    // Shared words alone pick the router ("reset"); the embedder picks the forgotten login.
    assertThat(chosen.apply(Components.assembler(null, null, null, null))).isEqualTo("How do I reset the router?");
    assertThat(chosen.apply(Components.assembler(Components.embedder("minilm"), null, null, null))).startsWith("I forgot my login");
  }

  @Test
  void theServiceRetrievesOnlyWhatTheCallerMayReadAndCapsRequests() throws Exception {
    Path tenants = dir.resolve("tenants.json");
    String alice = "acme-alice-key-00001";
    String hr = "acme-hr-key-0000000002";
    String loader = "acme-loader-key-000003";
    Files.writeString(tenants, """
        {"tenants": {"acme": {"collections": {"docs": "acme/docs"},
          "keys": [{"principal": "alice", "key": "%s", "labels": ["eng"]},
                   {"principal": "hr", "key": "%s", "labels": ["hr"]},
                   {"principal": "loader", "key": "%s", "labels": ["*"], "write": true}]}}}
        """.formatted(alice, hr, loader));
    try (Service server = Service.start(ServiceConfig.builder().tenants(tenants).port(0).build(),
            ServiceLog.text(new PrintWriter(new StringWriter(), true)))) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      var post = (java.util.function.BiFunction<String, String, HttpResponse<String>>) (key, body) -> {
        try {
          return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + (body.contains("\"documents\"")
              ? "/v1/documents" : "/v1/assemble"))).header("Authorization", "Bearer " + key)
              .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      };
      HttpResponse<String> added = post.apply(loader, """
          {"documents": [
            {"id": "bonus", "acl": ["hr"], "title": "Bonus", "text": "The quarterly bonus pool of the zorblat team is 42,000 euros."},
            {"id": "plan", "title": "Plan", "text": "The zorblat team plans its quarterly work in the first week."}]}
          """);
      assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
      String ask = "{\"query\": \"zorblat team quarterly bonus\", \"system\": \"Be brief.\", \"retrieval\": {\"budget\": 400}}";
      HttpResponse<String> forAlice = post.apply(alice, ask);
      HttpResponse<String> forHr = post.apply(hr, ask);
      assertThat(forAlice.statusCode()).as(forAlice.body()).isEqualTo(200);
      assertThat(forAlice.body()).doesNotContain("42,000").contains("first week");
      assertThat(forHr.body()).contains("42,000");
      JsonNode out = Json.parseObject(forHr.body());
      assertThat(out.get("budget").get("used").asInt()).isEqualTo(countSent(out));
      StringBuilder many = new StringBuilder("{\"query\": \"q\", \"tools\": [");
      for (int i = 0; i < 300; i++) many.append(i > 0 ? "," : "").append("{\"name\": \"t").append(i).append("\"}");
      HttpResponse<String> tooMany = post.apply(alice, many + "]}");
      assertThat(tooMany.statusCode()).isEqualTo(400);
      assertThat(tooMany.body()).contains("field 'tools' has 300 items");
      assertThat(post.apply(alice, "{\"query\": \"q\", \"collection\": \"nope\"}").statusCode()).isEqualTo(404);
    }
  }
}
