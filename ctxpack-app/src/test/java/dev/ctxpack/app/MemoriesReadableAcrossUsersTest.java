package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
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
 * Issue 23, item 5: within a tenant, any key that could read fetched any user's memories ({@code GET
 * /v1/memories?user=ceo}, {@code /v1/assemble {"user": "ceo"}}): {@code user} was a request field
 * bound to nothing. Now the tenants file binds the users each key acts for; every memory route and
 * assemble answer a request for another user with the 404 of a user nobody has, byte for byte. On a
 * real service on loopback with the real MiniLM and Lucene.
 */
class MemoriesReadableAcrossUsersTest {
  static final String ANA = "acme-ana-key-000000001";        // no "users": acts for "ana", its principal
  static final String SERVICE = "acme-assistant-key-00002";   // "users": ["*"]
  static final String SUPPORT = "acme-support-key-000003";    // "users": ["ana", "rui"], read only
  static final String NO_ONE = "acme-reports-key-0000004";    // "users": []
  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path dir;

  @Test
  void aKeyReachesOnlyTheUsersItActsForAndAnotherUserIsTheSame404AsNoUser() throws Exception {
    Path tenants = dir.resolve("tenants.json");
    Files.writeString(tenants, """
        {"tenants": {"acme": {"collections": {"docs": "acme/docs"},
          "keys": [{"principal": "ana", "key": "%s", "labels": ["*"], "write": true},
                   {"principal": "assistant", "key": "%s", "labels": ["*"], "write": true, "users": ["*"]},
                   {"principal": "support", "key": "%s", "labels": ["*"], "users": ["ana", "rui"]},
                   {"principal": "reports", "key": "%s", "labels": ["*"], "users": []}]}}}
        """.formatted(ANA, SERVICE, SUPPORT, NO_ONE));
    try (Service server = Service.start(ServiceConfig.builder().tenants(tenants).port(0).build(),
            ServiceLog.text(new PrintWriter(new StringWriter(), true)))) {
      String base = "http://127.0.0.1:" + server.port();
      // Before the CEO has any memory: what Ana's key gets for "ceo", and for a user nobody has.
      HttpResponse<String> ceoBefore = send(base, "GET", "/v1/memories?user=ceo", ANA, null);
      HttpResponse<String> nobody = send(base, "GET", "/v1/memories?user=nobody-at-all", ANA, null);
      assertThat(nobody.statusCode()).as(nobody.body()).isEqualTo(404);

      String secret = "The CEO's board password hint is the name of her first dog.";
      String ceoId = ok(send(base, "POST", "/v1/memories", SERVICE,
          "{\"user\": \"ceo\", \"kind\": \"fact\", \"text\": \"" + secret + "\"}")).path("id").asText();
      ok(send(base, "POST", "/v1/memories", ANA, "{\"user\": \"ana\", \"kind\": \"fact\", \"text\": \"Ana prefers short answers.\"}"));

      // Ana's own memories: hers alone.
      assertThat(texts(ok(send(base, "GET", "/v1/memories?user=ana", ANA, null)))).containsExactly("Ana prefers short answers.");

      // Every way Ana's key could reach the CEO's memories is the 404 of a user nobody has.
      List<HttpResponse<String>> foreign = new ArrayList<>();
      foreign.add(send(base, "GET", "/v1/memories?user=ceo", ANA, null));
      foreign.add(send(base, "GET", "/v1/memories?user=ceo&k=3&query=" + URLEncoder.encode("board password", StandardCharsets.UTF_8), ANA, null));
      foreign.add(send(base, "POST", "/v1/memories", ANA, "{\"user\": \"ceo\", \"kind\": \"fact\", \"text\": \"Planted by Ana.\"}"));
      foreign.add(send(base, "DELETE", "/v1/memories/" + ceoId + "?user=ceo", ANA, null));
      foreign.add(send(base, "POST", "/v1/assemble", ANA, "{\"user\": \"ceo\", \"query\": \"board password hint\", \"retrieval\": false}"));
      foreign.add(send(base, "POST", "/v1/assemble", ANA,
          "{\"query\": \"board password hint\", \"retrieval\": false, \"memories\": {\"user\": \"ceo\", \"k\": 5}}"));
      foreign.add(send(base, "GET", "/v1/memories?user=ceo", SUPPORT, null));
      foreign.add(send(base, "GET", "/v1/memories?user=ceo", NO_ONE, null));
      foreign.add(send(base, "GET", "/v1/memories?user=ana", NO_ONE, null));
      foreign.add(ceoBefore);
      for (HttpResponse<String> r : foreign) {
        String what = r.request().method() + " " + r.request().uri();
        assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(404);
        assertThat(r.body()).as(what).isEqualTo(nobody.body()).doesNotContain("dog").doesNotContain("ceo");
        assertThat(r.headers().firstValue("Content-Type")).as(what).isEqualTo(nobody.headers().firstValue("Content-Type"));
      }
      assertThat(Json.parseObject(nobody.body()).path("error").path("code").asText()).isEqualTo("not_found");

      // Nothing was written or deleted for the CEO by those requests.
      assertThat(texts(ok(send(base, "GET", "/v1/memories?user=ceo", SERVICE, null)))).containsExactly(secret);

      // Ana's own window recalls her memories and not the CEO's.
      HttpResponse<String> window = send(base, "POST", "/v1/assemble", ANA,
          "{\"user\": \"ana\", \"query\": \"board password hint and answer length\", \"retrieval\": false}");
      assertThat(window.statusCode()).as(window.body()).isEqualTo(200);
      assertThat(window.body()).contains("Ana prefers short answers.").doesNotContain("first dog");
      // The service key acts for every user; the support key for the users it lists, with memories or not.
      assertThat(ok(send(base, "POST", "/v1/assemble", SERVICE,
          "{\"user\": \"ceo\", \"query\": \"board password hint\", \"retrieval\": false}")).toString()).contains("first dog");
      assertThat(texts(ok(send(base, "GET", "/v1/memories?user=ana", SUPPORT, null)))).containsExactly("Ana prefers short answers.");
      assertThat(ok(send(base, "GET", "/v1/memories?user=rui", SUPPORT, null)).path("memories")).isEmpty();
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
