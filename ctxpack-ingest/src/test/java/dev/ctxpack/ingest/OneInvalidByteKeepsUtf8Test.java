package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.token.Tokenizers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 8d: a UTF-8 file with one invalid byte fell back to Windows-1252 (its page
 * declared ISO-8859-1, as pages saved again by an editor do) and every {@code ação} became {@code
 * aÃ§Ã£o}, with {@code replacedChars: 0}. Bytes that are overwhelmingly UTF-8 are now UTF-8 whatever
 * the declaration: the valid text is kept and the invalid byte is one counted U+FFFD.
 */
class OneInvalidByteKeepsUtf8Test {
  private static final String PT = "A informação sobre a ação judicial foi publicada às 10h; a comissão pediu atenção.";

  @TempDir Path dir;

  private static byte[] utf8WithOneBadByte(String head, String tail) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
    out.write(0xE9); // a Latin-1 "é" pasted into a UTF-8 file
    out.writeBytes(tail.getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  @Test
  void aPageDeclaredLatin1WhoseBytesAreUtf8WithOneBadByteStaysUtf8() throws Exception {
    byte[] html = utf8WithOneBadByte("<html><head><meta charset=\"iso-8859-1\"><title>Nota</title></head><body><main>"
        + "<p>" + PT + "</p><p>" + PT + " Caf", " com leite.</p></main></body></html>");
    Path f = Files.write(dir.resolve("nota.html"), html);

    LoadedDocument doc = new LoadGuard(LoadLimits.DEFAULTS).load(new HtmlLoader(), f).get(0);

    assertThat(doc.text()).isEqualTo(PT + "\n\n" + PT + " Caf\uFFFD com leite.");
    assertThat(doc.text()).doesNotContain("Ã");
    assertThat(doc.replacedChars()).isEqualTo(1);
  }

  @Test
  void theIngestSummaryCountsTheReplacedByteAndKeepsEveryAccent() throws Exception {
    Files.write(dir.resolve("nota.html"), utf8WithOneBadByte("<html><head><meta http-equiv=\"Content-Type\" "
        + "content=\"text/html; charset=ISO-8859-1\"></head><body><main><p>" + PT + " Caf", "</p></main></body></html>"));
    Files.write(dir.resolve("nota.md"), utf8WithOneBadByte("# Nota\n\n" + PT + "\n\nCaf", " com leite.\n"));
    SentenceVectorIngestTest.MemoryIndex index = new SentenceVectorIngestTest.MemoryIndex();
    TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 64, 0.1);

    IngestSummary s = new Ingestor(index, Loaders.defaults(), IngestOptions.of(chunker, null), null).ingest(List.of(dir));

    assertThat(s.failed()).isEmpty();
    assertThat(s.replacedChars()).isEqualTo(2);
    assertThat(index.entries.values()).hasSize(2).allSatisfy(e -> {
      assertThat(e.doc().text()).contains("informação sobre a ação judicial").doesNotContain("Ã");
      assertThat(e.doc().text()).contains("Caf\uFFFD");
    });
  }

  @Test
  void aGenuineLatin1PageDeclaredSoIsStillLatin1() {
    Charset cp1252 = Charset.forName("windows-1252");
    TextDecoding.Decoded d = TextDecoding.decode((PT + " Café.").getBytes(cp1252), StandardCharsets.ISO_8859_1);
    assertThat(d.text()).isEqualTo(PT + " Café.");
    assertThat(d.replacedChars()).isZero();
    // Damaged UTF-8 under a Latin-1 label: UTF-8, the damage counted.
    TextDecoding.Decoded u = TextDecoding.decode(utf8WithOneBadByte(PT + " Caf", "."), StandardCharsets.ISO_8859_1);
    assertThat(u.charset()).isEqualTo(StandardCharsets.UTF_8);
    assertThat(u.text()).isEqualTo(PT + " Caf\uFFFD.");
    assertThat(u.replacedChars()).isEqualTo(1);
  }
}
