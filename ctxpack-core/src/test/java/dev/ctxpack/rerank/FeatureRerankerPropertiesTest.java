package dev.ctxpack.rerank;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.testing.RandomText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class FeatureRerankerPropertiesTest {
  private static final FeatureReranker DEFAULT = FeatureReranker.defaults();

  /** Candidates with awkward text (CJK, emoji, Portuguese, blank lines) and any subset of the signals. */
  @Provide
  Arbitrary<List<Candidate>> lists() {
    Arbitrary<Candidate> one = Combinators.combine(
        RandomText.text(30), RandomText.text(4),
        Arbitraries.doubles().between(0, 40).injectNull(0.3),
        Arbitraries.doubles().between(-1, 1).injectNull(0.3),
        Arbitraries.doubles().between(0, 0.05).injectNull(0.2),
        Arbitraries.of(Language.EN, Language.PT, Language.UNKNOWN),
        Arbitraries.integers().between(0, 5))
        .as((text, title, bm25, dense, fused, lang, doc) -> {
          Scores s = Scores.empty();
          if (bm25 != null) s = s.with(Signal.BM25, bm25);
          if (dense != null) s = s.with(Signal.DENSE, dense);
          if (fused != null) s = s.with(Signal.FUSED, fused);
          return new Candidate(new Chunk("tmp", "d" + doc, new Span(0, text.length()), text, "", 0, text.length()),
              new DocInfo("d" + doc, "", title, lang, Map.of()), s);
        });
    return one.list().ofMaxSize(40).map(cs -> {
      List<Candidate> out = new ArrayList<>();
      for (int i = 0; i < cs.size(); i++) {
        Candidate c = cs.get(i);
        Chunk k = c.chunk();
        out.add(new Candidate(new Chunk("c" + i, k.docId(), k.span(), k.text(), "", 0, k.tokens()), c.doc(), c.scores()));
      }
      return out;
    });
  }

  @Property(tries = 200)
  void returnsEveryCandidateOnceWithItsScoresAndARerankScoreBestFirst(
      @ForAll("lists") List<Candidate> in, @ForAll("query") String query) {
    List<Candidate> out = DEFAULT.rerank(query, in);
    assertThat(out).hasSize(in.size());
    assertThat(out.stream().map(c -> c.chunk().id())).containsExactlyInAnyOrderElementsOf(
        in.stream().map(c -> c.chunk().id()).toList());
    for (Candidate c : out) {
      Candidate orig = in.get(Integer.parseInt(c.chunk().id().substring(1)));
      assertThat(Double.isFinite(c.scores().getOr(Signal.RERANK, Double.NaN))).isTrue();
      for (Signal s : List.of(Signal.BM25, Signal.DENSE, Signal.FUSED)) {
        assertThat(c.scores().get(s)).isEqualTo(orig.scores().get(s));
      }
    }
    assertThat(out).isSortedAccordingTo(Comparator
        .comparingDouble((Candidate c) -> -c.scores().get(Signal.RERANK).getAsDouble())
        .thenComparing(c -> c.chunk().id()));
    assertThat(DEFAULT.rerank(query, in)).isEqualTo(out);
  }

  @Provide
  Arbitrary<String> query() {
    return Arbitraries.oneOf(RandomText.text(8), Arbitraries.of(
        "What causes inflation in Brazil?", "Quais são as causas da inflação no Brasil?", "the of and", ""));
  }
}
