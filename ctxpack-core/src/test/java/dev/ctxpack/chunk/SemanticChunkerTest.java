package dev.ctxpack.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.embed.HashingEmbedder;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SemanticChunkerTest {
  private final Tokenizer tokenizer = Tokenizers.defaultTokenizer();

  /** Two topics, each told in several sentences that share words; no paragraph marks the change. */
  static final String COFFEE_THEN_TRAINS_PT =
      "O grão de café maduro é colhido. O grão de café colhido seca ao sol. O café seco vai para a torra do grão. "
          + "A torra do café escurece o grão. O grão de café torrado é moído. O café moído é coado com água quente. "
          + "O trem sai da estação pelos trilhos. Os trilhos levam o trem à serra. O trem sobe a serra nos trilhos. "
          + "Na estação o trem para nos trilhos. A estação recebe o trem da serra. O trem deixa a estação à noite.";

  @Test
  void theChunkEndsWhereTheTopicChanges() {
    Document doc = new Document("d", "", "", Language.PT, Map.of(), COFFEE_THEN_TRAINS_PT);
    List<Chunk> out = new SemanticChunker(tokenizer, new HashingEmbedder(), 10, 300, 1, 90).chunk(doc);
    assertThat(out).extracting(Chunk::text).containsExactly(
        COFFEE_THEN_TRAINS_PT.substring(0, COFFEE_THEN_TRAINS_PT.indexOf(" O trem sai")),
        COFFEE_THEN_TRAINS_PT.substring(COFFEE_THEN_TRAINS_PT.indexOf("O trem sai")));
  }

  @Test
  void oneTopicLongerThanTheMaximumIsStillCutToTheMaximum() {
    String text = "The coffee is roasted in drums and the coffee is ground. ".repeat(60).trim();
    Document doc = new Document("d", "", "", Language.EN, Map.of(), text);
    List<Chunk> out = new SemanticChunker(tokenizer, new HashingEmbedder(), 20, 100, 1, 95).chunk(doc);
    assertThat(out.size()).isGreaterThan(5);
    assertThat(out).allSatisfy(c -> assertThat(c.tokens()).isEqualTo(tokenizer.count(c.text())).isLessThanOrEqualTo(100));
  }

  /** 310 tokens of one topic at a maximum of 300 used to end in a chunk of a sentence or two. */
  @Test
  void aLongStretchIsPackedEvenlySoItsLastChunkReachesTheMinimum() {
    String text = "The coffee is roasted in drums and the coffee is ground. ".repeat(25).trim();
    Document doc = new Document("d", "", "", Language.EN, Map.of(), text);
    int total = tokenizer.count(text);
    int max = total * 9 / 10;
    List<Chunk> out = new SemanticChunker(tokenizer, new HashingEmbedder(), max / 4, max, 1, 95).chunk(doc);
    assertThat(out).hasSize(2);
    assertThat(out).allSatisfy(c -> assertThat(c.tokens()).isBetween(max / 4, max));
  }

  @Test
  void aStretchUnderTheMinimumJoinsItsNeighbour() {
    // At the 50th percentile half the gaps are breakpoints; the minimum forces them back together.
    Document doc = new Document("d", "", "", Language.PT, Map.of(), COFFEE_THEN_TRAINS_PT);
    List<Chunk> out = new SemanticChunker(tokenizer, new HashingEmbedder(), 40, 300, 1, 50).chunk(doc);
    assertThat(out).allSatisfy(c -> assertThat(c.tokens()).isGreaterThanOrEqualTo(40));
  }

  @Test
  void aDocumentInALanguageTheEmbedderDoesNotKnowIsCutByStructure() {
    Embedder englishOnly = new Embedder() {
      private final HashingEmbedder inner = new HashingEmbedder();

      @Override
      public String id() {
        return "english-only";
      }

      @Override
      public int dimension() {
        return inner.dimension();
      }

      @Override
      public Set<Language> languages() {
        return Set.of(Language.EN);
      }

      @Override
      public List<float[]> embed(List<String> texts) {
        throw new AssertionError("a Portuguese document must not be embedded");
      }
    };
    Document doc = new Document("d", "", "", Language.PT, Map.of(), COFFEE_THEN_TRAINS_PT);
    List<Chunk> out = new SemanticChunker(tokenizer, englishOnly, 10, 60, 1, 95).chunk(doc);
    assertThat(out).isEqualTo(new RecursiveChunker(tokenizer, 60, 0).chunk(doc));
  }

  @Test
  void percentileInterpolatesBetweenRanks() {
    assertThat(SemanticChunker.percentile(new double[] {4, 1, 3, 2}, 50)).isEqualTo(2.5);
    assertThat(SemanticChunker.percentile(new double[] {0, 10}, 95)).isEqualTo(9.5);
  }
}
