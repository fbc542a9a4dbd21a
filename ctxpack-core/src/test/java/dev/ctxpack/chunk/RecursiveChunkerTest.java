package dev.ctxpack.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecursiveChunkerTest {
  private final Tokenizer tokenizer = Tokenizers.defaultTokenizer();

  private List<Chunk> chunks(int max, double overlap, Language lang, String text, List<Chunker.SectionMark> marks) {
    Document doc = new Document("d", "", "", lang, Map.of(), text);
    return new RecursiveChunker(tokenizer, max, overlap).chunk(doc, marks);
  }

  private List<String> texts(int max, Language lang, String text) {
    return chunks(max, 0, lang, text, List.of()).stream().map(Chunk::text).toList();
  }

  @Test
  void aChunkNeverCrossesAMarkdownHeadingWhenTheSectionsFit() {
    String md = "# Instalação\n\nBaixe o pacote. Execute o instalador.\n\n# Uso\n\nRode o comando.\n";
    assertThat(texts(300, Language.PT, md))
        .containsExactly("# Instalação\n\nBaixe o pacote. Execute o instalador.", "# Uso\n\nRode o comando.");
  }

  @Test
  void aLoadersSectionMarksAreBoundariesToo() {
    String text = "First part of the page. It ends here.\nSecond part begins. It has its own heading.";
    int second = text.indexOf("Second");
    List<Chunk> out = chunks(300, 0, Language.EN, text,
        List.of(new Chunker.SectionMark(0, "Page > A"), new Chunker.SectionMark(second, "Page > B")));
    assertThat(out).extracting(Chunk::text)
        .containsExactly("First part of the page. It ends here.", "Second part begins. It has its own heading.");
    assertThat(out).extracting(Chunk::section).containsExactly("Page > A", "Page > B");
  }

  @Test
  void smallParagraphsArePackedTogetherAndFullChunksEndAtAParagraph() {
    String p1 = "The retriever finds candidates. The reranker orders them by relevance to the query.";
    String p2 = "The packer fits the best ones into the budget. Every drop is written to the trace.";
    String p3 = "Compression keeps only the sentences that answer. It never rewrites the source text.";
    String text = p1 + "\n\n" + p2 + "\n\n" + p3;
    int twoParagraphs = tokenizer.count(p1 + "\n\n" + p2);
    // Room for two paragraphs and a bit: the first chunk holds p1 and p2 whole, not a part of p3.
    List<String> out = texts(twoParagraphs + 8, Language.EN, text);
    assertThat(out).containsExactly(p1 + "\n\n" + p2, p3);
  }

  @Test
  void aLongParagraphIsCutAtSentencesInTheDocumentsLanguage() {
    String s1 = "O Dr. Silva chegou cedo à reunião de segunda-feira.";
    String s2 = "A Sra. Costa trouxe os relatórios da pág. 12 do manual.";
    String s3 = "Todos concordaram com o novo formato dos documentos.";
    String text = s1 + " " + s2 + " " + s3;
    int max = Math.max(tokenizer.count(s1), Math.max(tokenizer.count(s2), tokenizer.count(s3))) + 2;
    assertThat(texts(max, Language.PT, text)).containsExactly(s1, s2, s3);
  }

  @Test
  void overlapRepeatsTheLastWholePiecesOfThePreviousChunk() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 40; i++) sb.append("Sentence number ").append(i).append(" talks about tokens. ");
    List<Chunk> out = chunks(60, 0.25, Language.EN, sb.toString().trim(), List.of());
    assertThat(out.size()).isGreaterThan(2);
    for (int i = 1; i < out.size(); i++) {
      Chunk prev = out.get(i - 1);
      Chunk cur = out.get(i);
      assertThat(cur.span().start()).as("chunk %d overlaps its predecessor", i).isLessThan(prev.span().end());
      // The shared text starts at a sentence.
      assertThat(cur.text()).startsWith("Sentence number ");
      assertThat(tokenizer.count(prev.text().substring(cur.span().start() - prev.span().start()))).isLessThanOrEqualTo(15 + 2);
    }
  }

  @Test
  void aHugeWordIsCutAtTokenBoundariesAndEveryCountIsExact() {
    String text = "Início. " + "x".repeat(5000) + " Fim.";
    List<Chunk> out = chunks(50, 0, Language.PT, text, List.of());
    assertThat(out.get(0).text()).isEqualTo("Início.");
    assertThat(out.get(out.size() - 1).text()).endsWith("x Fim.");
    assertThat(out).allSatisfy(c -> assertThat(c.tokens()).isEqualTo(tokenizer.count(c.text())).isLessThanOrEqualTo(50));
  }
}
