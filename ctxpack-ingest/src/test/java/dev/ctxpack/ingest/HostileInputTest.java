package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.token.Tokenizers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile files each fail alone, with one line in {@code failed}, and the others are ingested whole:
 * through the real {@link Ingestor} and loaders, except a loader that blocks (to test the timeout).
 */
class HostileInputTest {
  @TempDir Path dir;
  private final CountDownLatch release = new CountDownLatch(1);
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 64, 0.1);

  /** Never returns until the test ends: a parser that hangs. */
  private final Loader hanging = new Loader() {
    @Override
    public List<String> extensions() {
      return List.of(".slow");
    }

    @Override
    public List<LoadedDocument> load(Path file) {
      while (true) {
        try {
          release.await();
          return List.of();
        } catch (InterruptedException ignored) {
          // a parser that ignores interruption
        }
      }
    }
  };

  @AfterEach
  void letTheHangingLoaderEnd() {
    release.countDown();
  }

  private Path write(String name, byte[] bytes) throws Exception {
    Path f = dir.resolve(name);
    Files.createDirectories(f.getParent());
    Files.write(f, bytes);
    return f;
  }

  private Path write(String name, String text) throws Exception {
    return write(name, text.getBytes(StandardCharsets.UTF_8));
  }

  private static String nestedDivs(int depth) {
    StringBuilder sb = new StringBuilder(depth * 11 + 64);
    for (int i = 0; i < depth; i++) sb.append("<div>");
    sb.append("<p>found at the bottom</p>");
    for (int i = 0; i < depth; i++) sb.append("</div>");
    return sb.toString();
  }

  @Test
  void eachHostileFileIsOneFailureLineAndTheOthersAreIngested() throws Exception {
    write("ok/notes.md", "# Notes\n\nThe meeting moved to Tuesday.\n");
    write("ok/page.html", "<html><body><main><h1>Page</h1><p>Bread rises when yeast ferments the dough.</p></main></body></html>");
    write("ok/report.pdf", TestPdfs.pdf("Report", "Page one text.", "Page two text."));
    write("ok/nested.html", nestedDivs(100_000));
    write("bad/big.txt", "x".repeat(3 * 1024 * 1024 + 1));
    byte[] png = new byte[64];
    png[0] = (byte) 0x89;
    png[1] = 'P';
    png[2] = 'N';
    png[3] = 'G';
    write("bad/image.txt", png);
    write("bad/nul.md", "# Title\n\0\0\0binary".getBytes(StandardCharsets.UTF_8));
    write("bad/locked.pdf", TestPdfs.encryptedPdf("L", "owner", "secret", "Secret text."));
    byte[] pdf = TestPdfs.pdf("C", "Cut text.");
    write("bad/cut.pdf", Arrays.copyOf(pdf, pdf.length / 3));
    IngestOptions options = IngestOptions.of(chunker, null)
        .withLimits(new LoadLimits(3L << 20, LoadLimits.DEFAULT_TIMEOUT));
    SentenceVectorIngestTest.MemoryIndex index = new SentenceVectorIngestTest.MemoryIndex();

    IngestSummary s = new Ingestor(index, Loaders.defaults(), options, null).ingest(List.of(dir));

    Map<String, String> failed = new TreeMap<>();
    for (IngestSummary.Failure f : s.failed()) failed.put(dir.relativize(Path.of(f.path())).toString(), f.error());
    assertThat(failed.keySet()).containsExactly("bad/big.txt", "bad/cut.pdf", "bad/image.txt", "bad/locked.pdf",
        "bad/nul.md");
    assertThat(failed.get("bad/big.txt")).contains("too large (3.0 MB; the limit is 3.0 MB, --max-file-mb)");
    assertThat(failed.get("bad/image.txt")).contains("binary content (looks like a PNG image)");
    assertThat(failed.get("bad/nul.md")).contains("binary content (NUL byte at offset 8)");
    assertThat(failed.get("bad/locked.pdf")).contains("encrypted PDF");
    assertThat(failed.get("bad/cut.pdf")).startsWith(dir.resolve("bad/cut.pdf") + ": not a readable PDF (");
    assertThat(s.added()).isEqualTo(4);
    assertThat(index.entries.values()).extracting(e -> Path.of(e.sourcePath()).getFileName().toString())
        .containsExactlyInAnyOrder("notes.md", "page.html", "report.pdf", "nested.html");
    IndexEntry nested = index.entries.values().stream()
        .filter(e -> e.sourcePath().endsWith("nested.html")).findFirst().orElseThrow();
    assertThat(nested.doc().text()).isEqualTo("found at the bottom");
  }

  @Test
  void aParserThatHangsIsStoppedByTheTimeoutAndIngestionGoesOn() throws Exception {
    write("hangs.slow", "anything");
    write("fine.txt", "This file is fine.");
    Loaders loaders = new Loaders(List.of(new TextLoader(), hanging));
    IngestOptions options = IngestOptions.of(chunker, null).withLimits(new LoadLimits(1 << 20, Duration.ofSeconds(1)));
    SentenceVectorIngestTest.MemoryIndex index = new SentenceVectorIngestTest.MemoryIndex();
    IngestSummary s = new Ingestor(index, loaders, options, null).ingest(List.of(dir));
    assertThat(s.failed()).singleElement().satisfies(f -> {
      assertThat(f.path()).endsWith("hangs.slow");
      assertThat(f.error()).endsWith("hangs.slow: not loaded within 1000 ms (--load-timeout-ms); parsing stopped");
    });
    assertThat(s.added()).isEqualTo(1);
    assertThat(index.entries.values()).singleElement().satisfies(e -> assertThat(e.doc().text()).isEqualTo("This file is fine."));
  }

  @Test
  void aFileThatGrowsPastTheLimitWhileReadIsStopped() throws Exception {
    LoadGuard guard = new LoadGuard(new LoadLimits(1024, Duration.ofSeconds(5)));
    Path small = write("small.txt", "short text");
    assertThat(guard.read(small)).hasSize(10);
    // /dev/zero reports size 0 and never ends.
    Path zero = Path.of("/dev/zero");
    if (Files.isReadable(zero)) {
      assertThatThrownBy(() -> guard.read(zero))
          .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Rejected.Reason.TOO_LARGE))
          .hasMessageContaining("more than 0.0 MB read");
    }
  }

  @Test
  void aJsonLinesExportIsHeldToTheCapPerDocumentNotPerFile() throws Exception {
    LoadGuard guard = new LoadGuard(new LoadLimits(200, Duration.ofSeconds(30)));
    StringBuilder export = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      export.append("{\"_id\": \"doc-").append(i).append("\", \"text\": \"Document ").append(i)
          .append(" of a corpus export, well under the cap.\"}\n");
    }
    Path ok = write("export.jsonl", export.toString());
    assertThat(Files.size(ok)).isGreaterThan(200);
    assertThat(guard.load(new JsonlLoader(), ok)).hasSize(40);

    Path big = write("big.jsonl", export + "{\"_id\": \"huge\", \"text\": \"" + "word ".repeat(60) + "\"}\n");
    assertThatThrownBy(() -> guard.load(new JsonlLoader(), big))
        .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Rejected.Reason.TOO_LARGE))
        .hasMessageContaining("document 'huge' too large");

    Path binary = write("binary.jsonl", new byte[] {'{', 0, 0, 0, '}'});
    assertThatThrownBy(() -> guard.load(new JsonlLoader(), binary))
        .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Rejected.Reason.BINARY));
  }

  @Test
  void aLoaderThatThrowsSomethingElseFailsTheFileWithTheErrorNamed() throws Exception {
    Loader broken = new Loader() {
      @Override
      public List<String> extensions() {
        return List.of(".txt");
      }

      @Override
      public List<LoadedDocument> load(Path file) {
        throw new IllegalStateException("parser bug");
      }
    };
    Path f = write("a.txt", "text");
    assertThatThrownBy(() -> new LoadGuard(LoadLimits.DEFAULTS).load(broken, f))
        .isInstanceOf(IngestException.class)
        .hasMessage(f + ": could not be parsed: IllegalStateException: parser bug");
  }

  @Test
  void includeAndExcludeGlobsPickFilesOfDirectoryWalks() throws Exception {
    write("a.md", "# A\n\nalpha text");
    write("docs/b.md", "# B\n\nbeta text");
    write("docs/c.txt", "gamma text");
    write("drafts/d.md", "# D\n\ndelta text");
    IngestOptions options = IngestOptions.of(chunker, null)
        .withFiles(new PathFilter(List.of("**/*.md"), List.of("drafts/**")));
    SentenceVectorIngestTest.MemoryIndex index = new SentenceVectorIngestTest.MemoryIndex();
    IngestSummary s = new Ingestor(index, Loaders.defaults(), options, null).ingest(List.of(dir));
    assertThat(s.failed()).isEmpty();
    assertThat(index.entries.values()).extracting(e -> dir.relativize(Path.of(e.sourcePath())).toString())
        .containsExactlyInAnyOrder("a.md", "docs/b.md");
    assertThatThrownBy(() -> new PathFilter(List.of("[a-"), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid include glob '[a-'");
  }

  @Test
  void replacedCharactersAreSummedInTheSummary() throws Exception {
    byte[] good = "Informação útil sobre a ação, com acentuação correta em várias palavras.".getBytes(StandardCharsets.UTF_8);
    byte[] bad = Arrays.copyOf(good, good.length + 2);
    bad[good.length] = (byte) 0xFF;
    bad[good.length + 1] = (byte) 0xFE;
    write("damaged.txt", bad);
    write("fine.txt", "fine text");
    IngestSummary s = new Ingestor(new SentenceVectorIngestTest.MemoryIndex(), Loaders.defaults(),
        IngestOptions.of(chunker, null), null).ingest(List.of(dir));
    assertThat(s.failed()).isEmpty();
    assertThat(s.replacedChars()).isEqualTo(2);
  }
}
