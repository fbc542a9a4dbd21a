package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.onnx.UserCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The demo builds its index once, reuses it, and gives the same packages either way. */
class DemoCacheTest {
  private static String afterHeader(String out) {
    return out.substring(out.indexOf("=".repeat(78)));
  }

  @Test
  void aSecondDemoReusesTheCachedIndexAndAnswersTheSame() throws Exception {
    CliRunner first = CliRunner.run("demo", "--no-embed", "--fresh");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).contains("ingested 420 documents").contains("(cached)");

    CliRunner second = CliRunner.run("demo", "--no-embed");
    assertThat(second.code()).as(second.err()).isZero();
    assertThat(second.out()).contains("reused the index of 420 documents").contains("--fresh rebuilds it");
    assertThat(afterHeader(second.out())).isEqualTo(afterHeader(first.out()));

    Path root = UserCache.directory().resolve("demo");
    try (Stream<Path> s = Files.list(root)) {
      assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".build-")).toList())
          .as("no half-built index left").isEmpty();
    }
  }

  @Test
  void anIncompleteCacheEntryIsRebuiltNotUsed() throws Exception {
    CliRunner built = CliRunner.run("demo", "--no-embed", "--format", "json");
    assertThat(built.code()).as(built.err()).isZero();
    Path root = UserCache.directory().resolve("demo");
    java.util.List<Path> markers;
    try (Stream<Path> s = Files.list(root)) {
      markers = s.filter(p -> p.getFileName().toString().endsWith(".done")).toList();
    }
    assertThat(markers).isNotEmpty();
    for (Path m : markers) Files.delete(m); // as a run killed before it finished would leave it
    CliRunner again = CliRunner.run("demo", "--no-embed");
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.out()).contains("ingested 420 documents");
    try (Stream<Path> s = Files.list(root)) {
      assertThat(s.filter(p -> p.getFileName().toString().endsWith(".done")).count()).isEqualTo(1);
    }
  }

  @Test
  void aFirstDemoUnpacksTheShippedIndexAndAnswersAsAFreshIngestDoes() throws Exception {
    assertThat(DemoIndexBundle.manifest()).as("the build ships the demo index (DemoIndexBundle, process-classes)")
        .isNotNull();
    DemoCommand.deleteTree(UserCache.directory().resolve("demo"));
    CliRunner shipped = CliRunner.run("demo");
    assertThat(shipped.code()).as(shipped.err()).isZero();
    assertThat(shipped.out()).contains("unpacked the index of 420 documents").contains("shipped in the jar")
        .contains("(cached)").contains("(BM25 + ");

    CliRunner again = CliRunner.run("demo");
    assertThat(again.out()).contains("reused the index of 420 documents");

    CliRunner fresh = CliRunner.run("demo", "--fresh");
    assertThat(fresh.code()).as(fresh.err()).isZero();
    assertThat(fresh.out()).contains("ingested 420 documents");
    assertThat(afterHeader(shipped.out())).as("the shipped index packs as one ingested here")
        .isEqualTo(afterHeader(fresh.out())).isEqualTo(afterHeader(again.out()));
  }

  @Test
  void aShippedIndexWithAnEntryOutsideItsFolderIsRefusedBeforeWriting(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    for (String bad : new String[] {"../escape", "sub/file", ".hidden"}) {
      var bytes = new java.io.ByteArrayOutputStream();
      try (var zip = new java.util.zip.ZipOutputStream(bytes)) {
        zip.putNextEntry(new java.util.zip.ZipEntry("segments_1"));
        zip.write(1);
        zip.putNextEntry(new java.util.zip.ZipEntry(bad));
        zip.write(2);
      }
      Path target = dir.resolve("t" + bad.hashCode());
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> DemoIndexBundle.unpack(new java.io.ByteArrayInputStream(bytes.toByteArray()), target))
          .isInstanceOf(java.io.IOException.class).hasMessageContaining(bad);
      assertThat(dir.resolve("escape")).doesNotExist();
      assertThat(target.resolve("sub")).doesNotExist();
    }
  }
}
