package dev.ctxpack.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How much of a query a passage speaks to ({@link QueryCoverage}), and the second way through the
 * gate it opens ({@link CompressOptions.Cover}): a request whose best sentence is under the threshold
 * but not under the cover's floor keeps its evidence when that sentence's passage covers enough of
 * the query.
 */
class QueryCoverageTest {
  private static final ExtractiveCompressor COMPRESSOR = ExtractiveCompressor.defaults(SentenceVectors.none());

  private static List<Sentence> sentences(String... byInput) {
    List<Sentence> out = new ArrayList<>();
    for (int i = 0; i < byInput.length; i++) out.add(new Sentence(i, 0, 0, 0, byInput[i].length(), byInput[i]));
    return out;
  }

  @Test
  void aPassageHoldingEveryQueryTermCoversAllOfItAndOneHoldingNoneNothing() {
    List<Sentence> s = sentences("The Rhine barges carry coal.", "Bakeries open early.");
    Set<String> q = SentenceFilter.queryTerms("What do Rhine barges carry?");
    assertThat(QueryCoverage.of(q, s, 0)).isEqualTo(1.0);
    assertThat(QueryCoverage.of(q, s, 1)).isEqualTo(0.0);
    assertThat(QueryCoverage.of(Set.of(), s, 0)).isEqualTo(0.0);
  }

  @Test
  void aTermNoSentenceHoldsWeighsMostAndStemsMatchAcrossLanguagesForms() {
    // "renovação" and "renovar" share their first five letters; "tungstênio" is in no sentence.
    List<Sentence> s = sentences("Renovar a matrícula é obrigatório.", "A matrícula custa pouco.", "A matrícula abre cedo.");
    Set<String> renew = SentenceFilter.queryTerms("Quando é a renovação da matrícula?");
    assertThat(QueryCoverage.of(renew, s, 0)).isEqualTo(1.0);
    double common = QueryCoverage.of(renew, s, 1);
    assertThat(common).isGreaterThan(0).isLessThan(0.5);

    Set<String> offCorpus = SentenceFilter.queryTerms("Qual a matrícula do tungstênio?");
    double withMissing = QueryCoverage.of(offCorpus, s, 1);
    // "matricula" is in every sentence (low IDF), "tungstenio" in none (the highest): the passage covers little.
    double idfAll = Math.log(1 + 0.5 / 3.5);
    double idfNone = Math.log(1 + 3.5 / 0.5);
    assertThat(withMissing).isCloseTo(idfAll / (idfAll + idfNone), within(1e-12));
  }

  @Test
  void underTheThresholdACoveredRequestKeepsItsEvidenceAndAnUncoveredOneDoesNot() throws IOException {
    String rhine = "The Rhine rises in the Swiss Alps. It flows through six countries before reaching the North Sea."
        + " The river is about 1,230 km long.";
    List<CompressInput> in = List.of(CompressInput.of("rhine", rhine),
        CompressInput.of("bakery", "The city's bakeries open early and close late on most days of the week."));
    String q = "How far does the Rhine flow?";
    // The best sentence's own probability, read with a threshold nothing clears.
    Compression probe = COMPRESSOR.compress(q, in, CompressOptions.budget(200).withThreshold(1).withRelative(0.1));
    assertThat(probe.passages()).isEmpty();
    double best = probe.dropped().stream().mapToDouble(Compression.Dropped::score).max().orElseThrow();
    assertThat(probe.coverage()).as("no cover asked, none read").isNull();

    CompressOptions gated = CompressOptions.budget(200).withThreshold(best + 0.01).withRelative(0.1);
    Compression covered = COMPRESSOR.compress(q, in, gated.withCover(new CompressOptions.Cover(best - 0.01, 0.5)));
    assertThat(covered.coverage()).isNotNull();
    assertThat(covered.coverage().id()).isEqualTo("rhine");
    assertThat(covered.coverage().share()).isGreaterThanOrEqualTo(0.5);
    assertThat(covered.passages()).extracting(Compression.Compressed::id).containsExactly("rhine");

    Compression uncovered = COMPRESSOR.compress(q, in, gated.withCover(new CompressOptions.Cover(best - 0.01, 1)));
    assertThat(uncovered.coverage().share()).isLessThan(1);
    assertThat(uncovered.passages()).isEmpty();

    Compression underFloor = COMPRESSOR.compress(q, in, gated.withCover(new CompressOptions.Cover(best + 0.005, 0)));
    assertThat(underFloor.coverage()).as("a best sentence under the floor is not read for coverage").isNull();
    assertThat(underFloor.passages()).isEmpty();
  }

  @Test
  void aCoverOutsideZeroToOneIsRefusedByName() {
    assertThatThrownBy(() -> new CompressOptions.Cover(0.05, 1.2)).hasMessage("coverage must be in [0, 1], was 1.2");
    assertThatThrownBy(() -> new CompressOptions.Cover(-1, 0.4)).hasMessage("cover floor must be in [0, 1], was -1.0");
  }
}
