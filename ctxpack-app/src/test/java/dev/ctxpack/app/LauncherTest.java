package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.app.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./ctxpack} launcher as a user runs it, over the jar this build just made (this test runs
 * in the package phase, after the shade; never in the test phase): the first {@code search} writes
 * a class-data sharing archive into the user cache, renamed into place whole; the next run maps it
 * ({@code -Xshare:on} would stop the JVM if it could not) and answers the same; {@code --version}
 * writes none, {@code CTXPACK_CDS=0} uses none, and writing one keeps the four most recent.
 */
class LauncherTest {
  @TempDir static Path dir;
  private static Path index;

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void smallIndex() throws IOException {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(docs.resolve("a.txt"), "The river delta floods every spring. Farmers move their herds inland.");
    Files.writeString(docs.resolve("b.txt"), "A serra recebe chuvas fortes no verão. As estradas fecham por dias.");
    index = dir.resolve("index");
    StringWriter err = new StringWriter();
    int code = Main.run(new String[] {"ingest", "--index", index.toString(), "--no-embed", docs.toString()},
        new PrintWriter(new StringWriter()), new PrintWriter(err));
    assertThat(code).as(err.toString()).isZero();
  }

  private static Run launch(Path cache, Map<String, String> env, String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("ctxpack").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().put("CTXPACK_CACHE_DIR", cache.toString());
    pb.environment().put("CTXPACK_NO_BUILD", "1"); // never a build inside the build
    pb.environment().putAll(env);
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  private static List<String> files(Path d) throws IOException {
    if (!Files.isDirectory(d)) return List.of();
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void theFirstSearchArchivesTheClassesAndTheNextRunMapsThem() throws Exception {
    Path cache = dir.resolve("cache");
    String[] search = {"search", "--index", index.toString(), "-q", "river delta herds", "-k", "3", "--format", "json"};

    Run version = launch(cache, Map.of(), "--version");
    assertThat(version.code()).as(version.err()).isZero();
    assertThat(files(cache.resolve("cds"))).as("--version writes no archive").isEmpty();

    Run first = launch(cache, Map.of(), search);
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).contains("\"results\"").contains("river delta floods");
    List<String> archives = files(cache.resolve("cds"));
    assertThat(archives).hasSize(1);
    assertThat(archives.get(0)).matches("ctxpack-\\d+\\.jsa");
    assertThat(Files.size(cache.resolve("cds").resolve(archives.get(0)))).isGreaterThan(1_000_000);

    Run mapped = launch(cache, Map.of("CTXPACK_JAVA_OPTS", "-Xshare:on"), search);
    assertThat(mapped.code()).as("-Xshare:on with the archive: " + mapped.err()).isZero();
    assertThat(mapped.out()).isEqualTo(first.out());
    assertThat(mapped.err()).doesNotContain("cds").doesNotContain("warning");
    assertThat(files(cache.resolve("cds"))).isEqualTo(archives);

    Path off = dir.resolve("cache-off");
    Run without = launch(off, Map.of("CTXPACK_CDS", "0"), search);
    assertThat(without.code()).as(without.err()).isZero();
    assertThat(without.out()).isEqualTo(first.out());
    assertThat(files(off.resolve("cds"))).isEmpty();

    // Writing an archive keeps the four most recent: five older ones of other jars or JDKs lose two.
    Path rotated = Files.createDirectories(dir.resolve("cache-rotated").resolve("cds"));
    for (int i = 0; i < 5; i++) {
      Path f = rotated.resolve("ctxpack-" + i + ".jsa");
      Files.writeString(f, "an archive of another jar");
      Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(1_000_000_000L * (i + 1)));
    }
    Run again = launch(rotated.getParent(), Map.of(), search);
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(files(rotated)).containsExactlyInAnyOrder(archives.get(0), "ctxpack-2.jsa", "ctxpack-3.jsa", "ctxpack-4.jsa");
  }
}
