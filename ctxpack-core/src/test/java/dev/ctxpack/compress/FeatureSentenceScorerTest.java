package dev.ctxpack.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Language;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class FeatureSentenceScorerTest {
  private static final List<CompressInput> INPUTS = List.of(
      CompressInput.of("a", "The Rhine rises in the Swiss Alps. It is about 1,230 km long. Barges carry coal."),
      CompressInput.of("b", "Marie Curie was born in Warsaw. She won two Nobel prizes."));

  /** A source with a query vector but no sentence vectors: the lexical model must be used. */
  private static final SentenceVectors QUERY_ONLY = new SentenceVectors() {
    @Override
    public float[] query(String query) {
      return new float[] {1, 0, 0};
    }

    @Override
    public float[][] sentences(List<CompressInput> inputs, List<Sentence> sentences) {
      return new float[sentences.size()][];
    }

    @Override
    public String id() {
      return "query-only";
    }
  };

  @Test
  void withoutSentenceVectorsTheLexicalModelScores() throws Exception {
    ExtractiveCompressor c = ExtractiveCompressor.defaults(SentenceVectors.none());
    List<Sentence> sentences = c.sentences(INPUTS);
    double[] lexical = FeatureSentenceScorer.defaults(SentenceVectors.none()).score("How long is the Rhine?", INPUTS, sentences);
    double[] queryOnly = FeatureSentenceScorer.defaults(QUERY_ONLY).score("How long is the Rhine?", INPUTS, sentences);
    assertThat(queryOnly).containsExactly(lexical);
    int best = 0;
    for (int i = 1; i < lexical.length; i++) if (lexical[i] > lexical[best]) best = i;
    assertThat(sentences.get(best).text()).isEqualTo("It is about 1,230 km long.");
  }

  @Test
  void shippedModelsCoverBothLanguagesAndAreProbabilities() throws Exception {
    FeatureSentenceScorer s = FeatureSentenceScorer.defaults(SentenceVectors.none());
    assertThat(s.model(Language.PT, false)).isNotSameAs(s.model(Language.EN, false));
    assertThat(s.model(Language.EN, true)).isNotSameAs(s.model(Language.EN, false));
    assertThat(s.model(Language.PT, true)).isSameAs(s.model(Language.PT, false)); // no pt model with vectors
    double[] p = s.score("Quantos prêmios Nobel ela ganhou?", INPUTS, ExtractiveCompressor.defaults(SentenceVectors.none()).sentences(INPUTS));
    for (double x : p) assertThat(x).isBetween(0.0, 1.0);
    assertThat(s.onTopic("Quando?")).isBetween(0.0, 0.5);
  }

  @Test
  void aBrokenResourceIsNamed() {
    Properties p = new Properties();
    p.setProperty("en.lexical.a", "1");
    p.setProperty("en.lexical.weight.bm25_rel", "x");
    assertThatThrownBy(() -> FeatureSentenceScorer.parse(p)).hasMessageContaining("en.lexical.weight.bm25_rel");
    Properties none = new Properties();
    none.setProperty("pt.lexical.a", "1");
    assertThatThrownBy(() -> new FeatureSentenceScorer(FeatureSentenceScorer.parse(none), SentenceVectors.none()))
        .hasMessageContaining("English");
  }
}
