package dev.ctxpack.rerank;

import dev.ctxpack.text.Terms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class FeatureRerankerTest {
  private static final FeatureReranker DEFAULT = FeatureReranker.defaults();

  static Candidate cand(String id, String docId, String title, Language lang, String text, Scores scores) {
    return new Candidate(new Chunk(id, docId, new Span(0, text.length()), text, "", 0, text.length() / 5),
        new DocInfo(docId, "", title, lang, Map.of()), scores);
  }

  static Scores hybrid(double bm25, double dense, double fused) {
    return Scores.empty().with(Signal.BM25, bm25).with(Signal.DENSE, dense).with(Signal.FUSED, fused);
  }

  private static List<String> ids(List<Candidate> cs) {
    return cs.stream().map(c -> c.chunk().id()).toList();
  }

  @Test
  void aCandidateWhoseBestSentenceCoversTheQueryRanksAboveOneThatOnlyScattersItsTerms() {
    String query = "Vitamin D supplementation reduces fracture risk in elderly women.";
    // Same words in both chunks, same signals; only "spread" keeps them in different sentences.
    String together = "Cohort studies were reviewed. Vitamin D supplementation reduces fracture risk in elderly women. "
        + "Follow-up lasted five years.";
    String spread = "Vitamin levels were measured in women. Supplementation with D was elderly-specific. "
        + "Fracture risk reduces slowly.";
    Scores same = hybrid(10, 0.6, 0.03);
    // Ids chosen so that a tie would put "spread" first; both input orders.
    Candidate a = cand("a-spread", "d1", "", Language.EN, spread, same);
    Candidate b = cand("b-together", "d2", "", Language.EN, together, same);
    assertThat(ids(DEFAULT.rerank(query, List.of(a, b)))).containsExactly("b-together", "a-spread");
    assertThat(ids(DEFAULT.rerank(query, List.of(b, a)))).containsExactly("b-together", "a-spread");
    // The chunks differ in that one feature only (and the input position).
    double[][] x = RerankFeatures.compute(query, List.of(a, b));
    for (int f = 0; f < RerankFeatures.NAMES.size(); f++) {
      String name = RerankFeatures.NAMES.get(f);
      if (name.equals("sentence_cover_idf")) {
        assertThat(x[1][f]).isEqualTo(1.0);
        assertThat(x[0][f]).isLessThan(0.5);
      } else if (!name.equals("input_rr")) {
        assertThat(x[0][f]).as(name).isEqualTo(x[1][f]);
      }
    }
  }

  @Test
  void portugueseTermsMatchWithoutAccentsAndStopWordsDoNotCount() {
    assertThat(RerankFeatures.queryTerms("Quais são as causas da inflação no Brasil?"))
        .containsExactly("causa", "inflacao", "brasil");
    // Decomposed accents (NFD) fold like composed ones; plurals meet singulars.
    assertThat(Terms.fold("infla\u0063\u0327a\u0303o")).isEqualTo("inflacao");
    assertThat(Terms.fold("Células")).isEqualTo(Terms.fold("celula"));

    String query = "Quais são as causas da inflação no Brasil?";
    Scores same = Scores.of(Signal.BM25, 5);
    // One chunk has the content words (typed without accents), the other only the query's function words.
    List<Candidate> in = List.of(
        cand("a-stop", "d1", "", Language.PT, "Quais são as regras da casa no verão? São as de sempre.", same),
        cand("b-content", "d2", "", Language.PT, "A inflacao no brasil tem causas conhecidas: a emissão de moeda.", same));
    assertThat(ids(DEFAULT.rerank(query, in))).containsExactly("b-content", "a-stop");
    double[][] x = RerankFeatures.compute(query, in);
    int cover = RerankFeatures.NAMES.indexOf("cover");
    assertThat(x[0][cover]).isZero();
    assertThat(x[1][cover]).isEqualTo(1.0);
  }

  @Test
  void aTitleMatchCountsWithAccentsFolded() {
    String query = "educação infantil";
    Scores same = Scores.of(Signal.BM25, 5);
    List<Candidate> in = List.of(
        cand("a", "d1", "Mercado de trabalho", Language.PT, "O texto trata do tema.", same),
        cand("b", "d2", "Educacao Infantil no Brasil", Language.PT, "O texto trata do tema.", same));
    double[][] x = RerankFeatures.compute(query, in);
    int title = RerankFeatures.NAMES.indexOf("title_cover_idf");
    assertThat(x[0][title]).isZero();
    assertThat(x[1][title]).isEqualTo(1.0);
    assertThat(ids(DEFAULT.rerank(query, in))).containsExactly("b", "a");
  }

  @Test
  void everyCandidateComesBackWithARerankScoreAndItsOtherScoresKept() {
    List<Candidate> in = mixedList();
    List<Candidate> out = DEFAULT.rerank("protein folding in yeast cells", in);
    assertThat(out).hasSize(in.size());
    assertThat(ids(out)).containsExactlyInAnyOrderElementsOf(ids(in));
    for (Candidate c : out) {
      Candidate orig = in.stream().filter(o -> o.chunk().id().equals(c.chunk().id())).findFirst().orElseThrow();
      assertThat(c.scores().get(Signal.RERANK)).isPresent();
      assertThat(Double.isFinite(c.scores().get(Signal.RERANK).getAsDouble())).isTrue();
      for (Signal s : List.of(Signal.BM25, Signal.DENSE, Signal.FUSED)) {
        assertThat(c.scores().get(s)).as(c.chunk().id() + " " + s).isEqualTo(orig.scores().get(s));
      }
      assertThat(c.chunk()).isSameAs(orig.chunk());
    }
    for (int i = 1; i < out.size(); i++) {
      assertThat(out.get(i - 1).scores().get(Signal.RERANK).getAsDouble())
          .isGreaterThanOrEqualTo(out.get(i).scores().get(Signal.RERANK).getAsDouble());
    }
  }

  @Test
  void isDeterministic() {
    List<Candidate> in = mixedList();
    List<Candidate> a = DEFAULT.rerank("protein folding in yeast cells", in);
    List<Candidate> b = FeatureReranker.defaults().rerank("protein folding in yeast cells", List.copyOf(in));
    assertThat(b).isEqualTo(a);
  }

  @Test
  void equalScoresAreOrderedByChunkId() {
    FeatureReranker flat = new FeatureReranker("flat", Map.of());
    List<Candidate> in = mixedList();
    List<String> sorted = new ArrayList<>(ids(in));
    sorted.sort(null);
    assertThat(ids(flat.rerank("anything", in))).isEqualTo(sorted);
    // Identical candidates apart from their ids under the shipped weights: id order too.
    Scores s = hybrid(3, 0.5, 0.02);
    List<Candidate> twins = List.of(cand("c2", "d", "", Language.EN, "same text", s), cand("c1", "d", "", Language.EN, "same text", s));
    // input_rr favours the first; with it held at 0 the twins tie.
    FeatureReranker noPosition = new FeatureReranker("t", Map.of("bm25", 1.0, "cover", 1.0));
    assertThat(ids(noPosition.rerank("same text", twins))).containsExactly("c1", "c2");
  }

  @Test
  void theShippedWeightsLoadAndNameEveryFeature() throws IOException {
    assertThat(DEFAULT.id()).isEqualTo("features:v1");
    assertThat(DEFAULT.weights().keySet()).containsExactlyElementsOf(RerankFeatures.NAMES);
    Properties p = new Properties();
    try (InputStream in = FeatureReranker.class.getResourceAsStream(FeatureReranker.RESOURCE)) {
      p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
    }
    for (String f : RerankFeatures.NAMES) {
      assertThat(p).containsKeys("weight." + f, "mean." + f, "scale." + f);
    }
    assertThat(DEFAULT.weights().values()).anyMatch(w -> w != 0);
    // Round trip.
    FeatureReranker again = FeatureReranker.load(new StringReader(DEFAULT.toProperties(List.of("test"))));
    assertThat(again.weights()).isEqualTo(DEFAULT.weights());
    assertThat(again.id()).isEqualTo(DEFAULT.id());
  }

  @Test
  void aWeightsFileMissingAFeatureOrNamingAnUnknownOneIsRejected() {
    String full = DEFAULT.toProperties(List.of());
    String missing = full.replaceAll("(?m)^weight\\.title_cover_idf=.*\\n", "");
    assertThatThrownBy(() -> FeatureReranker.load(new StringReader(missing)))
        .isInstanceOf(IOException.class).hasMessageContaining("weight.title_cover_idf");
    assertThatThrownBy(() -> FeatureReranker.load(new StringReader(full + "weight.colour=1\n")))
        .isInstanceOf(IOException.class).hasMessageContaining("colour");
    assertThatThrownBy(() -> new FeatureReranker("v", Map.of("colour", 1.0)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void missingSignalsAreHandled() {
    String q = "yeast protein folding";
    // BM25 only (hybrid fell back), dense only, and a candidate with no scores at all.
    List<Candidate> in = List.of(
        cand("a", "d1", "", Language.EN, "Yeast cells fold protein.", Scores.of(Signal.BM25, 7)),
        cand("b", "d2", "", Language.EN, "Unrelated text.", Scores.of(Signal.DENSE, 0.4)),
        cand("c", "d3", "", Language.EN, "Protein folding.", Scores.empty()),
        cand("d", "d4", "", Language.EN, "", Scores.of(Signal.FUSED, 0.01)));
    List<Candidate> out = DEFAULT.rerank(q, in);
    assertThat(out).hasSize(4).allMatch(c -> Double.isFinite(c.scores().getOr(Signal.RERANK, Double.NaN)));

    // A list without any dense score: the dense features are constant and change no order, so the
    // order is the one the same weights give with the dense weights removed.
    List<Candidate> bm25Only = List.of(
        cand("x", "d1", "", Language.EN, "yeast protein folding", Scores.of(Signal.BM25, 9)),
        cand("y", "d2", "", Language.EN, "protein", Scores.of(Signal.BM25, 8)),
        cand("z", "d3", "", Language.EN, "other words", Scores.of(Signal.BM25, 2)));
    Map<String, Double> noDense = new java.util.HashMap<>(DEFAULT.weights());
    for (String f : List.of("dense", "dense_gap", "dense_present", "dense_rr")) noDense.put(f, 0.0);
    FeatureReranker without = new FeatureReranker("t", noDense, DEFAULT.means(), DEFAULT.scales());
    assertThat(ids(DEFAULT.rerank(q, bm25Only))).isEqualTo(ids(without.rerank(q, bm25Only)));
    assertThat(DEFAULT.rerank(q, List.of())).isEmpty();
    assertThat(DEFAULT.rerank("the of and", bm25Only)).hasSize(3);
  }

  @Test
  void everyFeatureIsFiniteForEveryCandidate() {
    List<Candidate> in = mixedList();
    double[][] x = RerankFeatures.compute("protein folding", in);
    assertThat(x).hasNumberOfRows(in.size());
    for (double[] row : x) {
      assertThat(row).hasSize(RerankFeatures.NAMES.size());
      for (double v : row) assertThat(Double.isFinite(v)).isTrue();
    }
  }

  private static List<Candidate> mixedList() {
    List<Candidate> out = new ArrayList<>();
    String[] texts = {
        "Protein folding in yeast is assisted by chaperones. Misfolded proteins aggregate.",
        "Yeast cells divide by budding.",
        "Folding of RNA differs from protein folding.",
        "Nothing relevant here at all.",
        "Cells, proteins, folding and yeast: a review of the field. It covers many topics.",
        "Protein folding."};
    for (int i = 0; i < texts.length; i++) {
      Scores s = Scores.empty();
      if (i % 3 != 2) s = s.with(Signal.BM25, 10 - i);
      if (i % 2 == 0) s = s.with(Signal.DENSE, 0.7 - i / 20.0);
      s = s.with(Signal.FUSED, 0.033 - i / 1000.0);
      out.add(cand("c" + (7 - i), "d" + i, i % 2 == 0 ? "Yeast protein folding" : "", Language.EN, texts[i], s));
    }
    return out;
  }
}
