package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTML and PDF through the CLI, the options that pick and bound files, and their failure lines. */
class LoadingCliTest {
  @TempDir Path dir;

  private static byte[] pdf(String... pages) throws Exception {
    try (PDDocument doc = new PDDocument()) {
      for (String text : pages) {
        PDPage page = new PDPage();
        doc.addPage(page);
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
          cs.beginText();
          cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
          cs.newLineAtOffset(72, 720);
          cs.showText(text);
          cs.endText();
        }
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      doc.save(out);
      return out.toByteArray();
    }
  }

  @Test
  void chunkGivesEveryPdfChunkItsPage() throws Exception {
    Path f = dir.resolve("r.pdf");
    Files.write(f, pdf("First page about rivers and deltas.", "Second page about mountains.", "Third page about the sea."));
    CliRunner r = CliRunner.run("chunk", f.toString(), "--chunker", "sentence");
    assertThat(r.code()).as(r.err()).isZero();
    List<JsonNode> chunks = r.jsonLines();
    assertThat(chunks).extracting(c -> c.get("page").asInt()).containsExactly(1, 2, 3);
    assertThat(chunks.get(1).get("text").asText()).startsWith("Second page");
  }

  /** A one-page PDF whose content stream (Flate) decodes to {@code mb} MiB of text operators. */
  private static byte[] inflatingPdf(int mb) throws Exception {
    byte[] line = "BT /F1 12 Tf 72 700 Td (one more line) Tj ET\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    while (content.size() < mb << 20) content.write(line);
    try (PDDocument doc = new PDDocument()) {
      PDPage page = new PDPage();
      doc.addPage(page);
      page.setContents(new org.apache.pdfbox.pdmodel.common.PDStream(doc,
          new java.io.ByteArrayInputStream(content.toByteArray()), org.apache.pdfbox.cos.COSName.FLATE_DECODE));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      doc.save(out);
      return out.toByteArray();
    }
  }

  @Test
  void ingestAndChunkTakeThePdfDecodedCaps() throws Exception {
    Path pdf = Files.write(dir.resolve("inflating.pdf"), inflatingPdf(3));
    assertThat(Files.size(pdf)).isLessThan(1 << 20);
    CliRunner capped = CliRunner.run("chunk", pdf.toString(), "--max-pdf-stream-mb", "2");
    assertThat(capped.code()).isEqualTo(1);
    assertThat(capped.err()).contains(pdf + ": PDF stream ")
        .contains("decompresses to more than 2.0 MB (the limit is 2.0 MB of decoded content per stream, --max-pdf-stream-mb;");
    // Under the default caps the same file is read.
    CliRunner read = CliRunner.run("chunk", pdf.toString(), "--format", "json");
    assertThat(read.code()).as(read.err()).isZero();
    assertThat(read.out()).contains("one more line");
    String index = dir.resolve("index").toString();
    CliRunner ingest = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json",
        "--max-pdf-stream-mb", "3", "--max-pdf-decoded-mb", "3", pdf.toString());
    assertThat(ingest.code()).isEqualTo(1);
    assertThat(ingest.out()).contains("the limit is 3.0 MB of decoded content per");
    assertThat(CliRunner.run("chunk", pdf.toString(), "--max-pdf-stream-mb", "0").err())
        .contains("--max-pdf-stream-mb must be in [1, 1048576], was 0");
    assertThat(CliRunner.run("chunk", pdf.toString(), "--max-pdf-stream-mb", "8", "--max-pdf-decoded-mb", "4").err())
        .contains("--max-pdf-decoded-mb must be in [--max-pdf-stream-mb (8), 1048576], was 4");
  }

  @Test
  void chunkAppliesTheSameLimitsAsIngest() throws Exception {
    Path bin = dir.resolve("data.txt");
    Files.write(bin, new byte[] {'a', 0, 'b'});
    CliRunner r = CliRunner.run("chunk", bin.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains(bin + ": binary content (NUL byte at offset 1), not text; skipped");
    Path big = dir.resolve("big.txt");
    Files.writeString(big, "word ".repeat(300_000));
    CliRunner tooBig = CliRunner.run("chunk", big.toString(), "--max-file-mb", "1");
    assertThat(tooBig.code()).isEqualTo(1);
    assertThat(tooBig.err()).contains(big + ": too large (1.4 MB; the limit is 1.0 MB, --max-file-mb); skipped");
    assertThat(CliRunner.run("chunk", big.toString(), "--load-timeout-ms", "0").err())
        .contains("--load-timeout-ms must be >= 1, was 0");
  }

  @Test
  void ingestTakesHtmlAndPdfFiltersByGlobAndReportsHostileFiles() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    Files.writeString(corpus.resolve("page.html"), "<html><head><title>Bread</title></head><body><nav>Home | About</nav>"
        + "<main><h1>Bread</h1><p>Bread rises when yeast ferments the dough.</p></main></body></html>");
    Files.write(corpus.resolve("report.pdf"), pdf("Annual report page one.", "Annual report page two."));
    Files.createDirectories(corpus.resolve("drafts"));
    Files.writeString(corpus.resolve("drafts/wip.html"), "<p>Work in progress.</p>");
    Files.write(corpus.resolve("binary.txt"), new byte[] {0x7F, 'E', 'L', 'F', 0, 0});
    String index = dir.resolve("idx").toString();
    CliRunner r = CliRunner.run("ingest", "--index", index, "--no-embed", "--format", "json", "--exclude", "drafts/**",
        corpus.toString());
    assertThat(r.code()).isEqualTo(1);
    JsonNode s = r.json();
    assertThat(s.get("added").asInt()).isEqualTo(2);
    assertThat(s.get("replacedChars").asInt()).isZero();
    assertThat(s.get("failed")).singleElement().satisfies(f -> {
      assertThat(f.get("path").asText()).endsWith("binary.txt");
      assertThat(f.get("error").asText()).contains("binary content (looks like an ELF executable)");
    });
    String binary = corpus.resolve("binary.txt").toString();
    assertThat(r.err()).contains("error: " + binary + ": binary content").doesNotContain(binary + ": " + binary);
    JsonNode hits = CliRunner.run("search", "--index", index, "--format", "json", "-q", "yeast dough", "--mode", "bm25")
        .json();
    assertThat(hits.get("results").get(0).get("title").asText()).isEqualTo("Bread");
    assertThat(hits.get("results").get(0).get("text").asText()).doesNotContain("Home | About");
    assertThat(CliRunner.run("search", "--index", index, "--format", "json", "-q", "progress", "--mode", "bm25")
        .json().get("results")).isEmpty();
    CliRunner badGlob = CliRunner.run("ingest", "--index", index, "--no-embed", "--include", "[x", corpus.toString());
    assertThat(badGlob.code()).isEqualTo(2);
    assertThat(badGlob.err()).contains("invalid include glob '[x'");
  }
}
