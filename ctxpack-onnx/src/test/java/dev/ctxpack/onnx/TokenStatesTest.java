package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.FeatureSentenceScorer;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceTokens;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.TokenStates;
import dev.ctxpack.model.Language;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MiniLM's token states and the sentence scorer's token-match features read from them. */
class TokenStatesTest {
  private static final MiniLmEmbedder MINILM = new MiniLmEmbedder();

  @Test
  void everyTokenIsUnitLengthAndPlacedInTheText() {
    String text = "The Rhine rises in the Swiss Alps.";
    TokenStates t = MINILM.tokenStates(text);
    assertThat(t.size()).isGreaterThan(8);
    StringBuilder words = new StringBuilder();
    for (int i = 0; i < t.size(); i++) {
      double n = 0;
      for (float x : t.vectors()[i]) n += x * x;
      assertThat(Math.sqrt(n)).isCloseTo(1.0, within(1e-4));
      if (t.start()[i] < 0) {
        assertThat(t.content()[i]).as("special token %d", i).isFalse();
        continue;
      }
      String piece = text.substring(t.start()[i], t.end()[i]);
      assertThat(t.content()[i]).as(piece).isEqualTo(!piece.equals("."));
      if (t.content()[i]) words.append(piece).append(' ');
    }
    assertThat(t.start()[0]).isEqualTo(-1); // [CLS]
    assertThat(t.start()[t.size() - 1]).isEqualTo(-1); // [SEP]
    assertThat(words.toString()).isEqualTo("The Rhine rises in the Swiss Alps ");
    assertThat(MINILM.tokenStates("   ")).isNull();
  }

  @Test
  void aCachingEmbedderPassesTheTokenStatesOnAndAFileModelHasNone() {
    TokenStates direct = MINILM.tokenStates("Barges carry coal.");
    TokenStates cached = new CachingEmbedder(MINILM, 10).tokenStates("Barges carry coal.");
    assertThat(cached.vectors()).isDeepEqualTo(direct.vectors());
    assertThat(cached.start()).containsExactly(direct.start());
  }

  @Test
  void eachSentenceIsReadInItsPassageAndALongPartInSeveralWindows() throws Exception {
    String filler = "Barges carry coal and grain along the river towards the northern ports every season. ";
    String longPart = filler.repeat(30) + "The Rhine is about 1,230 kilometres long. " + filler.repeat(10); // ~700 word pieces
    List<CompressInput> inputs = List.of(CompressInput.of("a", longPart),
        CompressInput.of("b", "Marie Curie was born in Warsaw. She won two Nobel prizes."));
    List<Sentence> sentences = ExtractiveCompressor.defaults(SentenceVectors.none()).sentences(inputs);
    SentenceTokens t = SentenceTokens.read(MINILM, "", "", "How long is the Rhine?", inputs, sentences);
    assertThat(t.windows().length).isEqualTo(3); // the long part in two passes of at most 512 pieces cut at a whole sentence, b in one
    for (int i = 0; i < sentences.size(); i++) assertThat(t.sentences()[i]).as(sentences.get(i).text()).isNotEmpty();
    double[][] m = t.match();
    int best = 0;
    for (int i = 1; i < m.length; i++) if (m[i][1] > m[best][1]) best = i;
    assertThat(sentences.get(best).text()).isEqualTo("The Rhine is about 1,230 kilometres long.");
  }

  @Test
  void onePassPerPassageGivesTheSentenceVectorsTooNoSentenceIsEmbeddedAlone() throws Exception {
    java.util.concurrent.atomic.AtomicInteger embedded = new java.util.concurrent.atomic.AtomicInteger();
    dev.ctxpack.embed.Embedder counting = new dev.ctxpack.embed.Embedder() {
      @Override
      public String id() {
        return MINILM.id();
      }

      @Override
      public int dimension() {
        return MINILM.dimension();
      }

      @Override
      public java.util.Set<Language> languages() {
        return MINILM.languages();
      }

      @Override
      public List<float[]> embed(List<String> texts) {
        embedded.addAndGet(texts.size());
        return MINILM.embed(texts);
      }

      @Override
      public TokenStates tokenStates(String text) {
        return MINILM.tokenStates(text);
      }
    };
    List<CompressInput> inputs = List.of(CompressInput.of("a", "The Rhine rises in the Swiss Alps. It is about 1,230 km long. Barges carry coal."));
    List<Sentence> sentences = ExtractiveCompressor.defaults(SentenceVectors.none()).sentences(inputs);
    SentenceTokens t = SentenceTokens.read(counting, "", "", "How long is the Rhine?", inputs, sentences);
    for (float[] v : t.vectors()) {
      double n = 0;
      for (float x : v) n += x * x;
      assertThat(Math.sqrt(n)).isCloseTo(1.0, within(1e-4));
    }
    double[] p = FeatureSentenceScorer.defaults(SentenceVectors.embedder(counting)).score("How long is the Rhine?", inputs, sentences);
    assertThat(embedded.get()).isEqualTo(1); // the query's vector; the sentences' come from the passage's pass
    assertThat(p[1]).isGreaterThan(Math.max(p[0], p[2]));
  }

  @Test
  void theScorerReadsTokenStatesOnTheFlyInBothLanguagesWithTheModelFittedForEach() throws Exception {
    SentenceVectors vectors = SentenceVectors.embedder(MINILM);
    List<CompressInput> inputs = List.of(CompressInput.of("a", "The Rhine rises in the Swiss Alps. It is about 1,230 km long."));
    List<Sentence> sentences = ExtractiveCompressor.defaults(vectors).sentences(inputs);
    assertThat(vectors.tokens("How long is the Rhine?", inputs, sentences)).isNotNull();
    assertThat(vectors.query("Qual é o comprimento do Reno?")).isNull(); // MiniLM's vectors are for English
    assertThat(vectors.tokens("Qual é o comprimento do Reno?", inputs, sentences)).isNotNull(); // its token states are read
    FeatureSentenceScorer scorer = FeatureSentenceScorer.defaults(vectors);
    assertThat(scorer.model(Language.EN, true, true)).isNotSameAs(scorer.model(Language.EN, true, false));
    double[] withTokens = scorer.score("How long is the Rhine?", inputs, sentences);
    double[] storedVectors = FeatureSentenceScorer.defaults(vectors.withoutTokens()).score("How long is the Rhine?", inputs, sentences);
    assertThat(withTokens).isNotEqualTo(storedVectors); // another model, over more evidence
    assertThat(withTokens[1]).isGreaterThan(withTokens[0]);

    FeatureSentenceScorer pt = FeatureSentenceScorer.defaults(vectors);
    assertThat(pt.model(Language.PT, false, true)).isNotSameAs(pt.model(Language.PT, false, false));
    List<CompressInput> textos = List.of(CompressInput.of("a",
        "O Reno nasce nos Alpes suíços. O Reno tem cerca de 1.230 quilômetros de extensão. Barcaças levam carvão pelo Reno."));
    List<Sentence> frases = ExtractiveCompressor.defaults(vectors).sentences(textos);
    double[] comTokens = pt.score("Qual é a extensão do Reno?", textos, frases);
    double[] lexical = FeatureSentenceScorer.defaults(vectors.withoutTokens()).score("Qual é a extensão do Reno?", textos, frases);
    assertThat(comTokens).isNotEqualTo(lexical);
    assertThat(comTokens[1]).isGreaterThan(Math.max(comTokens[0], comTokens[2]));
  }
}
