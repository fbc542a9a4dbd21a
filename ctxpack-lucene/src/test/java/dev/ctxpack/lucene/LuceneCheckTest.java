package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.index.IndexCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The full verification of a Lucene directory: each kind of damage named, and no false alarm beside a writer. */
class LuceneCheckTest {
  @TempDir Path dir;

  private static void write(Path at, int commits) throws IOException {
    try (FSDirectory d = FSDirectory.open(at);
         IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new StandardAnalyzer()).setUseCompoundFile(false))) {
      for (int i = 0; i < commits; i++) {
        Document doc = new Document();
        doc.add(new TextField("body", "green tea number " + i + " is brewed at 80 degrees", Field.Store.YES));
        w.addDocument(doc);
        w.commit();
      }
    }
  }

  private List<String> files(Path at, String prefix) throws IOException {
    try (Stream<Path> s = Files.list(at)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted().toList();
    }
  }

  @Test
  void anIntactDirectoryVerifiesEveryFileOfItsCommit() throws IOException {
    Path at = dir.resolve("idx");
    write(at, 2);
    IndexCheck c = LuceneCheck.verify(at);
    assertThat(c.intact()).as(String.valueOf(c.damaged())).isTrue();
    long bytes = 0;
    List<String> all = files(at, "");
    for (String f : all) if (!f.equals("write.lock")) bytes += Files.size(at.resolve(f));
    assertThat(c.files()).isEqualTo(all.size() - (all.contains("write.lock") ? 1 : 0));
    assertThat(c.bytes()).isEqualTo(bytes);
    assertThat(c.location()).isEqualTo(at.toString());
  }

  @Test
  void aTruncatedAMissingAndAFlippedFileAreEachNamedWithTheirSegment() throws IOException {
    Path at = dir.resolve("idx");
    write(at, 2);
    String postings = files(at, "_1").stream().filter(n -> n.endsWith(".doc")).findFirst().orElseThrow();
    byte[] b = Files.readAllBytes(at.resolve(postings));
    Files.write(at.resolve(postings), java.util.Arrays.copyOf(b, b.length - 3));
    String stored = files(at, "_0").stream().filter(n -> n.endsWith(".fdt")).findFirst().orElseThrow();
    Files.delete(at.resolve(stored));
    IndexCheck c = LuceneCheck.verify(at);
    assertThat(c.damaged()).extracting(IndexCheck.Damage::segment, IndexCheck.Damage::file)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("_0", stored), org.assertj.core.groups.Tuple.tuple("_1", postings));
    assertThat(c.damaged().get(0).problem()).isEqualTo("missing");
    assertThat(c.damaged().get(1).problem()).contains("footer");
  }

  @Test
  void aDamagedCommitPointIsNamedAndTheSegmentsAreStillVerified() throws IOException {
    Path at = dir.resolve("idx");
    write(at, 1);
    String commit = files(at, "segments_").get(0);
    byte[] b = Files.readAllBytes(at.resolve(commit));
    b[b.length / 2] ^= 0x04;
    Files.write(at.resolve(commit), b);
    IndexCheck c = LuceneCheck.verify(at);
    assertThat(c.damaged()).hasSize(1);
    assertThat(c.damaged().get(0).segment()).isNull();
    assertThat(c.damaged().get(0).file()).isEqualTo(commit);
    assertThat(c.damaged().get(0).where()).isEqualTo("commit point, file " + commit);
    assertThat(c.files()).as("every file of the directory read").isGreaterThan(1);
  }

  @Test
  void filesWithoutACommitPointAreDamageAndAnEmptyDirectoryIsEmpty() throws IOException {
    Path at = Files.createDirectories(dir.resolve("idx"));
    assertThat(LuceneCheck.verify(at)).isEqualTo(IndexCheck.empty(at.toString()));
    Files.writeString(at.resolve("_0.cfs"), "x");
    IndexCheck c = LuceneCheck.verify(at);
    assertThat(c.intact()).isFalse();
    assertThat(c.damaged().get(0).problem()).startsWith("no commit point among the directory's 1 files");
  }

  @Test
  void aCheckBesideAWriterThatCommitsAndMergesFindsNoDamage() throws Exception {
    Path at = dir.resolve("idx");
    write(at, 1);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      try (FSDirectory d = FSDirectory.open(at);
           IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new StandardAnalyzer()))) {
        for (int i = 0; !stop.get(); i++) {
          Document doc = new Document();
          doc.add(new TextField("body", "black tea number " + i + " steeps for four minutes", Field.Store.YES));
          w.addDocument(doc);
          w.commit();
          if (i % 10 == 9) w.forceMerge(1);
          Thread.sleep(10);
        }
      } catch (Throwable t) {
        failed.set(t);
      }
    });
    writer.start();
    List<IndexCheck> bad = new ArrayList<>();
    try {
      for (int i = 0; i < 60; i++) {
        IndexCheck c = LuceneCheck.verify(at);
        if (!c.intact()) bad.add(c);
      }
    } finally {
      stop.set(true);
      writer.join();
    }
    assertThat(failed.get()).isNull();
    assertThat(bad).isEmpty();
  }
}
