package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PdfLoaderTest {
  @TempDir Path dir;
  private final PdfLoader loader = new PdfLoader();

  private static final String[] PAGES = {
      "Relatório Anual 2024\nA receita cresceu oito por cento no ano, puxada pelas exportações de café.",
      "Relatório Anual 2024\nOs custos de energia caíram depois da troca dos equipamentos da fábrica.",
      "Relatório Anual 2024\nA diretoria propõe dividendos maiores e novos investimentos no Nordeste."};

  private Path write(String name, byte[] bytes) throws Exception {
    Path f = dir.resolve(name);
    Files.write(f, bytes);
    return f;
  }

  @Test
  void pagesStartWhereEachPageTextStartsAndTitleComesFromInfo() throws Exception {
    LoadedDocument d = loader.load(write("r.pdf", TestPdfs.pdf("Relatório 2024", PAGES))).get(0);
    assertThat(d.title()).isEqualTo("Relatório 2024");
    assertThat(d.pages()).hasSize(3);
    assertThat(d.pages().get(0)).isZero();
    String t = d.text();
    assertThat(t.substring(d.pages().get(1))).startsWith("Relatório Anual 2024\nOs custos de energia");
    assertThat(t.substring(d.pages().get(2))).startsWith("Relatório Anual 2024\nA diretoria propõe");
    assertThat(d.pageAt(t.indexOf("exportações"))).isEqualTo(1);
    assertThat(d.pageAt(t.indexOf("energia"))).isEqualTo(2);
    assertThat(d.pageAt(t.indexOf("Nordeste"))).isEqualTo(3);
  }

  @Test
  void titleFallsBackToTheFirstLine() throws Exception {
    assertThat(loader.load(write("n.pdf", TestPdfs.pdf(null, PAGES))).get(0).title()).isEqualTo("Relatório Anual 2024");
  }

  @Test
  void everyIngestedChunkCarriesThePageItStartsOn() throws Exception {
    Path f = write("r.pdf", TestPdfs.pdf("R", PAGES));
    SentenceVectorIngestTest.MemoryIndex index = new SentenceVectorIngestTest.MemoryIndex();
    TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 16, 0);
    IngestSummary s = new Ingestor(index, Loaders.defaults(), IngestOptions.of(chunker, null), null).ingest(List.of(f));
    assertThat(s.failed()).isEmpty();
    IndexEntry e = index.entries.values().iterator().next();
    // Pages are counted on the stored text, which cleaning has already rid of the running head.
    LoadedDocument d = new dev.ctxpack.ingest.clean.Cleaner(dev.ctxpack.ingest.clean.CleanOptions.defaults())
        .clean(loader.load(f).get(0), new dev.ctxpack.ingest.clean.CorpusLines(dev.ctxpack.ingest.clean.CleanOptions.defaults()))
        .doc();
    assertThat(e.doc().text()).isEqualTo(d.text()).doesNotContain("Relatório Anual 2024");
    assertThat(e.chunks()).hasSizeGreaterThan(3);
    for (Chunk c : e.chunks()) assertThat(c.page()).isEqualTo(d.pageAt(c.span().start())).isPositive();
    assertThat(e.chunks()).extracting(Chunk::page).contains(1, 2, 3);
  }

  @Test
  void passwordProtectedPdfIsRefusedButOwnerOnlyEncryptionIsRead() throws Exception {
    Path locked = write("locked.pdf", TestPdfs.encryptedPdf("T", "owner", "secret", PAGES));
    assertThatThrownBy(() -> loader.load(locked))
        .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Rejected.Reason.ENCRYPTED))
        .hasMessageStartingWith(locked + ": encrypted PDF");
    Path ownerOnly = write("owner.pdf", TestPdfs.encryptedPdf("T", "owner", "", PAGES));
    assertThat(loader.load(ownerOnly).get(0).text()).contains("A receita cresceu");
  }

  @Test
  void truncatedAndGarbagePdfsAreMalformed() throws Exception {
    byte[] full = TestPdfs.pdf("T", PAGES);
    Path cut = write("cut.pdf", Arrays.copyOf(full, full.length / 3));
    assertThatThrownBy(() -> loader.load(cut)).isInstanceOf(IngestException.class).hasMessageStartingWith(cut + ": ");
    Path garbage = write("garbage.pdf", "this is not a PDF at all".getBytes());
    assertThatThrownBy(() -> loader.load(garbage))
        .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Rejected.Reason.MALFORMED))
        .hasMessageStartingWith(garbage + ": not a readable PDF");
  }

  @Test
  void pdfWithoutTextSaysSo() throws Exception {
    Path empty = write("empty.pdf", TestPdfs.pdf(null, ""));
    assertThatThrownBy(() -> loader.load(empty)).hasMessageContaining("no extractable text");
  }
}
