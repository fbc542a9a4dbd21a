package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.WritableIndex;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 (8b): {@code kill -9} lost everything before a file's first commit (512 documents, two
 * minutes), because a file was never split across commits. Now a large file is committed in parts:
 * the real CLI runs in a child JVM on one large JSON Lines file and is killed ({@code
 * destroyForcibly}, SIGKILL) once its progress says the first commit is durable; running the same
 * ingestion again skips what was committed and ends with the index an uninterrupted run makes:
 * every document once, with the same chunks.
 */
class KillMidLargeFileResumesTest {
  private static final int DOCS = 1_500;
  private static final Pattern COMMITTED = Pattern.compile("^progress: committed (\\d+) documents");
  @TempDir Path dir;

  @Test
  void aKilledIngestOfOneLargeFileResumesWhereItStopped() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < DOCS; i++) {
      sb.append("{\"_id\": \"doc-").append(i).append("\", \"title\": \"Doc ").append(i).append("\", \"text\": \"");
      for (int s = 0; s < 3 + i % 7; s++) {
        sb.append(s % 2 == 0 ? "Sentence " + s + " of document " + i + " talks about topic " + (i * 31 + s) % 101 + ". "
            : "A frase " + s + " do documento " + i + " fala do assunto " + (i * 17 + s) % 103 + ". ");
      }
      sb.append("\"}\n");
    }
    Path corpus = Files.writeString(dir.resolve("export.jsonl"), sb);
    Path index = dir.resolve("idx");
    String[] args = {"ingest", "--index", index.toString(), "--no-embed", "--format", "json", "--chunk-tokens", "32",
        "--commit-every", "50", "--progress", "always", corpus.toString()};

    Process child = new ProcessBuilder(javaCommand(args)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    int acknowledged = 0;
    boolean finished = false;
    try (BufferedReader err = new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = err.readLine()) != null) {
        Matcher m = COMMITTED.matcher(line);
        if (m.find()) {
          acknowledged += Integer.parseInt(m.group(1));
          break;
        }
      }
      finished = line == null;
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(finished).as("the child printed no commit before it ended").isFalse();
    assertThat(acknowledged).isGreaterThanOrEqualTo(50);
    int kept;
    try (Index idx = Indexes.openExisting(IndexSpec.ofPath(index))) {
      kept = idx.stats().documents();
    }
    assertThat(kept).as("the commits before the kill are kept").isGreaterThanOrEqualTo(acknowledged);
    assertThat(kept).as("killed before the end of the file").isLessThan(DOCS);

    CliRunner again = CliRunner.run(args);
    assertThat(again.code()).as(again.err()).isZero();
    JsonNode s = again.json();
    assertThat(s.get("unchanged").asInt()).as("the committed documents are skipped").isEqualTo(kept);
    assertThat(s.get("added").asInt()).isEqualTo(DOCS - kept);
    assertThat(s.get("updated").asInt()).isZero();

    Path reference = dir.resolve("reference");
    CliRunner once = CliRunner.run(args[0], "--index", reference.toString(), "--no-embed", "--format", "json",
        "--chunk-tokens", "32", corpus.toString());
    assertThat(once.code()).as(once.err()).isZero();
    assertThat(chunksByDocument(index)).isEqualTo(chunksByDocument(reference)).hasSize(DOCS);
  }

  /** Every stored document's chunk count, by id; also checks that the index's counts add up. */
  private static Map<String, Integer> chunksByDocument(Path dir) throws Exception {
    try (Index idx = Indexes.openExisting(IndexSpec.ofPath(dir))) {
      Map<String, Integer> out = new TreeMap<>();
      int sum = 0;
      for (WritableIndex.StoredDoc d : idx.findBySourcePath("")) {
        assertThat(out.put(d.id(), d.chunks())).as("stored once: " + d.id()).isNull();
        sum += d.chunks();
      }
      assertThat(idx.stats().documents()).isEqualTo(out.size());
      assertThat(idx.stats().chunks()).isEqualTo(sum);
      return out;
    }
  }

  private static java.util.List<String> javaCommand(String... args) {
    java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
        "dev.ctxpack.app.cli.Main"));
    cmd.addAll(java.util.List.of(args));
    return cmd;
  }
}
