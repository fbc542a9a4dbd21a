package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.chunk.Chunkers;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.TextNormalizer;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzz targets over the loaders and the chunkers, asserting the invariants of DESIGN.md: a loader
 * throws nothing but {@link IngestException}; section and page starts lie inside the text; every
 * chunk's text is the document's substring at its offsets, starts never go backwards, no chunk
 * holds more tokens than the maximum, and each chunk has the page it starts on.
 *
 * <p>{@code mvn verify} replays the committed seeds under {@code
 * src/test/resources/dev/ctxpack/ingest/LoaderFuzzTestInputs/<method>/}; {@code JAZZER_FUZZ=1}
 * fuzzes one method (docs/API.md gives the command). Inputs are raw bytes: for {@link #loaders}
 * the first byte picks the loader ({@code t} text, {@code m} Markdown, {@code j} JSON Lines,
 * {@code h} HTML, {@code p} PDF, others by value) and the rest is the file; for {@link #chunkers}
 * the first byte picks the chunker of {@link Chunkers#names()}, the second the maximum tokens
 * (8 + value % 120), the third the overlap and, by its lowest bit, whether the rest is read as
 * UTF-16LE (lone surrogates reachable) or UTF-8.
 */
class LoaderFuzzTest {
  private static final List<Loader> LOADERS = List.of(new TextLoader(), new MarkdownLoader(), new JsonlLoader(),
      new HtmlLoader(), new PdfLoader());
  private static final String PICKS = "tmjhp";
  private static final Tokenizer TOKENIZER = Tokenizers.defaultTokenizer();
  /** The semantic chunker's vectors: a real embedder that needs no model file. */
  private static final dev.ctxpack.embed.Embedder EMBEDDER = new dev.ctxpack.embed.HashingEmbedder();
  private static Path dir;

  @BeforeAll
  static void tempDir() throws IOException {
    dir = Files.createTempDirectory("ctxpack-fuzz");
  }

  @AfterAll
  static void removeTempDir() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) Files.deleteIfExists(p);
    }
    Files.deleteIfExists(dir);
  }

  @FuzzTest(maxDuration = "5m")
  void loaders(byte[] input) throws IOException {
    if (input.length == 0) return;
    int pick = PICKS.indexOf((char) (input[0] & 0xFF));
    Loader loader = LOADERS.get(pick >= 0 ? pick : (input[0] & 0xFF) % LOADERS.size());
    byte[] content = Arrays.copyOfRange(input, 1, input.length);
    // JSON Lines reads the file itself: every loader gets a real file holding the content.
    Path file = dir.resolve("input" + loader.extensions().get(0));
    Files.write(file, content);
    List<LoadedDocument> docs;
    try {
      docs = loader.load(file, content);
    } catch (IngestException expected) {
      assertThat(expected.getMessage()).startsWith(file.toString());
      return;
    }
    for (LoadedDocument d : docs) {
      int len = d.text().length();
      int last = 0;
      for (Chunker.SectionMark m : d.sections()) {
        assertThat(m.start()).isBetween(last, len);
        last = m.start();
      }
      last = 0;
      for (int start : d.pages()) {
        assertThat(start).isBetween(last, len);
        last = start;
      }
      String text = TextNormalizer.storageForm(d.text());
      if (text.isBlank()) continue;
      Document doc = new Document("d", "", d.title(), Language.EN, d.metadata(), text);
      for (String name : Chunkers.names()) {
        checkChunks(doc, Chunkers.byName(name, TOKENIZER, 64, 0.15, EMBEDDER), d.sections(), d.pages());
      }
    }
  }

  @FuzzTest(maxDuration = "5m")
  void chunkers(byte[] input) {
    if (input.length < 3) return;
    List<String> names = Chunkers.names();
    String name = names.get((input[0] & 0xFF) % names.size());
    int maxTokens = 8 + (input[1] & 0xFF) % 120;
    double overlap = ((input[2] & 0xFF) >> 1) % 50 / 100.0;
    byte[] rest = Arrays.copyOfRange(input, 3, input.length);
    String text = (input[2] & 1) == 1 ? new String(rest, StandardCharsets.UTF_16LE) : new String(rest, StandardCharsets.UTF_8);
    Document doc = new Document("d", "", "", Language.UNKNOWN, null, text);
    checkChunks(doc, Chunkers.byName(name, TOKENIZER, maxTokens, overlap, EMBEDDER), List.of(), List.of());
  }

  private static void checkChunks(Document doc, Chunker chunker, List<Chunker.SectionMark> sections,
      List<Integer> pages) {
    List<Chunk> chunks = LoadedDocument.withPages(chunker.chunk(doc, sections), pages);
    int lastStart = 0;
    for (Chunk c : chunks) {
      String where = chunker.name() + " chunk " + c.id() + " " + c.span();
      assertThat(c.span().start()).as(where).isGreaterThanOrEqualTo(lastStart);
      assertThat(c.span().end()).as(where).isLessThanOrEqualTo(doc.text().length());
      assertThat(c.text()).as(where).isEqualTo(doc.text().substring(c.span().start(), c.span().end()));
      assertThat(TOKENIZER.count(c.text())).as(where).isLessThanOrEqualTo(chunker.maxTokens());
      assertThat(c.page()).as(where).isEqualTo(LoadedDocument.pageAt(pages, c.span().start()));
      lastStart = c.span().start();
    }
  }
}
