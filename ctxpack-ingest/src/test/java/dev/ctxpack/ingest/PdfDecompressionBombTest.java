package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 6: a PDF whose content stream inflates to hundreds of megabytes was decoded whole
 * and parsed until the time-out (35 s, 2.27 GB RSS for a 2.1 MB file). Its streams are now counted
 * against caps on decoded bytes before any text is extracted: the bomb is refused naming the cap,
 * and the other files are ingested.
 */
class PdfDecompressionBombTest {
  @TempDir Path dir;
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 64, 0.1);

  @Test
  void aBombOverTheDefaultStreamCapIsRefusedNamingItAndTheOtherFileIsIngested() throws Exception {
    // 80 MiB of operators in one stream, well under a megabyte on disk: past the default 64 MiB per stream.
    byte[] bomb = TestPdfs.bomb(1, 80L << 20);
    assertThat(bomb.length).isLessThan(1 << 20);
    Files.write(dir.resolve("bomb.pdf"), bomb);
    Files.write(dir.resolve("report.pdf"), TestPdfs.pdf("Report", "Relatório anual: a receita cresceu.", "Page two."));
    SentenceVectorIngestTest.MemoryIndex index = new SentenceVectorIngestTest.MemoryIndex();

    IngestSummary s = new Ingestor(index, Loaders.defaults(), IngestOptions.of(chunker, null), null).ingest(List.of(dir));

    assertThat(s.failed()).singleElement().satisfies(f -> {
      assertThat(f.path()).endsWith("bomb.pdf");
      assertThat(f.error()).startsWith(dir.resolve("bomb.pdf") + ": PDF stream ")
          .contains("decompresses to more than 64.0 MB (the limit is 64.0 MB of decoded content per stream")
          .endsWith("; skipped");
    });
    assertThat(s.added()).isEqualTo(1);
    assertThat(index.entries.values()).singleElement()
        .satisfies(e -> assertThat(e.doc().text()).contains("Relatório anual: a receita cresceu."));
  }

  @Test
  void manyStreamsUnderTheStreamCapAreHeldToTheDocumentCap() throws Exception {
    Path bomb = Files.write(dir.resolve("many.pdf"), TestPdfs.bomb(3, 1L << 20));
    Path fits = Files.write(dir.resolve("fits.pdf"), TestPdfs.bomb(2, 64L << 10));
    LoadGuard guard = new LoadGuard(LoadLimits.DEFAULTS.withDecodedCaps(1L << 20, (5L << 20) / 2));

    assertThatThrownBy(() -> guard.load(new PdfLoader(), bomb))
        .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Rejected.Reason.DECODED_TOO_LARGE))
        .hasMessageStartingWith(bomb + ": PDF streams decompress to more than 2.5 MB in all (at PDF stream ")
        .hasMessageContaining("the limit is 2.5 MB of decoded content per document");
    // Two of the same streams fit under the same caps, and are read.
    assertThat(guard.load(new PdfLoader(), fits)).singleElement()
        .satisfies(d -> assertThat(d.text()).startsWith("one more line of the bomb"));
  }

  @Test
  void capsAreChecked() {
    assertThatThrownBy(() -> LoadLimits.DEFAULTS.withDecodedCaps(0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LoadLimits.DEFAULTS.withDecodedCaps(10, 5))
        .hasMessageContaining("maxDecodedBytes must be >= maxDecodedStreamBytes");
    assertThat(LoadLimits.DEFAULTS.maxDecodedStreamBytes()).isEqualTo(64L << 20);
    assertThat(LoadLimits.DEFAULTS.maxDecodedBytes()).isEqualTo(512L << 20);
  }
}
