package dev.ctxpack.bench.compress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class GreedySelectorTest {
  private static final Tokenizer TOKENIZER = Tokenizers.defaultTokenizer();
  private static final List<CompressInput> INPUTS = List.of(
      CompressInput.of("p0", "The Normans were the people who gave their name to Normandy. They descended from Norse raiders. "
          + "Their identity emerged in the first half of the 10th century."),
      CompressInput.of("p1", "Warsaw is the capital of Poland. It stands on the Vistula River! Is it large? About 1.8 million "
          + "people live there, e.g. in the city proper."),
      CompressInput.of("p2", "Short one."),
      CompressInput.of("p3", "A very long sentence that goes on and on about nothing in particular, repeating itself, adding "
          + "clauses and more clauses, until it is far longer than any small budget could ever hold in one piece. Then a "
          + "short end."));

  @Test
  void neverExceedsTheBudgetAndKeepsVerbatimSentencesInSourceOrder() {
    List<Sentence> sentences = GreedySelector.sentences(INPUTS, Language.EN);
    assertThat(sentences).hasSizeGreaterThan(8);
    Random random = new Random(7);
    for (int round = 0; round < 300; round++) {
      double[] scores = new double[sentences.size()];
      for (int i = 0; i < scores.length; i++) {
        scores[i] = random.nextInt(10) == 0 ? Double.NEGATIVE_INFINITY : random.nextInt(5);
      }
      int budget = 1 + random.nextInt(150);
      Compression c = GreedySelector.select(INPUTS, sentences, scores, budget, TOKENIZER);
      int recount = c.passages().stream().mapToInt(p -> TOKENIZER.count(p.text())).sum();
      assertThat(c.tokensOut()).isEqualTo(recount).isLessThanOrEqualTo(budget);
      int lastInput = -1;
      for (Compression.Compressed p : c.passages()) {
        int in = Integer.parseInt(p.id().substring(1));
        assertThat(in).isGreaterThan(lastInput);
        lastInput = in;
        assertThat(p.tokens()).isEqualTo(TOKENIZER.count(p.text()));
        String source = INPUTS.get(in).parts().get(0).text();
        String[] pieces = p.text().split(Pattern.quote(Passage.GAP), -1);
        assertThat(pieces).hasSameSizeAs(p.spans());
        int from = 0;
        for (int k = 0; k < pieces.length; k++) {
          Compression.Span span = p.spans().get(k);
          assertThat(span.start()).isGreaterThanOrEqualTo(from);
          assertThat(pieces[k]).isEqualTo(source.substring(span.start(), span.end()));
          assertThat(sentences).anyMatch(s -> s.input() == in && s.start() == span.start());
          assertThat(sentences).anyMatch(s -> s.input() == in && s.end() == span.end());
          from = span.end();
        }
      }
      for (int i = 0; i < scores.length; i++) {
        if (scores[i] == Double.NEGATIVE_INFINITY) {
          Sentence s = sentences.get(i);
          assertThat(c.passages()).noneMatch(p -> p.id().equals("p" + s.input())
              && p.spans().contains(new Compression.Span(s.part(), s.start(), s.end())));
        }
      }
    }
  }

  @Test
  void takesTheBestFirstAndSkipsWhatDoesNotFit() {
    List<Sentence> sentences = GreedySelector.sentences(INPUTS, Language.EN);
    double[] scores = new double[sentences.size()];
    java.util.Arrays.fill(scores, Double.NEGATIVE_INFINITY);
    int longOne = -1;
    int shortOne = -1;
    for (int i = 0; i < sentences.size(); i++) {
      if (sentences.get(i).text().startsWith("A very long")) longOne = i;
      if (sentences.get(i).text().equals("Short one.")) shortOne = i;
    }
    scores[longOne] = 10; // does not fit in 10 tokens: skipped
    scores[shortOne] = 5;
    Compression c = GreedySelector.select(INPUTS, sentences, scores, 10, TOKENIZER);
    assertThat(c.passages()).extracting(Compression.Compressed::text).containsExactly("Short one.");
    assertThat(c.dropped()).anyMatch(d -> d.id().equals("p3") && d.reason() == dev.ctxpack.compress.DropReason.BUDGET);
    assertThat(c.tokensIn()).isEqualTo(INPUTS.stream().mapToInt(i -> TOKENIZER.count(i.parts().get(0).text())).sum());
  }

  @Test
  void adjacentKeptSentencesAreOneSpanOfTheSourceText() {
    List<Sentence> sentences = GreedySelector.sentences(INPUTS, Language.EN);
    double[] scores = new double[sentences.size()];
    java.util.Arrays.fill(scores, Double.NEGATIVE_INFINITY);
    for (int i = 0; i < sentences.size(); i++) {
      if (sentences.get(i).input() == 1 && sentences.get(i).index() != 1) scores[i] = 1; // all of p1 but its 2nd sentence
    }
    Compression c = GreedySelector.select(INPUTS, sentences, scores, 1000, TOKENIZER);
    assertThat(c.passages()).singleElement().satisfies(p -> {
      assertThat(p.text()).isEqualTo("Warsaw is the capital of Poland." + Passage.GAP
          + "Is it large? About 1.8 million people live there, e.g. in the city proper.");
      assertThat(p.spans()).hasSize(2);
      assertThat(p.tokens()).isEqualTo(TOKENIZER.count(p.text()));
    });
  }

  @Test
  void theOracleKeepsOnlyAnswerSentencesShortestFirst() {
    List<Sentence> sentences = GreedySelector.sentences(INPUTS, Language.EN);
    double[] scores = new OracleSentenceScorer(List.of("Norse", "Poland")).score("q", INPUTS, sentences);
    Compression c = GreedySelector.select(INPUTS, sentences, scores, 1000, TOKENIZER);
    assertThat(c.passages()).extracting(Compression.Compressed::text)
        .containsExactly("They descended from Norse raiders.", "Warsaw is the capital of Poland.");
    int poland = TOKENIZER.count("Warsaw is the capital of Poland.");
    Compression tight = GreedySelector.select(INPUTS, sentences, scores, poland, TOKENIZER);
    assertThat(tight.passages()).extracting(Compression.Compressed::text).containsExactly("Warsaw is the capital of Poland.");
  }

  @Test
  void bm25PrefersSentencesWithRareQueryTerms() {
    List<Sentence> sentences = GreedySelector.sentences(INPUTS, Language.EN);
    double[] s = new Bm25SentenceScorer().score("Which river does Warsaw stand on?", INPUTS, sentences);
    int best = 0;
    for (int i = 1; i < s.length; i++) if (s[i] > s[best]) best = i;
    assertThat(sentences.get(best).text()).isEqualTo("It stands on the Vistula River!");
    for (int i = 0; i < s.length; i++) {
      if (sentences.get(i).input() == 0) assertThat(s[i]).isZero();
    }
  }

  @Test
  void wholeInputsAreOneSentenceEach() {
    List<CompressInput> in = List.of(CompressInput.of("a", "One. Two."), CompressInput.of("b", "Three"));
    List<Sentence> s = GreedySelector.wholeInputs(in);
    assertThat(s).extracting(Sentence::text).containsExactly("One. Two.", "Three");
    assertThat(s).extracting(Sentence::input).containsExactly(0, 1);
  }
}
