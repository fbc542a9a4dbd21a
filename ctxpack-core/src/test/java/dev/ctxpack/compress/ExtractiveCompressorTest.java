package dev.ctxpack.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Passage;
import dev.ctxpack.testing.RandomText;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ExtractiveCompressorTest {
  private static final ExtractiveCompressor COMPRESSOR = ExtractiveCompressor.defaults(SentenceVectors.none());
  private static final Tokenizer TOKENS = Tokenizers.defaultTokenizer();

  private static final String CURIE = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891 to study "
      + "physics at the Sorbonne. She won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in "
      + "1911. Her laboratory was a converted shed with a leaking roof.";
  private static final String RHINE = "The Rhine rises in the Swiss Alps. It flows through six countries before "
      + "reaching the North Sea. Barges carry coal and grain along its lower course. The river is about 1,230 km long.";
  private static final String CERRADO = "O Cerrado é uma savana tropical que cobre cerca de 22% do território "
      + "brasileiro. Ele abriga mais de 12 mil espécies de plantas. A vegetação sofre com queimadas na estação "
      + "seca, entre maio e setembro. Muitos rios importantes nascem no Cerrado.";

  @Test
  void keepsTheSentenceThatAnswersAndCutsToTheBudget() throws IOException {
    List<CompressInput> in = List.of(CompressInput.of("curie", CURIE), CompressInput.of("rhine", RHINE));
    Compression c = COMPRESSOR.compress("How long is the Rhine?", in, CompressOptions.budget(30));

    assertThat(c.tokensOut()).isLessThanOrEqualTo(30).isPositive();
    assertThat(c.tokensIn()).isEqualTo(TOKENS.count(CURIE) + TOKENS.count(RHINE));
    assertThat(allText(c)).contains("The river is about 1,230 km long.");
    assertThat(allText(c)).doesNotContain("Curie");
  }

  @Test
  void portugueseQueryFindsItsSentence() throws IOException {
    List<CompressInput> in = List.of(CompressInput.of("curie", CURIE), CompressInput.of("cerrado", CERRADO));
    Compression c = COMPRESSOR.compress("Quando ocorrem as queimadas no Cerrado?", in, CompressOptions.budget(40));

    assertThat(allText(c)).contains("entre maio e setembro");
    assertThat(c.tokensOut()).isLessThanOrEqualTo(40);
  }

  @Test
  void aSentenceThatLeansOnThePreviousOneBringsIt() throws IOException {
    String text = "The Rhine rises in the Swiss Alps. Barges carry coal along its lower course. "
        + "Its name comes from a Celtic word meaning to flow. It was the border of the Roman Empire for four centuries.";
    CompressInput in = CompressInput.of("r", text);
    String query = "How long was the Roman Empire's border on the river?";

    Compression with = COMPRESSOR.compress(query, List.of(in), CompressOptions.budget(60));
    Compression without = COMPRESSOR.compress(query, List.of(in), CompressOptions.budget(60).withKeepPredecessor(false));

    assertThat(allText(without)).contains("It was the border of the Roman Empire");
    assertThat(allText(with)).contains("Its name comes from a Celtic word meaning to flow. It was the border");
  }

  @Test
  void noiseIsDroppedWithItsReasonWhateverTheBudget() throws IOException {
    String page = "Home | News | Sport | Contact\n\nWe use cookies to improve your experience.\n\n"
        + "The Rhine is about 1,230 km long.\n\nAdvertisement\n\nPosted on 3 May 2024 by John Smith\n\n"
        + "Usamos cookies para melhorar sua experiência.";
    Compression c = COMPRESSOR.compress("How long is the Rhine?", List.of(CompressInput.of("page", page)),
        CompressOptions.budget(1_000));

    assertThat(allText(c)).isEqualTo("The Rhine is about 1,230 km long.");
    Map<String, DropReason> reasons = new HashMap<>();
    for (Compression.Dropped d : c.dropped()) reasons.put(page.substring(d.span().start(), d.span().end()), d.reason());
    assertThat(reasons).containsEntry("Home | News | Sport | Contact", DropReason.NAVIGATION)
        .containsEntry("We use cookies to improve your experience.", DropReason.BOILERPLATE)
        .containsEntry("Advertisement", DropReason.ADS)
        .containsEntry("Posted on 3 May 2024 by John Smith", DropReason.METADATA)
        .containsEntry("Usamos cookies para melhorar sua experiência.", DropReason.BOILERPLATE);
  }

  @Test
  void aSentenceRepeatedInALaterPassageIsADuplicate() throws IOException {
    String shared = "The Rhine is about 1,230 km long.";
    List<CompressInput> in = List.of(CompressInput.of("a", shared + " It rises in the Alps."),
        CompressInput.of("b", "Barges carry grain. " + shared));
    Compression c = COMPRESSOR.compress("How long is the Rhine?", in, CompressOptions.budget(1_000));

    assertThat(c.dropped()).anySatisfy(d -> {
      assertThat(d.id()).isEqualTo("b");
      assertThat(d.reason()).isEqualTo(DropReason.DUPLICATE);
      assertThat("Barges carry grain. " + shared).contains(shared);
    });
    assertThat(c.passages().get(0).text()).contains(shared);
  }

  @Test
  void overBudgetSentencesAreToldApartFromOffTopicOnes() throws IOException {
    List<CompressInput> in = List.of(CompressInput.of("curie", CURIE), CompressInput.of("rhine", RHINE));
    Compression c = COMPRESSOR.compress("Where does the Rhine rise and how long is the Rhine?", in, CompressOptions.budget(12));

    Map<String, DropReason> reasons = new HashMap<>();
    for (Compression.Dropped d : c.dropped()) {
      String text = (d.id().equals("curie") ? CURIE : RHINE).substring(d.span().start(), d.span().end());
      reasons.put(text, d.reason());
    }
    assertThat(reasons).containsEntry("Her laboratory was a converted shed with a leaking roof.", DropReason.OFF_TOPIC)
        .containsEntry("It flows through six countries before reaching the North Sea.", DropReason.BUDGET);
  }

  @Test
  void thresholdModeKeepsOnlyWhatScoresAboveItAnyLength() throws IOException {
    List<CompressInput> in = List.of(CompressInput.of("curie", CURIE), CompressInput.of("rhine", RHINE));
    Compression c = COMPRESSOR.compress("When did Marie Curie win the Nobel Prize in Chemistry?", in, CompressOptions.threshold(0.2));

    assertThat(allText(c)).contains("Nobel Prize in Chemistry in 1911");
    assertThat(allText(c)).doesNotContain("Rhine");
    for (Compression.Dropped d : c.dropped()) {
      if (d.reason() == DropReason.OFF_TOPIC) assertThat(d.score()).isLessThan(0.2);
    }
  }

  @Test
  void aLongBestSentenceIsCutAtClausesRatherThanLost() throws IOException {
    String text = "After a long journey through the mountains, across several frozen passes and many villages, "
        + "the expedition finally reached the lake, where the botanists catalogued 214 new species of moss.";
    Compression c = COMPRESSOR.compress("How many new species of moss were catalogued?",
        List.of(CompressInput.of("t", text)), CompressOptions.budget(20));

    assertThat(c.tokensOut()).isLessThanOrEqualTo(20);
    assertThat(allText(c)).contains("214 new species of moss");
    Compression.Span kept = c.passages().get(0).spans().get(0);
    assertThat(text.substring(kept.start(), kept.end())).isEqualTo(c.passages().get(0).text());
    assertThat(c.dropped()).anySatisfy(d -> assertThat(d.reason()).isEqualTo(DropReason.BUDGET));

    Compression whole = COMPRESSOR.compress("How many new species of moss were catalogued?",
        List.of(CompressInput.of("t", text)), CompressOptions.budget(20).withClauses(false));
    assertThat(whole.passages()).isEmpty();
  }

  @Test
  void gapsJoinSpansInSourceOrder() throws IOException {
    String text = "Alpha is first. Beta is unrelated filler about weather. Gamma is third and mentions alpha again.";
    Compression c = COMPRESSOR.compress("alpha", List.of(CompressInput.of("t", text)), CompressOptions.budget(16));

    Compression.Compressed p = c.passages().get(0);
    assertThat(p.text()).isEqualTo(join(text, p.spans()));
    for (int i = 1; i < p.spans().size(); i++) assertThat(p.spans().get(i).start()).isGreaterThan(p.spans().get(i - 1).end());
  }

  @Test
  void badRequestsAreRefusedNamingWhatIsWrong() {
    List<CompressInput> in = List.of(CompressInput.of("a", CURIE));
    assertThatThrownBy(() -> COMPRESSOR.compress(" ", in, CompressOptions.budget(10)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("query");
    assertThatThrownBy(() -> COMPRESSOR.compress("q", List.of(CompressInput.of("a", "x"), CompressInput.of("a", "y")),
        CompressOptions.budget(10))).hasMessageContaining("'a' appears twice");
    assertThatThrownBy(() -> CompressOptions.budget(0)).hasMessageContaining("budget");
    assertThatThrownBy(() -> new CompressOptions(0, Double.NaN, true, true)).hasMessageContaining("budget, a threshold");
  }

  @Test
  void sameInputSameOutput() throws IOException {
    List<CompressInput> in = List.of(CompressInput.of("curie", CURIE), CompressInput.of("rhine", RHINE),
        CompressInput.of("cerrado", CERRADO));
    Compression a = COMPRESSOR.compress("Where was Marie Curie born?", in, CompressOptions.budget(50));
    Compression b = COMPRESSOR.compress("Where was Marie Curie born?", in, CompressOptions.budget(50));
    assertThat(a).isEqualTo(b);
  }

  /** Never rewrite: every kept span is the input at its offsets, and the budget always holds. */
  @Property(tries = 200)
  void keptTextIsAlwaysTheInputAtItsOffsetsAndWithinBudget(@ForAll("passages") List<String> texts,
      @ForAll("queries") String query, @ForAll @IntRange(min = 1, max = 400) int budget) throws IOException {
    List<CompressInput> in = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) in.add(CompressInput.of("p" + i, texts.get(i)));
    Compression c = COMPRESSOR.compress(query, in, CompressOptions.budget(budget));

    assertThat(c.tokensOut()).isLessThanOrEqualTo(budget);
    int sum = 0;
    for (Compression.Compressed p : c.passages()) {
      String source = texts.get(Integer.parseInt(p.id().substring(1)));
      for (Compression.Span s : p.spans()) {
        assertThat(s.part()).isZero();
        assertThat(s.end()).isLessThanOrEqualTo(source.length());
        assertThat(RandomText.splitsSurrogatePair(source, s.start())).isFalse();
        assertThat(RandomText.splitsSurrogatePair(source, s.end())).isFalse();
      }
      assertThat(p.text()).isEqualTo(join(source, p.spans()));
      assertThat(p.tokens()).isEqualTo(TOKENS.count(p.text()));
      sum += p.tokens();
    }
    assertThat(c.tokensOut()).isEqualTo(sum);
    for (Compression.Dropped d : c.dropped()) {
      String source = texts.get(Integer.parseInt(d.id().substring(1)));
      assertThat(d.span().end()).isLessThanOrEqualTo(source.length());
    }
  }

  @Provide
  Arbitrary<List<String>> passages() {
    return RandomText.text(60).list().ofMinSize(1).ofMaxSize(4);
  }

  @Provide
  Arbitrary<String> queries() {
    return Arbitraries.of("what is the word", "quando começou", "how many", "a b c", "Ação e reação?");
  }

  private static String join(String source, List<Compression.Span> spans) {
    StringBuilder sb = new StringBuilder();
    for (Compression.Span s : spans) {
      if (sb.length() > 0) sb.append(Passage.GAP);
      sb.append(source, s.start(), s.end());
    }
    return sb.toString();
  }

  private static String allText(Compression c) {
    StringBuilder sb = new StringBuilder();
    for (Compression.Compressed p : c.passages()) sb.append(p.text()).append('\n');
    return sb.toString().strip();
  }
}
