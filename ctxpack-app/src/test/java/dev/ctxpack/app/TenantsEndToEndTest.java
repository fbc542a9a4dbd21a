package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
import java.io.IOException;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ctxpack serve --tenants}: two tenants with their own collections and keys, documents
 * added and removed over HTTP, access labels filtering search and pack, on a real service on
 * loopback with the real MiniLM and Lucene.
 */
class TenantsEndToEndTest {
  static final String ALICE = "acme-alice-key-0001";      // acme, reads unlabelled and "eng"
  static final String HR = "acme-hr-key-000000002";        // acme, reads unlabelled and "hr"
  static final String LOADER = "acme-loader-key-00003";    // acme, reads everything, writes
  static final String BOB = "globex-bob-key-000004";       // globex, reads everything, writes

  @TempDir static Path dir;
  static Service server;
  static final StringWriter log = new StringWriter();
  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void serve() throws Exception {
    Path tenants = dir.resolve("tenants.json");
    Files.writeString(tenants, """
        {"tenants": {
          "acme": {"collections": {"docs": "acme/docs", "archive": "acme/archive", "files": "acme/files"},
                   "keys": [{"principal": "alice", "key": "%s", "labels": ["eng"]},
                            {"principal": "hr", "keySha256": "%s", "labels": ["hr"]},
                            {"principal": "loader", "key": "%s", "labels": ["*"], "write": true}]},
          "globex": {"collections": {"docs": "globex/docs", "private": "globex/private"},
                     "keys": [{"principal": "bob", "key": "%s", "labels": ["*"], "write": true}]}}}
        """.formatted(ALICE, dev.ctxpack.text.TextNormalizer.sha256Hex(HR), LOADER, BOB));
    server = Service.start(ServiceConfig.builder().tenants(tenants).port(0).build(),
            ServiceLog.text(new PrintWriter(log, true)));
    JsonNode added = ok(post("/v1/documents", LOADER, """
        {"documents": [
          {"id": "handbook", "title": "Handbook", "text": "The handbook says salary reviews happen once a year, in March."},
          {"id": "salaries", "title": "Salary bands 2026", "acl": ["hr"],
           "text": "Salary bands for 2026: engineers earn between 90,000 and 140,000 euros. Salary bands are confidential."},
          {"id": "roadmap", "title": "Roadmap", "acl": ["eng", "leads"],
           "text": "The search team ships the new ranking model in the third quarter."}]}
        """));
    assertThat(added.path("added").asInt()).isEqualTo(3);
    assertThat(added.path("collection").asText()).isEqualTo("docs");
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) server.close();
  }

  // ---- authentication --------------------------------------------------------------------------

  @Test
  void everyV1RequestNeedsAKnownKeyAndHealthDoesNot() throws Exception {
    HttpResponse<String> none = post("/v1/search", null, "{\"query\": \"salary\"}");
    HttpResponse<String> wrong = post("/v1/search", "not-a-key-of-anyone-here", "{\"query\": \"salary\"}");
    HttpResponse<String> basic = send(HttpRequest.newBuilder(uri("/v1/search")).header("Authorization", "Basic " + ALICE)
        .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"salary\"}")));
    for (HttpResponse<String> r : List.of(none, wrong, basic)) {
      assertThat(r.statusCode()).isEqualTo(401);
      assertThat(r.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      assertThat(Json.parseObject(r.body()).path("error").path("code").asText()).isEqualTo("unauthorized");
    }
    // The same answer whether the key is missing, of another scheme or unknown: nothing to probe.
    assertThat(wrong.body()).isEqualTo(none.body()).isEqualTo(basic.body());
    assertThat(post("/v1/compress", null, "{\"query\": \"q\", \"budget\": 50, \"passages\": []}").statusCode()).isEqualTo(401);
    assertThat(send(HttpRequest.newBuilder(uri("/health")).GET()).statusCode()).isEqualTo(200);
    assertThat(ok(post("/v1/search", ALICE, "{\"query\": \"salary\"}")).has("results")).isTrue();
  }

  @Test
  void writesNeedAWriteKey() throws Exception {
    HttpResponse<String> r = post("/v1/documents", ALICE, "{\"documents\": [{\"id\": \"x\", \"text\": \"Some text here.\"}]}");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body()).contains("forbidden").contains("write");
    assertThat(delete("/v1/documents/handbook", ALICE).statusCode()).isEqualTo(403);
    assertThat(ids(search(ALICE, "handbook salary reviews", 10, null))).contains("handbook");
  }

  // ---- tenants -----------------------------------------------------------------------------------

  @Test
  void noRequestOfOneTenantReturnsCitesCountsOrRemovesAnotherTenantsDocument() throws Exception {
    String query = "zanzibarite mining output";
    JsonNode before = search(LOADER, query, 20, null);
    String beforePack = pack(LOADER, query).path("prompt").asText();
    // globex adds documents that match acme's query far better than anything acme holds.
    StringBuilder docs = new StringBuilder("{\"documents\": [");
    for (int i = 0; i < 30; i++) {
      if (i > 0) docs.append(',');
      docs.append("{\"id\": \"g-").append(i).append("\", \"title\": \"Zanzibarite report ").append(i)
          .append("\", \"text\": \"Zanzibarite mining output rose to ").append(100 + i)
          .append(" tonnes. Zanzibarite is mined in salary bands of handbook reviews.\"}");
    }
    ok(post("/v1/documents", BOB, docs.append("]}").toString()));
    assertThat(ids(search(BOB, query, 5, null))).allMatch(id -> id.startsWith("g-"));

    // acme's answers are byte for byte what they were: no document, score or count of globex shows.
    JsonNode after = search(LOADER, query, 20, null);
    assertThat(after).isEqualTo(before);
    assertThat(ids(search(LOADER, "salary bands handbook reviews", 50, null))).noneMatch(id -> id.startsWith("g-"));
    JsonNode p = pack(LOADER, query);
    assertThat(p.path("prompt").asText()).isEqualTo(beforePack).doesNotContain("Zanzibarite");
    for (JsonNode s : p.path("sources")) assertThat(s.path("docId").asText()).doesNotStartWith("g-");

    // Naming globex's documents or collections from acme gets the answer of names that exist nowhere.
    HttpResponse<String> theirs = delete("/v1/documents/g-1", LOADER);
    HttpResponse<String> nobodys = delete("/v1/documents/g-9999", LOADER);
    assertThat(theirs.statusCode()).isEqualTo(404);
    assertThat(Json.parseObject(theirs.body()).path("error").path("message").asText()).contains("g-1").contains("'docs'");
    assertThat(nobodys.statusCode()).isEqualTo(404);
    HttpResponse<String> theirCollection = post("/v1/search", LOADER, "{\"query\": \"x\", \"collection\": \"private\"}");
    HttpResponse<String> noCollection = post("/v1/search", LOADER, "{\"query\": \"x\", \"collection\": \"nowhere\"}");
    assertThat(theirCollection.statusCode()).isEqualTo(404);
    assertThat(noCollection.statusCode()).isEqualTo(404);
    assertThat(theirCollection.body().replace("private", "X")).isEqualTo(noCollection.body().replace("nowhere", "X"));
    assertThat(ids(search(BOB, query, 50, null))).contains("g-1");
  }

  @Test
  void aTenantsEmbeddingCacheHoldsOnlyWhatItEmbedded() throws Exception {
    var acme = (dev.ctxpack.embed.CachingEmbedder) server.embedder("acme");
    var globex = (dev.ctxpack.embed.CachingEmbedder) server.embedder("globex");
    String sentence = "Okapis graze quietly at the edge of the Ituri rainforest every dawn.";
    ok(post("/v1/documents", BOB, Json.line(Json.object().set("documents",
        Json.MAPPER.createArrayNode().add(Json.object().put("id", "okapi").put("text", sentence))))));
    long globexHits = globex.hits();
    search(BOB, sentence, 5, null);
    assertThat(globex.hits()).as("globex embedded the text when it wrote it").isEqualTo(globexHits + 1);
    // acme asking for the same text finds it in no cache: its time says nothing of globex's writes.
    long acmeHits = acme.hits();
    search(LOADER, sentence, 5, null);
    assertThat(acme.hits()).isEqualTo(acmeHits);
    search(LOADER, sentence, 5, null);
    assertThat(acme.hits()).isEqualTo(acmeHits + 1);
  }

  @Test
  void collectionsOfOneTenantAreApart() throws Exception {
    ok(post("/v1/documents", LOADER, """
        {"collection": "archive", "documents": [{"id": "old-memo", "text": "An archived memo about quarterly okapi sightings."}]}
        """));
    assertThat(ids(search(LOADER, "okapi sightings", 10, "archive"))).containsExactly("old-memo");
    assertThat(ids(search(LOADER, "okapi sightings", 10, null))).doesNotContain("old-memo");
    assertThat(ids(search(LOADER, "okapi sightings", 10, "docs"))).doesNotContain("old-memo");
  }

  // ---- access labels -----------------------------------------------------------------------------

  @Test
  void labelsDecideWhatSearchAndPackSee() throws Exception {
    // The labelled document is the best match; alice may not read it, so it is never a candidate.
    assertThat(first(search(LOADER, "salary bands 2026 engineers", 1, null))).isEqualTo("salaries");
    assertThat(first(search(HR, "salary bands 2026 engineers", 1, null))).isEqualTo("salaries");
    JsonNode alice = search(ALICE, "salary bands 2026 engineers", 1, null);
    assertThat(alice.path("results")).hasSize(1);
    assertThat(first(alice)).isNotEqualTo("salaries");
    assertThat(ids(search(ALICE, "salary bands 2026 engineers confidential euros", 50, null)))
        .doesNotContain("salaries").contains("handbook", "roadmap");
    assertThat(ids(search(HR, "ranking model search team", 50, null))).doesNotContain("roadmap");

    JsonNode p = pack(ALICE, "What are the salary bands for engineers in 2026?");
    assertThat(p.path("prompt").asText()).doesNotContain("140,000").doesNotContain("confidential");
    for (JsonNode s : p.path("sources")) assertThat(s.path("docId").asText()).isNotEqualTo("salaries");
    assertThat(pack(HR, "What are the salary bands for engineers in 2026?").path("prompt").asText()).contains("140,000");
  }

  @Test
  void filesIngestedWithLabelsByTheCliWhileServingAreSeenByTheirReadersOnly() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("hr-files"));
    Files.writeString(corpus.resolve("policy.md"), "# Leave policy\n\nParental leave lasts twenty weeks at full pay.\n");
    Files.writeString(corpus.resolve("lines.jsonl"),
        "{\"id\": \"own\", \"text\": \"Parental leave requests go to the people team.\", \"acl\": [\"eng\"]}\n");
    CliRunner bad = CliRunner.run("ingest", "--index", dir.resolve("acme/files").toString(), "--acl", "a,b", corpus.toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--acl").contains("comma");
    CliRunner in = CliRunner.run("ingest", "--index", dir.resolve("acme/files").toString(), "--no-embed", "--acl", "hr",
        corpus.toString());
    assertThat(in.code()).as(in.err()).isZero();
    // The service picks up the other process's commit (it checks at most once a second).
    List<String> hr = List.of();
    for (int i = 0; i < 100 && hr.isEmpty(); i++) {
      Thread.sleep(100);
      hr = ids(search(HR, "parental leave", 10, "files"));
    }
    assertThat(hr).hasSize(1).allMatch(id -> !id.equals("own"));
    // The JSON Lines document kept its own labels; --acl only labels the unlabelled.
    assertThat(ids(search(ALICE, "parental leave", 10, "files"))).containsExactly("own");
    assertThat(ids(search(LOADER, "parental leave", 10, "files"))).hasSize(2);
  }

  // ---- documents ---------------------------------------------------------------------------------

  @Test
  void documentsAreAddedUnchangedReplacedAndRemoved() throws Exception {
    String doc = "{\"documents\": [{\"id\": \"notes/2026 q1\", \"text\": \"Quarterly notes mention the wombat project.\"}]}";
    assertThat(ok(post("/v1/documents", LOADER, doc)).path("added").asInt()).isEqualTo(1);
    assertThat(ok(post("/v1/documents", LOADER, doc)).path("unchanged").asInt()).isEqualTo(1);
    assertThat(ids(search(ALICE, "wombat project", 5, null))).contains("notes/2026 q1");
    JsonNode replaced = ok(post("/v1/documents", LOADER,
        "{\"documents\": [{\"id\": \"notes/2026 q1\", \"text\": \"Quarterly notes now mention the numbat project.\", \"acl\": [\"hr\"]}]}"));
    assertThat(replaced.path("updated").asInt()).isEqualTo(1);
    assertThat(ids(search(ALICE, "numbat wombat project", 5, null))).doesNotContain("notes/2026 q1");
    assertThat(ids(search(HR, "numbat project", 5, null))).contains("notes/2026 q1");

    // An id with a slash and a space, percent-encoded in the path.
    String path = "/v1/documents/" + URLEncoder.encode("notes/2026 q1", StandardCharsets.UTF_8).replace("+", "%20");
    JsonNode removed = ok(delete(path, LOADER));
    assertThat(removed.path("removed").asInt()).isEqualTo(1);
    assertThat(ids(search(HR, "numbat project", 5, null))).doesNotContain("notes/2026 q1");
    assertThat(delete(path, LOADER).statusCode()).isEqualTo(404);
  }

  @Test
  void badDocumentsAreRefusedNamingTheFieldAndNothingIsWritten() throws Exception {
    int before = search(LOADER, "pangolin", 50, null).path("results").size();
    for (String[] c : new String[][] {
        {"{\"documents\": [{\"id\": \"p1\", \"text\": \"pangolin one\"}, {\"id\": \"p2\"}]}", "documents[1]", "text"},
        {"{\"documents\": [{\"id\": \"p1\", \"text\": \"pangolin\", \"acl\": [\"a,b\"]}]}", "documents[0]", "acl"},
        {"{\"documents\": [{\"id\": \"p1\", \"text\": \"pangolin\", \"acl\": \"hr\"}]}", "documents[0]", "acl"},
        {"{\"documents\": [{\"text\": \"pangolin\"}]}", "documents[0]", "id"},
        {"{\"documents\": [{\"id\": \"p1\", \"text\": \"pangolin\"}, {\"id\": \"p1\", \"text\": \"pangolin\"}]}", "documents[1]", "twice"},
        {"{\"documents\": []}", "documents", "empty"},
        {"{\"documents\": {}}", "documents", "list"},
        {"{\"collection\": 7, \"documents\": [{\"id\": \"p1\", \"text\": \"pangolin\"}]}", "collection", "string"}}) {
      HttpResponse<String> r = post("/v1/documents", LOADER, c[0]);
      assertThat(r.statusCode()).as(c[0]).isEqualTo(400);
      assertThat(Json.parseObject(r.body()).path("error").path("message").asText()).as(c[0]).contains(c[1]).contains(c[2]);
    }
    assertThat(search(LOADER, "pangolin", 50, null).path("results").size()).isEqualTo(before);
  }

  @Test
  void searchesWhileDocumentsAreWrittenSeeAllOfADocumentOrNone() throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      text.append("Paragraph ").append(i).append(" of the capybara census counts herds near river ").append(i)
          .append(" and records their size, age and grazing range in detail for the annual report. ");
    }
    ObjectNode body = Json.object();
    ArrayNode docs = body.putArray("documents");
    docs.addObject().put("id", "census").put("text", text.toString());
    AtomicBoolean writing = new AtomicBoolean(true);
    List<Integer> seen = new ArrayList<>();
    CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
      try {
        while (writing.get()) seen.add(chunksOf("census", search(ALICE, "capybara census herds river", 200, null, "bm25")));
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    JsonNode added = ok(post("/v1/documents", LOADER, Json.line(body)));
    int chunks = added.path("chunks").asInt();
    Thread.sleep(50);
    writing.set(false);
    reader.get();
    seen.add(chunksOf("census", search(ALICE, "capybara census herds river", 200, null, "bm25")));
    assertThat(chunks).isGreaterThan(5);
    assertThat(seen).isNotEmpty().allMatch(n -> n == 0 || n == chunks);
    assertThat(seen.get(seen.size() - 1)).isEqualTo(chunks);
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private static int chunksOf(String docId, JsonNode results) {
    int n = 0;
    for (JsonNode r : results.path("results")) if (r.path("docId").asText().equals(docId)) n++;
    return n;
  }

  private static JsonNode search(String key, String query, int k, String collection) throws Exception {
    return search(key, query, k, collection, null);
  }

  private static JsonNode search(String key, String query, int k, String collection, String mode) throws Exception {
    ObjectNode req = Json.object().put("query", query).put("k", k);
    if (collection != null) req.put("collection", collection);
    if (mode != null) req.put("mode", mode);
    return ok(post("/v1/search", key, Json.line(req)));
  }

  private static JsonNode pack(String key, String query) throws Exception {
    return ok(post("/v1/pack", key, Json.line(Json.object().put("query", query).put("budget", 600))));
  }

  private static List<String> ids(JsonNode results) {
    List<String> out = new ArrayList<>();
    for (JsonNode r : results.path("results")) out.add(r.path("docId").asText());
    return out;
  }

  private static String first(JsonNode results) {
    return results.path("results").path(0).path("docId").asText();
  }

  private static JsonNode ok(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.parseObject(r.body());
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  private static HttpResponse<String> post(String path, String key, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) b.header("Authorization", "Bearer " + key);
    return send(b);
  }

  private static HttpResponse<String> delete(String path, String key) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).DELETE().header("Authorization", "Bearer " + key));
  }

  private static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
