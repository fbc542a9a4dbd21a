package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.index.IndexSpec;
import java.io.BufferedReader;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI over SolrCloud end to end: {@code ctxpack solr dev} starts a real 3-node cluster (a child
 * JVM, loopback), {@code solr init} makes a 2 × 2 collection, and every command of the pipeline
 * gives over it exactly the JSON it gives over the embedded index of the same files: ingest,
 * search (every mode), pack, assemble, corpus-report, remove, and {@code serve}.
 */
class SolrCliEndToEndTest {
  @TempDir static Path dir;
  static Thread devThread;
  static final AtomicInteger devExit = new AtomicInteger(-1);
  static final List<JsonNode> devEvents = new ArrayList<>();
  static String cluster;
  static String solr;
  static String embedded;

  @BeforeAll
  static void startClusterAndIngestBoth() throws Exception {
    PipedWriter pipe = new PipedWriter();
    BufferedReader lines = new BufferedReader(new PipedReader(pipe, 1 << 16));
    PrintWriter out = new PrintWriter(pipe, true);
    devThread = new Thread(() -> {
      devExit.set(Main.run(new String[] {"solr", "dev", "--nodes", "3", "--dir", dir.resolve("solr").toString(), "--zk-port", "0",
          "--format", "json"}, out, new PrintWriter(new StringWriter())));
      out.close();
    }, "solr-dev");
    devThread.start();
    JsonNode ready = Json.MAPPER.readTree(lines.readLine());
    devEvents.add(ready);
    assertThat(ready.get("event").asText()).isEqualTo("ready");
    cluster = ready.get("index").asText();
    assertThat(cluster).startsWith("solr+zk://127.0.0.1:");
    Thread drain = new Thread(() -> {
      try {
        for (String l = lines.readLine(); l != null; l = lines.readLine()) {
          synchronized (devEvents) {
            devEvents.add(Json.MAPPER.readTree(l));
          }
        }
      } catch (Exception e) {
        // the pipe closed with the command
      }
    }, "solr-dev-out");
    drain.setDaemon(true);
    drain.start();

    solr = cluster + "/handbook";
    embedded = dir.resolve("embedded").toString();
    CliRunner init = CliRunner.run("solr", "init", "--index", solr, "--shards", "2", "--replicas", "2", "--format", "json");
    assertThat(init.code()).as(init.err()).isZero();
    assertThat(init.json().get("created").asBoolean()).isTrue();
    assertThat(init.json().get("shards").asInt()).isEqualTo(2);
    assertThat(init.json().get("replicas").asInt()).isEqualTo(2);

    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    Files.writeString(corpus.resolve("leave.md"), "# Leave policy\n\nEmployees take 25 days of paid leave a year. "
        + "Unused days expire at the end of March. Parental leave lasts 20 weeks.\n");
    Files.writeString(corpus.resolve("salary.md"), "# Salary bands\n\nSalary bands are reviewed every March by the pay committee. "
        + "Engineers move up a band after a review by their manager.\n");
    Files.writeString(corpus.resolve("ferias.md"), "# Férias\n\nOs funcionários têm direito a 30 dias de férias por ano. "
        + "As férias não gozadas vencem em março. A licença-maternidade dura 120 dias.\n");
    Files.writeString(corpus.resolve("copy-of-leave.md"), Files.readString(corpus.resolve("leave.md")));
    for (String idx : List.of(embedded, solr)) {
      CliRunner in = CliRunner.run("ingest", "--index", idx, "--format", "json", corpus.toString());
      assertThat(in.code()).as(idx + ": " + in.err()).isZero();
      assertThat(in.json().get("added").asInt()).isEqualTo(3);
      assertThat(in.json().get("duplicates").asInt()).isEqualTo(1);
    }
  }

  @AfterAll
  static void stopCluster() throws Exception {
    // SIGTERM to the dev cluster's JVM, as Ctrl-C would send: it stops cleanly and the command exits 0.
    ProcessHandle.current().descendants().filter(p -> p.info().commandLine().orElse("").contains("ctxpack-solr-dev.jar"))
        .forEach(ProcessHandle::destroy);
    devThread.join(TimeUnit.SECONDS.toMillis(60));
    assertThat(devExit.get()).isZero();
    synchronized (devEvents) {
      assertThat(devEvents.get(devEvents.size() - 1).get("event").asText()).isEqualTo("stopped");
    }
  }

  private static String both(String... args) {
    List<String> outs = new ArrayList<>();
    for (String idx : List.of(embedded, solr)) {
      List<String> a = new ArrayList<>(List.of(args));
      a.addAll(List.of("--index", idx, "--format", "json"));
      CliRunner r = CliRunner.run(a.toArray(String[]::new));
      assertThat(r.code()).as(String.join(" ", a) + ": " + r.err()).isZero();
      outs.add(r.out());
    }
    assertThat(outs.get(1)).as(String.join(" ", args)).isEqualTo(outs.get(0));
    return outs.get(0);
  }

  @Test
  void everyCommandGivesOverSolrTheJsonItGivesOverTheEmbeddedIndex() throws Exception {
    for (String mode : List.of("bm25", "dense", "hybrid")) {
      String out = both("search", "-q", "When do unused leave days expire?", "-k", "5", "--mode", mode);
      assertThat(out).contains("leave");
    }
    assertThat(both("search", "-q", "férias vencem", "-k", "3", "--mode", "bm25")).contains("\"title\":\"Férias\"");
    String pack = both("pack", "-q", "How long is parental leave?", "--budget", "400");
    assertThat(Json.MAPPER.readTree(pack).get("sources").size()).isPositive();
    both("pack", "-q", "Quantos dias de férias por ano?", "--preset", "low");
    Path request = dir.resolve("request.json");
    Files.writeString(request, "{\"model\": \"gpt-4o\", \"window\": 3000, \"reserve\": 500, \"system\": \"Answer from the sources.\","
        + " \"query\": \"Who reviews salary bands?\"}");
    both("assemble", "--request", request.toString());
    JsonNode report = Json.MAPPER.readTree(both("corpus-report"));
    assertThat(report.get("documents").asInt()).isEqualTo(3);
    assertThat(report.get("exact").size()).isEqualTo(1);
    String removed = both("remove", report.get("exact").get(0).get("original").get("id").asText());
    assertThat(Json.MAPPER.readTree(removed).get("removed").asInt()).isEqualTo(1);
    assertThat(both("search", "-q", "unused leave days", "-k", "5", "--mode", "bm25")).doesNotContain("Leave policy");
  }

  @Test
  void aShardWithNoReplicaIsReportedAsPartialWhenTheSpecToleratesItAndFailsTheRequestWhenNot() throws Exception {
    String strict = cluster + "/partial";
    String tolerant = strict + "?shards.tolerant=true";
    CliRunner init = CliRunner.run("solr", "init", "--index", tolerant, "--shards", "2", "--replicas", "1", "--format", "json");
    assertThat(init.code()).as(init.err()).isZero();
    CliRunner in = CliRunner.run("ingest", "--index", tolerant, "--format", "json", dir.resolve("corpus").toString());
    assertThat(in.code()).as(in.err()).isZero();
    // shard1 loses its only replica: its documents are gone from every answer until it has one again.
    List<String> lost = new ArrayList<>();
    URI zk = URI.create(cluster.substring("solr+".length()));
    try (org.apache.solr.client.solrj.impl.CloudSolrClient client = new org.apache.solr.client.solrj.impl.CloudLegacySolrClient.Builder(
        List.of(zk.getAuthority()), java.util.Optional.of(zk.getPath())).build()) {
      client.connect();
      org.apache.solr.client.solrj.SolrQuery docs = new org.apache.solr.client.solrj.SolrQuery("*:*").setRows(100).setFields("docKey");
      docs.set("shards", "shard1");
      for (var d : client.query("partial", docs).getResults()) lost.add((String) d.getFieldValue("docKey"));
      var shard1 = client.getClusterState().getCollection("partial").getSlice("shard1");
      org.apache.solr.client.solrj.request.CollectionAdminRequest.deleteReplica("partial", "shard1",
          shard1.getReplicas().iterator().next().getName()).process(client);
    }

    CliRunner search = CliRunner.run("search", "-q", "leave salary férias", "-k", "10", "--mode", "bm25", "--index", tolerant,
        "--format", "json");
    assertThat(search.code()).as(search.err()).isZero();
    assertThat(search.json().get("partial").asBoolean()).isTrue();
    assertThat(search.json().get("missingShards").toString()).isEqualTo("[\"shard1\"]");
    for (JsonNode r : search.json().get("results")) assertThat(lost).doesNotContain(r.get("docId").asText());

    CliRunner pack = CliRunner.run("pack", "-q", "How long is parental leave?", "--budget", "400", "--index", tolerant,
        "--format", "json");
    assertThat(pack.code()).as(pack.err()).isZero();
    assertThat(pack.json().get("partial").asBoolean()).isTrue();
    assertThat(pack.json().get("missingShards").toString()).isEqualTo("[\"shard1\"]");
    assertThat(pack.json().get("trace").toString()).contains("\"action\":\"partial\",\"rule\":\"shards-missing\",\"ids\":[\"shard1\"]");
    CliRunner text = CliRunner.run("pack", "-q", "How long is parental leave?", "--budget", "400", "--index", tolerant);
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.err()).contains("partial: shard shard1 has no live replica");

    Path request = dir.resolve("partial-request.json");
    Files.writeString(request, "{\"model\": \"gpt-4o\", \"window\": 3000, \"reserve\": 500, \"query\": \"Who reviews salary bands?\"}");
    CliRunner assemble = CliRunner.run("assemble", "--request", request.toString(), "--index", tolerant, "--format", "json");
    assertThat(assemble.code()).as(assemble.err()).isZero();
    assertThat(assemble.json().get("missingShards").toString()).isEqualTo("[\"shard1\"]");

    // The service says it too, with a 200: the answer is what the live shards hold.
    Service s = Service.start(ServiceConfig.builder().index(IndexSpec.parse(tolerant)).port(0).build(),
        ServiceLog.text(new PrintWriter(new StringWriter(), true)));
    try {
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port()
          + "/v1/search")).POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"salary bands\", \"mode\": \"bm25\"}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(Json.MAPPER.readTree(r.body()).get("missingShards").toString()).isEqualTo("[\"shard1\"]");
    } finally {
      s.close();
    }

    // Without the option the same request fails, naming the collection: never a silent part of the corpus.
    CliRunner failed = CliRunner.run("search", "-q", "salary bands", "--mode", "bm25", "--index", strict, "--format", "json");
    assertThat(failed.code()).isNotZero();
    assertThat(failed.out()).isEmpty();
    assertThat(failed.err()).contains("Solr could not search partial");
  }

  @Test
  void initAgainLeavesTheCollectionAndABadSpecIsAUsageError() {
    CliRunner again = CliRunner.run("solr", "init", "--index", solr, "--shards", "1", "--replicas", "1", "--format", "json");
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.json().get("created").asBoolean()).isFalse();
    assertThat(again.json().get("shards").asInt()).isEqualTo(2);
    CliRunner bad = CliRunner.run("search", "-q", "leave", "--index", cluster + "/", "--format", "json");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).startsWith("error: ").contains("names no collection");
    CliRunner missing = CliRunner.run("search", "-q", "leave", "--index", cluster + "/nothing_here");
    assertThat(missing.code()).isNotZero();
    assertThat(missing.err()).contains("nothing_here");
    CliRunner notSolr = CliRunner.run("solr", "init", "--index", dir.resolve("x").toString());
    assertThat(notSolr.code()).isEqualTo(2);
    assertThat(notSolr.err()).contains("is not a Solr spec");
  }

  @Test
  void serveAnswersOverSolrAsOverTheEmbeddedIndex() throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    List<String> answers = new ArrayList<>();
    for (String idx : List.of(embedded, solr)) {
      Service s = Service.start(ServiceConfig.builder().index(IndexSpec.parse(idx)).port(0).build(),
          ServiceLog.text(new PrintWriter(new StringWriter(), true)));
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/v1/pack"))
            .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"Who reviews salary bands?\", \"budget\": 300}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        answers.add(r.body());
      } finally {
        s.close();
      }
    }
    assertThat(answers.get(1)).isEqualTo(answers.get(0));
    assertThat(answers.get(0)).contains("pay committee");
  }
}
