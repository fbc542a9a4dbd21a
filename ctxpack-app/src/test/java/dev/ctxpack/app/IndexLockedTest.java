package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.text.TextNormalizer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process holds the index's write lock: ingest and remove fail with one line that names the
 * index and says what to do (exit code 1), the service answers a document write 503, and once the
 * other process is gone the same command works.
 */
class IndexLockedTest {
  @TempDir Path dir;

  @Test
  void aWriteLockHeldByAnotherProcessIsOneLineNamingTheIndex() throws Exception {
    Path index = dir.resolve("my-index");
    String green = "Green tea is brewed at about 80 degrees for two minutes.";
    Files.writeString(dir.resolve("a.txt"), green);
    Files.writeString(dir.resolve("b.txt"), "Black tea takes boiling water and four to five minutes.");
    CliRunner first = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", dir.resolve("a.txt").toString());
    assertThat(first.code()).as(first.err()).isZero();

    // The child's stderr apart from the line this test reads: on JDK 21+ Lucene logs how it maps files
    // there. Native access is granted as the CLI jar's manifest grants it.
    Path childErr = dir.resolve("holder.err");
    Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        LockHoldingChild.class.getName(), index.toString())
        .redirectError(childErr.toFile()).start();
    try {
      BufferedReader r = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertThat(r.readLine()).as("the child's stderr: %s", childErr.toFile().exists() ? Files.readString(childErr) : "")
          .isEqualTo("LOCKED");

      String line = "error: index " + index + " is being written by another process (a running ctxpack ingest or serve?):"
          + " wait for it or stop it\n";
      CliRunner ingest = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", dir.resolve("b.txt").toString());
      assertThat(ingest.code()).isEqualTo(1);
      assertThat(ingest.err()).isEqualTo(line);
      assertThat(ingest.out()).isEmpty();
      CliRunner remove = CliRunner.run("remove", "--index", index.toString(), TextNormalizer.contentId(green));
      assertThat(remove.code()).isEqualTo(1);
      assertThat(remove.err()).isEqualTo(line);

      // The service keeps serving reads and answers a write 503: worth retrying once the other process is done.
      try (Service server = Service.start(ServiceConfig.builder().index(IndexSpec.ofPath(index)).port(0).build(),
              ServiceLog.text(new PrintWriter(new StringWriter(), true)))) {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/documents"))
            .POST(HttpRequest.BodyPublishers.ofString("{\"documents\": [{\"id\": \"c\", \"text\": \"Oolong tea.\"}]}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(503);
        assertThat(Json.MAPPER.readTree(post.body()).at("/error/code").asText()).isEqualTo("unavailable");
        assertThat(Json.MAPPER.readTree(post.body()).at("/error/message").asText()).contains("being written by another process");
        HttpResponse<String> search = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/search"))
            .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"green tea\", \"mode\": \"bm25\"}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
      }
    } finally {
      holder.getOutputStream().close();
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    CliRunner after = CliRunner.run("ingest", "--index", index.toString(), "--no-embed", dir.resolve("b.txt").toString());
    assertThat(after.code()).as(after.err()).isZero();
  }
}
