package dev.ctxpack.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.testing.RandomText;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** What {@link TokenChunker} promises beyond the chunker contract: size, overlap and progress. */
class TokenChunkerTest {
  private final Tokenizer tokenizer = Tokenizers.defaultTokenizer();

  private static Document doc(String text) {
    return new Document("d", "", "", Language.EN, Map.of(), text);
  }

  /** Sentences of about 12 tokens, far shorter than any overlap used below. */
  private static String shortSentences(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append("Sentence number ").append(i).append(" talks about retrieval and its budget. ");
      if (i % 9 == 8) sb.append("\n\n");
    }
    return sb.toString().strip();
  }

  @Example
  void defaultChunksOfRealisticProseAreCloseToTheMaximum() {
    TokenChunker chunker = new TokenChunker(tokenizer, TokenChunker.DEFAULT_MAX_TOKENS, TokenChunker.DEFAULT_OVERLAP);
    List<Chunk> chunks = chunker.chunk(doc(Prose.text()));
    assertThat(chunks.size()).isGreaterThan(4);
    for (Chunk c : chunks.subList(0, chunks.size() - 1)) {
      assertThat(c.tokens()).as(c.id()).isBetween(150, 300);
    }
  }

  @Example
  void withOverlapConsecutiveChunksShareText() {
    for (double overlap : new double[] {0.15, 0.3, 0.45}) {
      List<Chunk> chunks = new TokenChunker(tokenizer, 100, overlap).chunk(doc(shortSentences(80)));
      assertThat(chunks.size()).isGreaterThan(3);
      for (int i = 1; i < chunks.size(); i++) {
        Chunk prev = chunks.get(i - 1);
        Chunk next = chunks.get(i);
        assertThat(next.span().start()).as("overlap %s: %s starts inside %s", overlap, next.span(), prev.span())
            .isLessThan(prev.span().end());
        // The shared text is whole sentences, and no more than the overlap.
        String shared = prev.text().substring(next.span().start() - prev.span().start());
        assertThat(tokenizer.count(shared)).isLessThanOrEqualTo((int) Math.floor(100 * overlap));
        assertThat(shared).startsWith("Sentence number ").endsWith(".");
      }
    }
  }

  @Example
  void withoutOverlapChunksAreDisjoint() {
    for (String text : new String[] {shortSentences(80), Prose.text()}) {
      List<Chunk> chunks = new TokenChunker(tokenizer, 100, 0).chunk(doc(text));
      assertThat(chunks.size()).isGreaterThan(3);
      for (int i = 1; i < chunks.size(); i++) {
        assertThat(chunks.get(i).span().start()).isGreaterThanOrEqualTo(chunks.get(i - 1).span().end());
      }
    }
  }

  @Example
  void aChunkCutInsideALongSentenceOverlapsByItsTrailingWords() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 400; i++) sb.append("word").append(i).append(' ');
    List<Chunk> chunks = new TokenChunker(tokenizer, 60, 0.25).chunk(doc(sb.toString().strip() + "."));
    for (int i = 1; i < chunks.size(); i++) {
      assertThat(chunks.get(i).span().start()).isLessThanOrEqualTo(chunks.get(i - 1).span().end());
    }
  }

  /**
   * When the unit after a chunk did not fit beside the overlap, the next chunk used to be the
   * overlap alone: text already chunked, wholly inside its predecessor.
   */
  @Example
  void regressionOverlapWithoutRoomForTheNextUnitRepeatedText() {
    // Whole-sentence overlap: "A third short one here." came out twice.
    String sentences = "Short one. Another short one. A third short one here.\n\n"
        + "The paragraph after the break is a little longer than the others.";
    assertThat(texts(new TokenChunker(tokenizer, 14, 0.45).chunk(doc(sentences)))).containsExactly(
        "Short one. Another short one. A third short one here.",
        "The paragraph after the break is a little longer than the others.");
    // Word-tail overlap: the estimate did not see the tokens of the blank line, so "Retrieval" came out alone.
    String heading = "# Retrieval\n\nChunking is the first decision and the hardest to undo.";
    assertThat(texts(new TokenChunker(tokenizer, 14, 0.15).chunk(doc(heading)))).containsExactly(
        "# Retrieval", "Chunking is the first decision and the hardest to undo.");
  }

  private static List<String> texts(List<Chunk> chunks) {
    return chunks.stream().map(Chunk::text).toList();
  }

  @Provide
  Arbitrary<String> texts() {
    return RandomText.text(400);
  }

  @Provide
  Arbitrary<Double> overlaps() {
    return Arbitraries.of(0.0, 0.1, 0.25, 0.49);
  }

  @Property(tries = 200)
  void everyChunkAddsTextThePreviousOneDidNotHave(
      @ForAll("texts") String text, @ForAll @IntRange(min = 8, max = 120) int max, @ForAll("overlaps") double overlap) {
    assertEachChunkAddsText(new TokenChunker(tokenizer, max, overlap).chunk(doc(text)));
  }

  @Property(tries = 100)
  void everyChunkAddsTextOnProseWithLongSentences(
      @ForAll @IntRange(min = 8, max = 400) int max, @ForAll("overlaps") double overlap) {
    String text = Prose.text().replace(". ", ", and ") + "\n\n" + shortSentences(30);
    assertEachChunkAddsText(new TokenChunker(tokenizer, max, overlap).chunk(doc(text)));
  }

  private static void assertEachChunkAddsText(List<Chunk> chunks) {
    for (int i = 1; i < chunks.size(); i++) {
      assertThat(chunks.get(i).span().end())
          .as("%s %s ends after %s", chunks.get(i).id(), chunks.get(i).span(), chunks.get(i - 1).span())
          .isGreaterThan(chunks.get(i - 1).span().end());
    }
  }

  /** Counts the chars every {@code truncate} call is given: the work a long word costs. */
  private static final class CountingTokenizer implements Tokenizer {
    private final Tokenizer delegate;
    long truncatedChars;

    CountingTokenizer(Tokenizer delegate) {
      this.delegate = delegate;
    }

    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public int count(String text) {
      return delegate.count(text);
    }

    @Override
    public Truncation truncate(String text, int maxTokens) {
      truncatedChars += text.length();
      return delegate.truncate(text, maxTokens);
    }
  }

  /** A long word used to be re-encoded whole for every piece cut from it: quadratic work. */
  @Example
  void regressionLongWordWasReencodedForEveryPiece() {
    String word = "abcdefghij".repeat(4_000);
    CountingTokenizer forToken = new CountingTokenizer(tokenizer);
    CountingTokenizer forSentence = new CountingTokenizer(tokenizer);
    assertLinearWork(new TokenChunker(forToken, 8, 0), forToken, word);
    assertLinearWork(new SentenceChunker(forSentence, 8), forSentence, word);
  }

  private static void assertLinearWork(Chunker chunker, CountingTokenizer counting, String word) {
    List<Chunk> chunks = chunker.chunk(doc(word));
    assertThat(String.join("", chunks.stream().map(Chunk::text).toList())).isEqualTo(word);
    assertThat(counting.truncatedChars).as("%s: chars handed to truncate for a %d-char word", chunker.name(), word.length())
        .isLessThan(100L * word.length());
  }

  @Example
  void invalidConfigurationIsRejectedNamingTheValue() {
    assertThatThrownBy(() -> new TokenChunker(tokenizer, 7, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7");
    assertThatThrownBy(() -> new TokenChunker(tokenizer, 300, 0.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
    assertThatThrownBy(() -> new TokenChunker(tokenizer, 300, -0.1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
    assertThatThrownBy(() -> new TokenChunker(tokenizer, 300, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
    assertThatThrownBy(() -> new TokenChunker(null, 300, 0.1)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new SentenceChunker(tokenizer, 4))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4");
  }

  @Example
  void chunkersByName() {
    assertThat(Chunkers.byName("Token", tokenizer, 300, 0.15)).isInstanceOf(TokenChunker.class);
    assertThat(Chunkers.byName(" sentence ", tokenizer, 300, 0.15)).isInstanceOf(SentenceChunker.class);
    assertThat(Chunkers.byName("token", tokenizer, 128, 0.1).maxTokens()).isEqualTo(128);
    assertThat(Chunkers.byName("recursive", tokenizer, 300, 0.15)).isInstanceOf(RecursiveChunker.class);
    assertThat(Chunkers.byName("sentence-window", tokenizer, 300, 0.15)).isInstanceOf(SentenceWindowChunker.class);
    assertThat(Chunkers.byName("passage", tokenizer, 300, 0.15)).isInstanceOf(PassageChunker.class);
    assertThat(Chunkers.byName("semantic", tokenizer, 300, 0.15, new dev.ctxpack.embed.HashingEmbedder()))
        .isInstanceOf(SemanticChunker.class);
    assertThatThrownBy(() -> Chunkers.byName("semantic", tokenizer, 300, 0.15))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs an embedder");
    assertThatThrownBy(() -> Chunkers.byName("bogus", tokenizer, 300, 0.15))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bogus").hasMessageContaining("token").hasMessageContaining("recursive")
        .hasMessageContaining("sentence-window").hasMessageContaining("semantic").hasMessageContaining("passage");
  }

  /** Each chunker's signature names its parameters, so switching any of them re-ingests. */
  @Example
  void signaturesTellChunkersAndTheirParametersApart() {
    java.util.Set<String> signatures = new java.util.HashSet<>();
    for (String name : List.of("token", "recursive", "sentence", "sentence-window", "passage")) {
      assertThat(signatures.add(Chunkers.byName(name, tokenizer, 300, 0.15).signature())).as(name).isTrue();
    }
    assertThat(signatures.add(Chunkers.byName("semantic", tokenizer, 300, 0.15, new dev.ctxpack.embed.HashingEmbedder()).signature())).isTrue();
    assertThat(new TokenChunker(tokenizer, 300, 0.15).signature()).isEqualTo("token:300:0.15");
    assertThat(new SentenceChunker(tokenizer, 300).signature()).isEqualTo("sentence:300:0.0");
    assertThat(new RecursiveChunker(tokenizer, 300, 0.1).signature()).isNotEqualTo(new RecursiveChunker(tokenizer, 300, 0.2).signature());
    assertThat(new PassageChunker(tokenizer, 300, 100).signature()).isNotEqualTo(new PassageChunker(tokenizer, 300, 50).signature());
    assertThat(new SemanticChunker(tokenizer, new dev.ctxpack.embed.HashingEmbedder(64), 300).signature())
        .isNotEqualTo(new SemanticChunker(tokenizer, new dev.ctxpack.embed.HashingEmbedder(128), 300).signature());
  }
}
