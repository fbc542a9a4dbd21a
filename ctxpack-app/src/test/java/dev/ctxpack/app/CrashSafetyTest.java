package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.model.Document;
import dev.ctxpack.text.TextNormalizer;
import dev.ctxpack.token.Tokenizers;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM with {@code destroyForcibly} at random moments while it ingests, then reopens
 * the index: every acknowledged document is there, complete, and nothing is half-written.
 */
class CrashSafetyTest {
  private static final int FILES = 300;
  @TempDir Path dir;

  @Test
  void everyAcknowledgedBatchSurvivesAKillAndNothingIsHalfWritten() throws Exception {
    long seed = Long.getLong("ctxpack.seed", System.nanoTime());
    Random rnd = new Random(seed);
    System.out.println("CrashSafetyTest seed=" + seed + " (rerun with -Dctxpack.seed=" + seed + ")");
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    List<String> expectedIds = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      StringBuilder sb = new StringBuilder("Document " + i + ". ");
      int sentences = 5 + rnd.nextInt(40);
      for (int s = 0; s < sentences; s++) sb.append("Sentence ").append(s).append(" of file ").append(i).append(" says something. ");
      String text = sb.toString();
      Files.writeString(corpus.resolve(String.format("f%04d.txt", i)), text);
      expectedIds.add(TextNormalizer.contentId(text));
    }
    int rounds = 4;
    int killedMidway = 0;
    for (int round = 0; round < rounds; round++) {
      Path index = dir.resolve("index-" + round);
      int waitForAcks = rnd.nextInt(12);
      Process child = new ProcessBuilder(javaBin(), "-cp", System.getProperty("java.class.path"),
          CrashIngestChild.class.getName(), corpus.toString(), index.toString(), Integer.toString(3 + rnd.nextInt(10)))
          .redirectErrorStream(true)
          .start();
      Set<String> acked = new HashSet<>();
      boolean done = false;
      try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        int acks = 0;
        while ((line = r.readLine()) != null) {
          if (line.startsWith("ACK ")) {
            for (String id : line.substring(4).split(" ")) acked.add(id);
            if (++acks > waitForAcks) {
              Thread.sleep(rnd.nextInt(30));
              break;
            }
          } else if (line.equals("DONE")) {
            done = true;
            break;
          }
        }
        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      }
      if (!done) killedMidway++;
      verify(index, acked, new HashSet<>(expectedIds));
      // Resuming finishes the job and re-uses what was committed.
      try (Index idx = Indexes.open(IndexSpec.ofPath(index))) {
        IngestSummary s = new Ingestor(idx, Loaders.defaults(),
            IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 40, 0.15), null), null).ingest(List.of(corpus));
        assertThat(s.failed()).isEmpty();
        assertThat(s.unchanged()).isGreaterThanOrEqualTo(acked.size());
        assertThat(s.added() + s.unchanged()).isEqualTo(FILES);
      }
      verify(index, new HashSet<>(expectedIds), new HashSet<>(expectedIds));
    }
    assertThat(killedMidway).as("at least one child was killed before finishing").isGreaterThan(0);
  }

  private static void verify(Path indexDir, Set<String> mustHave, Set<String> allowed) throws Exception {
    boolean hasCommit = false;
    if (Files.isDirectory(indexDir)) {
      try (var files = Files.list(indexDir)) {
        hasCommit = files.anyMatch(p -> p.getFileName().toString().startsWith("segments_"));
      }
    }
    if (!hasCommit) {
      assertThat(mustHave).as("acknowledged documents without any commit on disk").isEmpty();
      return;
    }
    try (Index idx = Indexes.openExisting(IndexSpec.ofPath(indexDir))) {
      for (String id : mustHave) assertThat(idx.find(id)).as("acknowledged document " + id).isPresent();
      List<Index.StoredDoc> stored = idx.findBySourcePath("");
      int chunkSum = 0;
      for (Index.StoredDoc s : stored) {
        assertThat(allowed).contains(s.id());
        Document d = idx.document(s.id()).orElseThrow();
        assertThat(TextNormalizer.contentId(d.text())).isEqualTo(s.id());
        chunkSum += s.chunks();
      }
      Index.Stats stats = idx.stats();
      assertThat(stats.documents()).isEqualTo(stored.size());
      assertThat(stats.chunks()).as("every stored chunk belongs to a complete document").isEqualTo(chunkSum);
    }
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
