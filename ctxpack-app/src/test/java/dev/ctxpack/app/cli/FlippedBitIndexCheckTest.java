package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.http.Service;
import dev.ctxpack.app.http.ServiceConfig;
import dev.ctxpack.app.http.ServiceLog;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 4: a flipped bit in a copied index silently changed results (Lucene verifies most
 * files only when it merges them). {@code ctxpack check} reads every file of the index and of its
 * memory store against its checksum: each of 80 single-bit flips at seeded random positions of a
 * real index (MiniLM vectors, two segments, memories) is reported, exit 1 with the store, segment
 * and file named; the intact copy exits 0. {@code serve --check-on-start} refuses to start on a damaged one.
 */
class FlippedBitIndexCheckTest {
  @TempDir Path dir;

  @Test
  void everyOneOf80SingleBitFlipsIsReportedAndTheIntactCopyPasses() throws Exception {
    Path original = dir.resolve("idx");
    Files.writeString(dir.resolve("coffee.txt"), "Coffee is a brewed drink prepared from roasted coffee beans."
        + " Caffeine in coffee acts as a stimulant of the central nervous system.");
    Files.writeString(dir.resolve("guia.md"), "# Guia\n\nA renovação de matrícula ocorre semestralmente, no período"
        + " previsto no calendário acadêmico.\n");
    // Two ingests: two segments, each with its postings, stored fields and HNSW vectors.
    for (String f : List.of("coffee.txt", "guia.md")) {
      CliRunner in = CliRunner.run("ingest", "--index", original.toString(), dir.resolve(f).toString());
      assertThat(in.code()).as(in.err()).isZero();
    }
    for (String user : List.of("ana", "bob")) {
      CliRunner m = CliRunner.run("memory", "add", "--index", original.toString(), "--user", user, "--kind", "fact",
          "--text", user + " prefers answers in Portuguese");
      assertThat(m.code()).as(m.err()).isZero();
    }
    Path copy = dir.resolve("copy");
    copyTree(original, copy);

    CliRunner intact = check(copy);
    assertThat(intact.code()).as(intact.err()).isZero();
    assertThat(intact.err()).isEmpty();
    JsonNode ok = intact.json();
    assertThat(ok.get("intact").asBoolean()).isTrue();
    assertThat(ok.get("stores")).hasSize(2);
    assertThat(ok.get("stores").get(0).get("store").asText()).isEqualTo("index");
    assertThat(ok.get("stores").get(1).get("store").asText()).isEqualTo("memory");
    List<Path> files = storedFiles(copy);
    long total = 0;
    for (Path f : files) total += Files.size(f);
    assertThat(ok.get("stores").get(0).get("bytes").asLong() + ok.get("stores").get(1).get("bytes").asLong())
        .as("every byte of the copy is verified").isEqualTo(total);

    Random random = new Random(23);
    List<String> missed = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      long at = (long) (random.nextDouble() * total);
      int bit = random.nextInt(8);
      Path file = null;
      for (Path f : files) {
        if (at < Files.size(f)) {
          file = f;
          break;
        }
        at -= Files.size(f);
      }
      byte[] bytes = Files.readAllBytes(file);
      byte was = bytes[(int) at];
      bytes[(int) at] = (byte) (was ^ (1 << bit));
      Files.write(file, bytes);
      try {
        CliRunner r = check(copy);
        String name = file.getFileName().toString();
        String store = file.getParent().equals(copy) ? "index" : "memory";
        String flip = copy.relativize(file) + " byte " + at + " bit " + bit;
        if (r.code() != 1 || !named(r.json(), store, name)) {
          missed.add(flip + ": exit " + r.code() + " " + r.out());
          continue;
        }
        assertThat(r.err()).as(flip).startsWith("error: " + store + " ").contains("is damaged").contains(name);
        if (name.startsWith("_")) assertThat(r.err()).as(flip).contains("segment _" + name.split("[._]")[1] + ", file " + name);
        else assertThat(r.err()).as(flip).contains("commit point");
      } finally {
        bytes[(int) at] = was;
        Files.write(file, bytes);
      }
    }
    assertThat(missed).as("flips check did not report").isEmpty();

    CliRunner restored = check(copy);
    assertThat(restored.code()).as(restored.err()).isZero();
    assertThat(restored.out()).isEqualTo(intact.out());
  }

  @Test
  void theTextReportNamesTheDamagedSegmentAndFile() throws Exception {
    Path idx = dir.resolve("idx");
    Files.writeString(dir.resolve("tea.txt"), "Tea is an aromatic beverage prepared by pouring hot water over cured leaves.");
    assertThat(CliRunner.run("ingest", "--index", idx.toString(), "--no-embed", dir.resolve("tea.txt").toString()).code()).isZero();
    CliRunner ok = CliRunner.run("check", "--index", idx.toString());
    assertThat(ok.code()).as(ok.err()).isZero();
    assertThat(ok.out()).startsWith("index " + idx + ": intact (").contains("memory " + idx.resolve("memory") + ": nothing stored yet");
    Path segmentFile;
    try (Stream<Path> s = Files.list(idx)) {
      segmentFile = s.filter(p -> p.getFileName().toString().startsWith("_0")).sorted().findFirst().orElseThrow();
    }
    byte[] b = Files.readAllBytes(segmentFile);
    b[b.length / 2] ^= 0x10;
    Files.write(segmentFile, b);
    CliRunner bad = CliRunner.run("check", "--index", idx.toString());
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.out()).contains("index " + idx + ": DAMAGED (1 of ")
        .contains("  segment _0, file " + segmentFile.getFileName() + ": ");
    assertThat(bad.err().lines().count()).isEqualTo(1);
    assertThat(bad.err()).startsWith("error: index " + idx + " is damaged: segment _0, file " + segmentFile.getFileName());
  }

  @Test
  void serveCheckOnStartRefusesADamagedIndexOrMemoryStoreAndStartsOnAnIntactOne() throws Exception {
    Path idx = dir.resolve("idx");
    Files.writeString(dir.resolve("tea.txt"), "Tea is an aromatic beverage prepared by pouring hot water over cured leaves.");
    assertThat(CliRunner.run("ingest", "--index", idx.toString(), "--no-embed", dir.resolve("tea.txt").toString()).code()).isZero();
    assertThat(CliRunner.run("memory", "add", "--index", idx.toString(), "--user", "ana", "--kind", "fact",
        "--text", "Ana drinks green tea.").code()).isZero();
    StringWriter log = new StringWriter();
    ServiceConfig config = ServiceConfig.builder().index(IndexSpec.ofPath(idx)).port(0).embedder("none").checkOnStart(true).build();
    try (Service s = Service.start(config, ServiceLog.text(new PrintWriter(log, true)))) {
      assertThat(s.port()).isPositive();
    }
    assertThat(log.toString()).contains("checked 1 indexes and their memory stores").contains("intact");
    for (Path store : List.of(idx, idx.resolve("memory"))) {
      Path file;
      try (Stream<Path> s = Files.list(store)) {
        file = s.filter(p -> p.getFileName().toString().endsWith(".cfs")).sorted().findFirst().orElseThrow();
      }
      byte[] b = Files.readAllBytes(file);
      b[b.length / 3] ^= 0x01;
      Files.write(file, b);
      String role = store.equals(idx) ? "index" : "memory";
      assertThatThrownBy(() -> Service.start(config, ServiceLog.text(new PrintWriter(new StringWriter(), true))))
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("--check-on-start: " + role + " " + store + " is damaged: segment _0, file " + file.getFileName());
      CliRunner serve = CliRunner.run("serve", "--index", idx.toString(), "--port", "0", "--embedder", "none", "--check-on-start");
      assertThat(serve.code()).isEqualTo(1);
      assertThat(serve.err()).contains("is damaged: segment _0, file " + file.getFileName()).doesNotContain("listening");
      b[b.length / 3] ^= 0x01;
      Files.write(file, b);
    }
  }

  @Test
  void noIndexIsAFailureNamingTheDirectory() {
    CliRunner r = CliRunner.run("check", "--index", dir.resolve("none").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("no index at " + dir.resolve("none"));
  }

  private static CliRunner check(Path index) {
    return CliRunner.run("check", "--index", index.toString(), "--format", "json");
  }

  /** Whether the report names {@code file} as damaged in {@code store}, with its segment. */
  private static boolean named(JsonNode report, String store, String file) {
    if (report.get("intact").asBoolean()) return false;
    for (JsonNode s : report.get("stores")) {
      if (!s.get("store").asText().equals(store)) continue;
      for (JsonNode d : s.get("damaged")) {
        if (!d.get("file").asText().equals(file)) continue;
        String segment = d.get("segment").isNull() ? null : d.get("segment").asText();
        return file.startsWith("_") ? file.startsWith(segment + ".") || file.startsWith(segment + "_") : segment == null;
      }
    }
    return false;
  }

  /** The files a flip may land in: every regular file of the index and its memory store but the (empty) write locks. */
  private static List<Path> storedFiles(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("write.lock")).sorted().toList();
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.sorted().toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(t);
        else Files.copy(p, t);
      }
    }
  }
}
