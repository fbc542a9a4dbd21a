package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.index.IndexSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ctxpack serve} parses its options into a {@link ServiceConfig}, and refuses a bad one before listening. */
class ServeCommandTest {
  @TempDir Path dir;

  private ServeCommand parse(String... args) {
    ServeCommand c = new ServeCommand();
    new CommandLine(c).parseArgs(args);
    c.defaultIndex = dir.resolve("nowhere");
    return c;
  }

  @Test
  void withNoOptionsTheConfigHasTheServicesDefaults() throws Exception {
    Assumptions.assumeTrue(System.getenv("CTXPACK_INDEX") == null, "CTXPACK_INDEX names an index");
    ServiceConfig c = parse().config();
    assertThat(c).isEqualTo(ServiceConfig.builder().build());
    assertThat(c.host()).isEqualTo("127.0.0.1");
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.index()).as("no index given and none at ./.ctxpack").isNull();
    assertThat(c.embedder()).isEqualTo("minilm");
    assertThat(c.maxBodyBytes()).isEqualTo(10L * 1024 * 1024);
    assertThat(c.requestTimeoutMillis()).isEqualTo(30_000);
    assertThat(c.maxConcurrent()).isEqualTo(2 * Runtime.getRuntime().availableProcessors());
    assertThat(c.maxQueued()).isEqualTo(256);
    assertThat(c.llm()).isNull();
  }

  @Test
  void eachOptionLandsInItsField() throws Exception {
    Path tenants = dir.resolve("tenants.json");
    ServiceConfig c = parse("--host", "0.0.0.0", "--port", "0", "--tenants", tenants.toString(), "--embedder", "none",
        "--max-body-bytes", "1024", "--request-timeout-ms", "500", "--max-concurrent", "3", "--max-queued", "0").config();
    assertThat(c).isEqualTo(ServiceConfig.builder().host("0.0.0.0").port(0).tenants(tenants).embedder("none")
        .maxBodyBytes(1024).requestTimeoutMillis(500).maxConcurrent(3).maxQueued(0).build());
    ServiceConfig m = parse("--index", "lucene:" + dir.resolve("idx"), "--memory", dir.resolve("mem").toString()).config();
    assertThat(m.index()).isEqualTo(IndexSpec.parse("lucene:" + dir.resolve("idx")));
    assertThat(m.memory()).isEqualTo(IndexSpec.ofPath(dir.resolve("mem")));
  }

  @Test
  void theDefaultIndexIsServedOnlyIfItExists() throws Exception {
    Assumptions.assumeTrue(System.getenv("CTXPACK_INDEX") == null, "CTXPACK_INDEX names an index");
    Path index = dir.resolve("idx");
    assertThat(CliRunner.run("ingest", "--index", index.toString(), "--no-embed", "--format", "json",
        Files.writeString(dir.resolve("tea.txt"), "Green tea is brewed at 80 degrees.").toString()).code()).isZero();
    ServeCommand c = parse();
    assertThat(c.config().index()).isNull();
    c.defaultIndex = index;
    assertThat(c.config().index()).isEqualTo(IndexSpec.ofPath(index));
  }

  @Test
  void serveRefusesABadTenantsFileAndTenantsWithAnIndexBeforeListening() throws Exception {
    Path file = Files.writeString(dir.resolve("bad.json"), "{\"tenants\": {}}");
    CliRunner bad = CliRunner.run("serve", "--tenants", file.toString(), "--port", "0");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--tenants " + file).contains("tenants must be an object");
    CliRunner both = CliRunner.run("serve", "--tenants", file.toString(), "--index", dir.toString(), "--port", "0");
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err()).contains("not both");
    CliRunner memory = CliRunner.run("serve", "--tenants", file.toString(), "--memory", dir.toString(), "--port", "0");
    assertThat(memory.code()).isEqualTo(2);
    assertThat(memory.err()).contains("--memory is for one index");
  }

  @Test
  void aLimitOutOfRangeIsAUsageErrorNamingTheOption() {
    for (String[] c : new String[][] {{"--max-queued", "-1"}, {"--max-queued", "10001"}, {"--max-concurrent", "0"},
        {"--request-timeout-ms", "0"}, {"--max-body-bytes", "0"}, {"--port", "70000"}}) {
      CliRunner r = CliRunner.run("serve", c[0], c[1], "--embedder", "none");
      assertThat(r.code()).as(String.join(" ", c)).isEqualTo(2);
      assertThat(r.err()).as(String.join(" ", c)).startsWith("error: " + c[0] + " must be").contains(c[1]);
    }
  }
}
