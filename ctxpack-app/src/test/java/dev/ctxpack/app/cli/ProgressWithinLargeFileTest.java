package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.app.Components;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestListener;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.token.Tokenizers;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 (8g): a 2,000-page PDF with embeddings ran for over ten minutes with no progress output:
 * progress came per file, and not at all where stderr is not a terminal. Now the listener hears,
 * within the one document of a long PDF, how many of its chunks are chunked and embedded after
 * every embedding batch, and {@code --progress always} prints those steps as lines where stderr is
 * not a terminal. Real PDFBox, real MiniLM.
 */
class ProgressWithinLargeFileTest {
  private static final int PAGES = 40;
  @TempDir Path dir;

  private Path longPdf() throws Exception {
    try (PDDocument doc = new PDDocument()) {
      for (int p = 0; p < PAGES; p++) {
        PDPage page = new PDPage();
        doc.addPage(page);
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
          cs.beginText();
          cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 10);
          cs.newLineAtOffset(50, 740);
          for (int s = 0; s < 10; s++) {
            cs.showText(p % 2 == 0
                ? "Page " + p + " line " + s + " tells of river " + (p * 13 + s) % 97 + " and its delta."
                : "A pagina " + p + " linha " + s + " fala da serra " + (p * 7 + s) % 89 + " e do vale.");
            cs.newLineAtOffset(0, -14);
          }
          cs.endText();
        }
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      doc.save(out);
      Path f = dir.resolve("long.pdf");
      Files.write(f, out.toByteArray());
      return f;
    }
  }

  @Test
  void theListenerHearsChunkProgressWithinOneFile() throws Exception {
    Path pdf = longPdf();
    List<int[]> steps = new ArrayList<>();
    List<String> order = new ArrayList<>();
    IngestListener listener = new IngestListener() {
      @Override
      public void chunksDone(Path file, int done, int total) {
        steps.add(new int[] {done, total});
        order.add("chunks");
      }

      @Override
      public void fileDone(Path file, int index, int totalFiles) {
        order.add("file");
      }
    };
    IngestOptions options = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 48, 0.15),
        Components.embedder("minilm")).withVectorWindow(0);
    try (Index index = Indexes.open(IndexSpec.ofPath(dir.resolve("idx")))) {
      new Ingestor(index, Loaders.defaults(), options, listener).ingest(List.of(pdf));
      int total = index.stats().chunks();
      assertThat(steps).as("steps within the one document (one per batch of 256 texts)").hasSizeGreaterThanOrEqualTo(2);
      assertThat(steps).allSatisfy(s -> assertThat(s[1]).isEqualTo(total));
      for (int i = 1; i < steps.size(); i++) assertThat(steps.get(i)[0]).isGreaterThan(steps.get(i - 1)[0]);
      assertThat(steps.get(0)[0]).isLessThan(total);
      assertThat(steps.get(steps.size() - 1)[0]).isEqualTo(total);
      assertThat(order).endsWith("chunks", "file").startsWith("chunks", "chunks");
    }
  }

  @Test
  void progressAlwaysPrintsLinesWithinTheFileWhereStderrIsNotATerminal() throws Exception {
    Path pdf = longPdf();
    CliRunner r = CliRunner.run("ingest", "--index", dir.resolve("idx2").toString(), "--format", "json",
        "--chunk-tokens", "48", "--vector-window", "0", "--progress", "always", pdf.toString());
    assertThat(r.code()).as(r.err()).isZero();
    int total = r.json().get("chunks").asInt();
    Matcher m = Pattern.compile("(?m)^progress: file 1/1 long\\.pdf: (\\d+)/(\\d+) chunks").matcher(r.err());
    List<Integer> done = new ArrayList<>();
    while (m.find()) {
      assertThat(Integer.parseInt(m.group(2))).isEqualTo(total);
      done.add(Integer.parseInt(m.group(1)));
    }
    assertThat(done).hasSizeGreaterThanOrEqualTo(2).isSorted().contains(total);
    assertThat(done.get(0)).isLessThan(total);
    assertThat(r.err().indexOf("progress: file 1/1 done: long.pdf"))
        .isGreaterThan(r.err().indexOf("progress: file 1/1 long.pdf: " + done.get(0) + "/"));

    // The default (auto) stays quiet when stderr is not a terminal, and with --format json.
    CliRunner quiet = CliRunner.run("ingest", "--index", dir.resolve("idx3").toString(), "--format", "json",
        "--no-embed", pdf.toString());
    assertThat(quiet.err()).doesNotContain("progress:");
  }
}
