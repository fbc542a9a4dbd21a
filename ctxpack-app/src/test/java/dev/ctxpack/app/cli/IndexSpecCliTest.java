package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --index} takes a spec: {@code lucene:DIR} and a bare path are one index; an unknown backend is named. */
class IndexSpecCliTest {
  @TempDir Path dir;

  @Test
  void aLuceneSpecAndABarePathNameTheSameIndex() throws Exception {
    Path index = dir.resolve("idx");
    Path doc = Files.writeString(dir.resolve("tea.txt"), "Green tea is brewed at about 80 degrees for two minutes.");
    CliRunner in = CliRunner.run("ingest", "--index", "lucene:" + index, "--no-embed", doc.toString());
    assertThat(in.code()).as(in.err()).isZero();
    CliRunner search = CliRunner.run("search", "--index", index.toString(), "-q", "green tea", "--mode", "bm25");
    assertThat(search.code()).as(search.err()).isZero();
    assertThat(search.out()).contains("Green tea is brewed");
    CliRunner memory = CliRunner.run("memory", "add", "--index", "lucene:" + index, "--user", "ana", "--kind", "fact",
        "--text", "Ana prefers short answers.");
    assertThat(memory.code()).as(memory.err()).isZero();
    assertThat(Files.isDirectory(index.resolve("memory"))).isTrue();
    CliRunner list = CliRunner.run("memory", "list", "--index", index.toString(), "--user", "ana");
    assertThat(list.out()).contains("Ana prefers short answers.");
  }

  @Test
  void anUnknownBackendIsAUsageErrorNamingTheModuleToAdd() {
    CliRunner r = CliRunner.run("search", "--index", "elastic:http://es:9200/docs", "-q", "tea");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("error: unknown index backend 'elastic' in 'elastic:http://es:9200/docs': add the"
        + " ctxpack-elastic module to the classpath (known: lucene, solr, solr+zk)\n");
    CliRunner blank = CliRunner.run("search", "--index", "lucene:", "-q", "tea");
    assertThat(blank.code()).isEqualTo(2);
    assertThat(blank.err()).isEqualTo("error: --index: index spec 'lucene:' names no location\n");
  }
}
