package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.cli.CliRunner;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.WritableIndex;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 (8f): the disk filling up under {@code --format json} printed nothing on stdout. Now the
 * JSON summary is printed with the error (the counts of the last commit, which the index keeps),
 * the exit code is 1, and the index is consistent: what the summary says was added is there, whole.
 * The device is {@link DiskFullIndexProvider} (real Lucene, writes refused past a byte budget).
 */
class DiskFullJsonSummaryTest {
  private static final int DOCS = 1_000;
  @TempDir Path dir;

  @Test
  void aFullDiskStillPrintsTheSummaryWithTheError() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < DOCS; i++) {
      sb.append("{\"_id\": \"n").append(i).append("\", \"text\": \"Note ").append(i).append(" on subject ")
          .append(i % 53).append(". Nota ").append(i).append(" sobre o assunto ").append(i % 59).append(".\"}\n");
    }
    Path corpus = Files.writeString(dir.resolve("notes.jsonl"), sb);
    Path spi = dir.resolve("spi/META-INF/services");
    Files.createDirectories(spi);
    Files.writeString(spi.resolve("dev.ctxpack.index.IndexProvider"), DiskFullIndexProvider.class.getName() + "\n");
    ClassLoader old = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader cl = new URLClassLoader(new URL[] {dir.resolve("spi").toUri().toURL()}, old)) {
      Thread.currentThread().setContextClassLoader(cl);
      // How much a whole run writes, then a device with room for about half of it.
      DiskFullIndexProvider.freeBytes = Long.MAX_VALUE;
      CliRunner whole = ingest(dir.resolve("measure"), corpus);
      assertThat(whole.code()).as(whole.err()).isZero();
      long needed = DiskFullIndexProvider.written.get();
      DiskFullIndexProvider.freeBytes = needed / 2;

      Path index = dir.resolve("idx");
      CliRunner full = ingest(index, corpus);
      assertThat(full.code()).isEqualTo(ExitCodes.FAILURE);
      assertThat(full.out()).as("the summary on stdout (stderr: %s)", full.err()).isNotBlank();
      JsonNode s = full.json();
      assertThat(s.get("error").asText()).contains("No space left on device");
      assertThat(s.get("failed")).isEmpty();
      int added = s.get("added").asInt();
      assertThat(added).as("some commits succeeded before the disk filled").isPositive().isLessThan(DOCS);
      assertThat(full.err()).contains("error: index write failed: No space left on device");

      DiskFullIndexProvider.freeBytes = Long.MAX_VALUE;
      try (Index idx = Indexes.openExisting(IndexSpec.ofPath(index))) {
        assertThat(idx.stats().documents()).as("the index holds the last commit").isEqualTo(added);
        int chunks = 0;
        for (WritableIndex.StoredDoc d : idx.findBySourcePath("")) chunks += d.chunks();
        assertThat(idx.stats().chunks()).isEqualTo(chunks).isEqualTo(s.get("chunks").asInt());
      }
      // With room again, the same ingestion finishes the job.
      JsonNode again = ingest(index, corpus).json();
      assertThat(again.get("unchanged").asInt()).isEqualTo(added);
      assertThat(again.get("added").asInt()).isEqualTo(DOCS - added);
    } finally {
      Thread.currentThread().setContextClassLoader(old);
      DiskFullIndexProvider.freeBytes = Long.MAX_VALUE;
    }
  }

  private static CliRunner ingest(Path index, Path corpus) {
    return CliRunner.run("ingest", "--index", "diskfull:" + index, "--no-embed", "--format", "json", "--commit-every",
        "50", corpus.toString());
  }
}
