package dev.ctxpack.bench.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.Claim;
import dev.ctxpack.verify.ClaimVerdict;
import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.VerifySource;
import java.util.List;
import org.junit.jupiter.api.Test;

class BaselinesTest {
  static final List<VerifySource> SOURCES = List.of(
      new VerifySource("S1", "The Rhine flows through six countries. Its length is 1,230 kilometres. Barges carry coal on it."),
      new VerifySource("S2", "The Danube is the second longest river in Europe. It flows into the Black Sea."));

  @Test
  void aVerbatimSentenceHasTheFullShareAndAnAddedClauseLowersIt() throws Exception {
    Bm25Baseline b = new Bm25Baseline(0.9);
    assertThat(b.score(SOURCES, Claim.of("Its length is 1,230 kilometres.", List.of("S1")))).isEqualTo(1.0);
    double added = b.score(SOURCES, Claim.of("Its length is 1,230 kilometres, and the delta holds many islands.", List.of("S1")));
    assertThat(added).isLessThan(0.9);
    Verification v = b.verify(null, SOURCES, Answer.parse("Its length is 1,230 kilometres [S1]. "
        + "Its length is 1,230 kilometres, and the delta holds many islands [S1]. It flows into the Black Sea [S1]."));
    assertThat(v.claims()).extracting(ClaimVerdict::verdict).containsExactly(Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNSUPPORTED);
    assertThat(v.claims().get(0).evidence().source()).isEqualTo("S1");
    assertThat(v.claims().get(0).evidence().text()).isEqualTo("Its length is 1,230 kilometres.");
    assertThat(v.abstentionCorrect()).isNull();
  }

  @Test
  void invalidIdsAreReportedAndUncitedClaimsAreUncitedAndNothingIsEverContradicted() throws Exception {
    Bm25Baseline b = new Bm25Baseline(0.5);
    Answer a = Answer.of("", List.of(Claim.of("The Rhine flows through six countries.", List.of("S9")),
        Claim.of("The Rhine does not flow through six countries.", List.of("S1")),
        Claim.of("The Danube flows into the Black Sea.", List.of())));
    Verification v = b.verify("q", SOURCES, a);
    assertThat(v.invalidCitations()).containsExactly("S9");
    assertThat(v.claims()).extracting(ClaimVerdict::verdict).containsExactly(Verdict.UNSUPPORTED, Verdict.SUPPORTED, Verdict.UNCITED);
    assertThat(b.score(SOURCES, Claim.of("x", List.of("S9")))).isNaN();
  }

  @Test
  void theCosineBaselineScoresWithTheGivenEmbedder() throws Exception {
    // a toy embedder: one dimension per source sentence it knows, so a verbatim claim has cosine 1
    dev.ctxpack.embed.Embedder toy = new dev.ctxpack.embed.Embedder() {
      public String id() {
        return "toy";
      }

      public int dimension() {
        return 2;
      }

      public List<float[]> embed(List<String> texts) {
        return texts.stream().map(t -> t.contains("Danube") ? new float[] {1, 0} : new float[] {0, 1}).toList();
      }
    };
    CosineBaseline c = new CosineBaseline(toy, 0.99);
    Verification v = c.verify(null, SOURCES, Answer.parse("The Danube is long [S2]. The Danube is long [S1]."));
    assertThat(v.claims()).extracting(ClaimVerdict::verdict).containsExactly(Verdict.SUPPORTED, Verdict.UNSUPPORTED);
  }
}
