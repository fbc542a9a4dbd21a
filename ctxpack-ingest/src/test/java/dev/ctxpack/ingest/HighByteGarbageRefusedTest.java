package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.token.Tokenizers;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 8c: 50 kB of high-byte garbage without a NUL, named {@code .md}, passed the binary
 * check, decoded as Windows-1252 and became 215 chunks of junk. Bytes that decode to no text are now
 * refused; Portuguese and English text in UTF-8, Windows-1252 and ISO-8859-1 still loads unchanged.
 */
class HighByteGarbageRefusedTest {
  private static final Charset CP1252 = Charset.forName("windows-1252");
  private static final String PT = "# Relatório\n\nA informação sobre a ação judicial foi publicada às 10h; o coração da "
      + "questão é a indenização — R$ 5 mil. Não há exceção: a decisão saiu após três sessões, e a "
      + "comissão pediu atenção à execução orçamentária, à gestão e à prestação de contas públicas.\n";
  private static final String EN = "# Report\n\nThe committee’s “final” report — published on Tuesday — says the "
      + "budget grew by 5 % and that the café on Main Street will stay open; nobody objected.\n";

  @TempDir Path dir;
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 64, 0.1);

  /** {@code n} bytes from 0x80 to 0xFF with a line break now and then: no NUL, no control byte. */
  static byte[] highByteGarbage(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) b[i] = (byte) (i % 80 == 79 ? '\n' : 0x80 + r.nextInt(128));
    return b;
  }

  @Test
  void highByteGarbageIsRefusedAndTheOtherFilesAreIngested() throws Exception {
    Files.write(dir.resolve("garbage.md"), highByteGarbage(50_000, 23));
    Files.write(dir.resolve("garbage.txt"), highByteGarbage(50_000, 24));
    Files.write(dir.resolve("notes.md"), PT.getBytes(StandardCharsets.UTF_8));
    SentenceVectorIngestTest.MemoryIndex index = new SentenceVectorIngestTest.MemoryIndex();

    IngestSummary s = new Ingestor(index, Loaders.defaults(), IngestOptions.of(chunker, null), null).ingest(List.of(dir));

    Map<String, String> failed = new TreeMap<>();
    for (IngestSummary.Failure f : s.failed()) failed.put(Path.of(f.path()).getFileName().toString(), f.error());
    assertThat(failed.keySet()).containsExactly("garbage.md", "garbage.txt");
    assertThat(failed.get("garbage.md")).startsWith(dir.resolve("garbage.md") + ": not text (")
        .contains("% of its characters are outside ASCII, yet its bytes are not UTF-8: neither UTF-8 nor "
            + "Windows-1252 (Latin-1) text); skipped");
    assertThat(s.added()).isEqualTo(1);
    assertThat(s.chunks()).isLessThan(10);
    assertThat(index.entries.values()).singleElement().satisfies(e -> assertThat(e.doc().text()).contains("ação judicial"));
  }

  @Test
  void garbageIsRefusedByEveryTextLoaderWithItsReason() throws Exception {
    byte[] garbage = highByteGarbage(50_000, 7);
    LoadGuard guard = new LoadGuard(LoadLimits.DEFAULTS);
    for (String name : List.of("g.md", "g.txt", "g.html")) {
      Path f = Files.write(dir.resolve(name), garbage);
      assertThatThrownBy(() -> guard.load(Loaders.defaults().forFile(f).orElseThrow(), f))
          .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Rejected.Reason.NOT_TEXT))
          .hasMessageStartingWith(f + ": not text (");
    }
    // Printable ASCII mixed half and half with high bytes: still no language's text.
    SplittableRandom r = new SplittableRandom(5);
    byte[] mixed = new byte[20_000];
    for (int i = 0; i < mixed.length; i++) mixed[i] = (byte) (r.nextBoolean() ? 0x21 + r.nextInt(94) : 0x80 + r.nextInt(128));
    Path f = Files.write(dir.resolve("mixed.txt"), mixed);
    assertThatThrownBy(() -> guard.load(new TextLoader(), f)).hasMessageContaining("not text (");
    // UTF-8 so damaged that a fifth of it is replaced is refused too, not stored as U+FFFD: every
    // "ação " (61 C3 A7 C3 A3 6F 20) loses the second byte of its "ç".
    byte[] d = "ação ".repeat(200).getBytes(StandardCharsets.UTF_8);
    for (int i = 2; i < d.length; i += 7) d[i] = 'A';
    Path g = Files.write(dir.resolve("damaged.txt"), d);
    assertThatThrownBy(() -> guard.load(new TextLoader(), g)).hasMessageContaining("replace invalid bytes (U+FFFD)");
  }

  @Test
  void portugueseAndEnglishTextLoadsInEverySupportedEncoding() throws Exception {
    LoadGuard guard = new LoadGuard(LoadLimits.DEFAULTS);
    Map<String, Charset> encodings = Map.of("utf8", StandardCharsets.UTF_8, "cp1252", CP1252,
        "latin1", StandardCharsets.ISO_8859_1);
    for (Map.Entry<String, Charset> enc : encodings.entrySet()) {
      for (Map.Entry<String, String> text : Map.of("pt", PT.repeat(3), "en", EN.repeat(3)).entrySet()) {
        // ISO-8859-1 has no typographic quotes and dashes: the English text goes without them there.
        String t = enc.getValue().equals(StandardCharsets.ISO_8859_1)
            ? text.getValue().replace('’', '\'').replace('“', '"').replace('”', '"').replace('—', '-') : text.getValue();
        for (String ext : List.of(".md", ".txt")) {
          Path f = Files.write(dir.resolve(text.getKey() + "-" + enc.getKey() + ext), t.getBytes(enc.getValue()));
          List<LoadedDocument> docs = guard.load(Loaders.defaults().forFile(f).orElseThrow(), f);
          assertThat(docs).singleElement().satisfies(doc -> {
            assertThat(doc.text()).as(f.getFileName().toString()).isEqualTo(t);
            assertThat(doc.replacedChars()).isZero();
          });
        }
      }
    }
    // Windows-1252 text dense in accents and typographic punctuation is still text.
    String dense = "Ação, exceção, coração, não, então, órgão, açúcar — “já” ‘é’ às três… ".repeat(20);
    assertThat(TextCheck.whyNot(TextDecoding.decode(dense.getBytes(CP1252)))).isNull();
  }
}
