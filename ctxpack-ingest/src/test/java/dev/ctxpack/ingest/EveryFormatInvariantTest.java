package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.chunk.Chunkers;
import dev.ctxpack.embed.HashingEmbedder;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The substring invariant over a whole corpus of every format the loaders read (HTML pages, a
 * multi-page PDF with a running head, Markdown with CRLF and a BOM, Latin-1 text, damaged UTF-8, JSON
 * Lines in both languages), cleaned and cut by every chunker: each stored chunk is its document's
 * text at its offsets, within the maximum, with its exact token count, and PDF chunks carry a page.
 */
class EveryFormatInvariantTest {
  private static final int MAX = 48;
  private static final Tokenizer TOKENIZER = Tokenizers.defaultTokenizer();

  @TempDir Path dir;

  static List<String> chunkers() {
    return Chunkers.names();
  }

  private Path corpus() throws Exception {
    Path c = dir.resolve("corpus");
    Files.createDirectories(c.resolve("web"));
    for (String page : List.of("guide-en.html", "noticia-pt.html")) {
      try (InputStream in = getClass().getResourceAsStream("html/" + page)) {
        Files.copy(in, c.resolve("web").resolve(page));
      }
    }
    Files.write(c.resolve("relatorio.pdf"), TestPdfs.pdf("Relatório", 
        "Relatório Anual 2024\nA receita cresceu oito por cento no ano, puxada pelas exportações de café.\nPágina 1",
        "Relatório Anual 2024\nOs custos de energia caíram depois da troca dos equipamentos da fábrica.\nPágina 2",
        "Relatório Anual 2024\nA diretoria propõe dividendos maiores e novos investimentos no Nordeste.\nPágina 3"));
    Files.write(c.resolve("notes.md"), ("\uFEFF# Coffee\r\n\r\nCoffee grows in the tropics.   The beans are roasted.\r\n\r\n"
        + "## Tea 🍵\r\n\r\nTea is steeped in hot water; 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 survives.\r\n").getBytes(StandardCharsets.UTF_8));
    Files.write(c.resolve("latin1.txt"), "A ação começou às três horas. O público aplaudiu a decisão.\n"
        .getBytes(StandardCharsets.ISO_8859_1));
    byte[] damaged = "Mostly valid UTF-8 — with a broken byte here: X and more text after it.\n".getBytes(StandardCharsets.UTF_8);
    damaged[damaged.length - 25] = (byte) 0xC3;
    Files.write(c.resolve("damaged.txt"), damaged);
    Files.writeString(c.resolve("docs.jsonl"), """
        {"_id": "en-1", "title": "Tea", "text": "Tea is an aromatic beverage prepared by pouring hot water over cured leaves. It is drunk worldwide."}
        {"_id": "pt-1", "title": "Mate", "text": "O chimarrão é uma bebida tradicional do sul do Brasil.\\n\\nÉ preparado com erva-mate e água quente."}
        {"_id": "long", "text": "%s"}
        {"_id": "lone", "text": "A lone surrogate \\ud800 from an escape, then text."}
        """.formatted("palavra".repeat(3000)));
    return c;
  }

  @ParameterizedTest
  @MethodSource("chunkers")
  void everyChunkOfEveryFormatIsItsDocumentsTextAtItsOffsets(String name) throws Exception {
    Chunker chunker = Chunkers.byName(name, TOKENIZER, MAX, 0.15, new HashingEmbedder());
    SentenceVectorIngestTest.MemoryIndex index = new SentenceVectorIngestTest.MemoryIndex();
    IngestOptions options = new IngestOptions(chunker, Optional.empty(), Optional.empty(),
        IngestOptions.DEFAULT_VECTOR_WINDOW, IngestOptions.DEFAULT_COMMIT_EVERY, false, false);
    IngestSummary s = new Ingestor(index, Loaders.defaults(), options, null).ingest(List.of(corpus()));
    assertThat(s.failed()).as(name).isEmpty();
    assertThat(index.entries).as(name).hasSize(10);
    assertThat(s.replacedChars()).as(name).isPositive();
    for (IndexEntry e : index.entries.values()) {
      String text = e.doc().text();
      assertThat(e.chunks()).as(name + " " + e.doc().id()).isNotEmpty();
      for (Chunk c : e.chunks()) {
        String where = name + " " + c.id();
        assertThat(text.substring(c.span().start(), c.span().end())).as(where).isEqualTo(c.text());
        assertThat(c.tokens()).as(where).isEqualTo(TOKENIZER.count(c.text())).isLessThanOrEqualTo(MAX);
        if (e.doc().uri().endsWith(".pdf")) assertThat(c.page()).as(where).isBetween(1, 3);
        else assertThat(c.page()).as(where).isZero();
      }
      if (e.doc().uri().endsWith(".pdf")) assertThat(text).doesNotContain("Relatório Anual 2024");
    }
  }
}
