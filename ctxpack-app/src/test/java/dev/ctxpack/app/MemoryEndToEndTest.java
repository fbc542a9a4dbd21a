package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.index.IndexSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ctxpack memory} and the {@code /v1/memories} routes: the CLI on a real index directory, and
 * a real service on loopback, alone and with tenants and API keys; the real MiniLM and Lucene.
 */
class MemoryEndToEndTest {
  @TempDir Path dir;
  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void theCliAddsListsRecallsAndDeletesAUsersMemoriesBesideTheIndexWhichNeverReturnsThem() throws Exception {
    Path index = dir.resolve("idx");
    Path corpus = dir.resolve("corpus");
    Files.createDirectories(corpus);
    Files.writeString(corpus.resolve("router.txt"), "Hold the reset button of the router for ten seconds to restart it.");
    assertThat(CliRunner.run("ingest", "--index", index.toString(), "--format", "json", corpus.toString()).code()).isZero();

    CliRunner fact = CliRunner.run("memory", "add", "--index", index.toString(), "--user", "ana", "--kind", "fact",
        "--text", "Ana lives in Zanzibar and prefers short answers.", "--format", "json");
    assertThat(fact.code()).as(fact.err()).isZero();
    JsonNode f = fact.json();
    assertThat(f.path("id").asText()).matches("m[0-9a-f]{16}");
    assertThat(f.path("kind").asText()).isEqualTo("fact");
    assertThat(f.path("user").asText()).isEqualTo("ana");
    assertThat(f.path("created").asText()).isNotEmpty();
    Path episode = dir.resolve("episode.txt");
    Files.writeString(episode, "Ana asked how to restart her router; the assistant said to hold reset for ten seconds.");
    CliRunner ep = CliRunner.run("memory", "add", "--index", index.toString(), "--user", "ana", "--kind", "episode",
        "--file", episode.toString(), "--format", "json");
    assertThat(ep.code()).as(ep.err()).isZero();
    assertThat(Files.isDirectory(index.resolve("memory"))).isTrue();

    JsonNode list = CliRunner.run("memory", "list", "--index", index.toString(), "--user", "ana", "--format", "json").json();
    assertThat(list.path("user").asText()).isEqualTo("ana");
    assertThat(texts(list)).containsExactly("Ana lives in Zanzibar and prefers short answers.",
        "Ana asked how to restart her router; the assistant said to hold reset for ten seconds.");
    assertThat(CliRunner.run("memory", "list", "--index", index.toString(), "--user", "bia", "--format", "json").json()
        .path("memories")).isEmpty();
    JsonNode recall = CliRunner.run("memory", "recall", "--index", index.toString(), "--user", "ana", "--query",
        "my router is frozen", "-k", "2", "--format", "json").json();
    assertThat(recall.path("memories").get(1).path("kind").asText()).isEqualTo("episode");
    assertThat(recall.path("memories").get(1).path("score").asDouble()).isPositive();

    // The document index holds no memory: a search for the memory's words finds none of them.
    JsonNode search = CliRunner.run("search", "--index", index.toString(), "--query", "Zanzibar short answers router",
        "--format", "json").json();
    for (JsonNode r : search.path("results")) assertThat(r.path("text").asText()).doesNotContain("Zanzibar");
    assertThat(search.path("results")).hasSize(1);

    CliRunner del = CliRunner.run("memory", "delete", "--index", index.toString(), "--user", "bia", f.path("id").asText(),
        "--format", "json");
    assertThat(del.code()).isEqualTo(1);
    assertThat(del.json().path("deleted").asInt()).isZero();
    assertThat(del.err()).contains("bia").contains(f.path("id").asText());
    CliRunner mine = CliRunner.run("memory", "delete", "--index", index.toString(), "--user", "ana", f.path("id").asText(),
        "--format", "json");
    assertThat(mine.code()).isZero();
    assertThat(mine.json().path("deleted").asInt()).isEqualTo(1);

    CliRunner badKind = CliRunner.run("memory", "add", "--index", index.toString(), "--user", "ana", "--kind", "rumour",
        "--text", "x");
    assertThat(badKind.code()).isEqualTo(2);
    assertThat(badKind.err()).contains("rumour").contains("fact or episode");
    CliRunner both = CliRunner.run("memory", "add", "--index", index.toString(), "--user", "ana", "--kind", "fact");
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err()).contains("--text").contains("--file");
  }

  @Test
  void theServiceAddsListsRecallsAndDeletesMemoriesPerUser() throws Exception {
    Path index = dir.resolve("idx");
    Path corpus = dir.resolve("corpus");
    Files.createDirectories(corpus);
    Files.writeString(corpus.resolve("a.txt"), "A document about delivery times in Lisbon.");
    assertThat(CliRunner.run("ingest", "--index", index.toString(), corpus.toString()).code()).isZero();
    StringWriter log = new StringWriter();
    Path memories = dir.resolve("elsewhere");
    ServiceConfig config = ServiceConfig.builder().index(IndexSpec.ofPath(index)).port(0).memory(IndexSpec.ofPath(memories)).build();
    try (Service server = Service.start(config, ServiceLog.text(new PrintWriter(log, true)))) {
      String base = "http://127.0.0.1:" + server.port();
      JsonNode added = ok(send(base, "POST", "/v1/memories", null,
          "{\"user\": \"ana\", \"kind\": \"episode\", \"text\": \"Ana asked about delivery to Lisbon; told two days.\"}"));
      String id = added.path("id").asText();
      assertThat(added.path("collection").asText()).isEqualTo("default");
      assertThat(Files.isDirectory(memories)).isTrue();
      assertThat(Files.exists(index.resolve("memory"))).isFalse();
      ok(send(base, "POST", "/v1/memories", null, "{\"user\": \"ana\", \"kind\": \"fact\", \"text\": \"Ana is vegetarian.\"}"));
      ok(send(base, "POST", "/v1/memories", null, "{\"user\": \"bia\", \"kind\": \"fact\", \"text\": \"Bia is a nurse.\"}"));

      assertThat(texts(ok(send(base, "GET", "/v1/memories?user=ana", null, null))))
          .containsExactly("Ana asked about delivery to Lisbon; told two days.", "Ana is vegetarian.");
      assertThat(texts(ok(send(base, "GET", "/v1/memories?user=bia", null, null)))).containsExactly("Bia is a nurse.");
      JsonNode recall = ok(send(base, "GET", "/v1/memories?user=ana&k=3&query=" + URLEncoder.encode(
          "How long does delivery to Lisbon take?", StandardCharsets.UTF_8), null, null));
      assertThat(recall.path("memories").get(0).path("kind").asText()).isEqualTo("fact");
      assertThat(recall.path("memories").get(1).path("id").asText()).isEqualTo(id);
      assertThat(recall.path("memories").get(1).has("score")).isTrue();

      // Bia cannot delete Ana's memory: it is not hers, the same answer as an id nobody has.
      HttpResponse<String> theirs = send(base, "DELETE", "/v1/memories/" + id + "?user=bia", null, null);
      assertThat(theirs.statusCode()).isEqualTo(404);
      assertThat(send(base, "DELETE", "/v1/memories/m0000000000000000?user=bia", null, null).statusCode()).isEqualTo(404);
      JsonNode gone = ok(send(base, "DELETE", "/v1/memories/" + id + "?user=ana", null, null));
      assertThat(gone.path("deleted").asText()).isEqualTo(id);
      assertThat(texts(ok(send(base, "GET", "/v1/memories?user=ana", null, null)))).containsExactly("Ana is vegetarian.");

      HttpResponse<String> noUser = send(base, "POST", "/v1/memories", null, "{\"kind\": \"fact\", \"text\": \"x\"}");
      assertThat(noUser.statusCode()).isEqualTo(400);
      assertThat(noUser.body()).contains("'user'");
      HttpResponse<String> badKind = send(base, "POST", "/v1/memories", null,
          "{\"user\": \"ana\", \"kind\": \"rumour\", \"text\": \"x\"}");
      assertThat(badKind.statusCode()).isEqualTo(400);
      assertThat(badKind.body()).contains("rumour");
      assertThat(send(base, "GET", "/v1/memories", null, null).statusCode()).isEqualTo(400);
      HttpResponse<String> put = send(base, "PUT", "/v1/memories", null, "{}");
      assertThat(put.statusCode()).isEqualTo(405);
      assertThat(put.headers().firstValue("Allow")).hasValue("GET, POST");
    }
  }

  @Test
  void withTenantsMemoriesArePerCollectionAndWritesNeedAWriteKey() throws Exception {
    String reader = "acme-reader-key-000001";
    String writer = "acme-writer-key-000002";
    String other = "globex-writer-key-0003";
    Path tenants = dir.resolve("tenants.json");
    Files.writeString(tenants, """
        {"tenants": {
          "acme": {"collections": {"docs": "acme/docs"},
                   "keys": [{"principal": "r", "key": "%s", "labels": ["*"], "users": ["sam"]},
                            {"principal": "w", "key": "%s", "labels": ["*"], "write": true, "users": ["*"]}]},
          "globex": {"collections": {"docs": "globex/docs"},
                     "keys": [{"principal": "g", "key": "%s", "labels": ["*"], "write": true, "users": ["*"]}]}}}
        """.formatted(reader, writer, other));
    try (Service server = Service.start(ServiceConfig.builder().tenants(tenants).port(0).build(),
            ServiceLog.text(new PrintWriter(new StringWriter(), true)))) {
      String base = "http://127.0.0.1:" + server.port();
      String body = "{\"user\": \"sam\", \"kind\": \"fact\", \"text\": \"Sam's account is on the enterprise plan.\"}";
      assertThat(send(base, "POST", "/v1/memories", null, body).statusCode()).isEqualTo(401);
      HttpResponse<String> forbidden = send(base, "POST", "/v1/memories", reader, body);
      assertThat(forbidden.statusCode()).isEqualTo(403);
      assertThat(forbidden.body()).contains("memories").contains("write");
      String id = ok(send(base, "POST", "/v1/memories", writer, body)).path("id").asText();
      assertThat(texts(ok(send(base, "GET", "/v1/memories?user=sam", reader, null))))
          .containsExactly("Sam's account is on the enterprise plan.");
      assertThat(send(base, "DELETE", "/v1/memories/" + id + "?user=sam", reader, null).statusCode()).isEqualTo(403);
      // Another tenant's user of the same name is another user: nothing to read or delete.
      assertThat(ok(send(base, "GET", "/v1/memories?user=sam", other, null)).path("memories")).isEmpty();
      assertThat(send(base, "DELETE", "/v1/memories/" + id + "?user=sam", other, null).statusCode()).isEqualTo(404);
      assertThat(Files.isDirectory(dir.resolve("acme/docs/memory"))).isTrue();
      assertThat(texts(ok(send(base, "GET", "/v1/memories?user=sam", writer, null)))).hasSize(1);
    }
  }

  static List<String> texts(JsonNode list) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : list.path("memories")) out.add(m.path("text").asText());
    return out;
  }

  static JsonNode ok(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.parseObject(r.body());
  }

  static HttpResponse<String> send(String base, String method, String path, String key, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
    if (key != null) b.header("Authorization", "Bearer " + key);
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
