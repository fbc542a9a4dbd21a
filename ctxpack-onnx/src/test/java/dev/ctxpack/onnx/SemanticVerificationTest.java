package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.ClaimVerdict;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.VerifySource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Answer verification with the real MiniLM: paraphrases supported, and the model run only where it can matter. */
class SemanticVerificationTest {
  private static final List<VerifySource> SOURCES = List.of(
      new VerifySource("S1", "The committee approved the new budget on Tuesday after a long debate. "
          + "Spending on public schools will rise next year."),
      new VerifySource("S2", "Heavy rain flooded several streets in the old town. Firefighters pumped water out of basements."));

  /** MiniLM, counting the texts it is asked to embed. */
  static final class Counting implements Embedder {
    final List<String> texts = new ArrayList<>();

    @Override
    public String id() {
      return MiniLmEmbedderTest.EMBEDDER.id();
    }

    @Override
    public int dimension() {
      return MiniLmEmbedderTest.EMBEDDER.dimension();
    }

    @Override
    public Set<Language> languages() {
      return MiniLmEmbedderTest.EMBEDDER.languages();
    }

    @Override
    public List<float[]> embed(List<String> batch) {
      texts.addAll(batch);
      return MiniLmEmbedderTest.EMBEDDER.embed(batch);
    }
  }

  @Test
  void aParaphraseIsSupportedWithVectorsThatLexicalEvidenceLeavesPartial() throws Exception {
    String answer = "Education funding goes up in the coming year [S1].";
    ClaimVerdict lexical = EvidenceVerifier.lexical().verify(null, SOURCES, Answer.parse(answer)).claims().get(0);
    assertThat(lexical.verdict()).isIn(Verdict.PARTIAL, Verdict.UNSUPPORTED);
    Counting model = new Counting();
    ClaimVerdict semantic = EvidenceVerifier.withEmbedder(model).verify(null, SOURCES, Answer.parse(answer)).claims().get(0);
    assertThat(semantic.verdict()).isEqualTo(Verdict.SUPPORTED);
    assertThat(semantic.evidence().text()).isEqualTo("Spending on public schools will rise next year.");
    assertThat(model.texts).contains("Education funding goes up in the coming year.");
  }

  @Test
  void verifyingAgainAgainstTheSameSourcesEmbedsNothingNewUnlessTheCacheIsOff() throws Exception {
    String answer = "Education funding goes up in the coming year [S1].";
    Counting model = new Counting();
    EvidenceVerifier cached = EvidenceVerifier.withEmbedder(model);
    Verification first = cached.verify(null, SOURCES, Answer.parse(answer));
    int embedded = model.texts.size();
    assertThat(embedded).isPositive();
    assertThat(cached.verify(null, SOURCES, Answer.parse(answer))).isEqualTo(first);
    assertThat(model.texts).hasSize(embedded);

    Counting cold = new Counting();
    EvidenceVerifier uncached = EvidenceVerifier.builder().embedder(cold).vectorCache(0).build();
    uncached.verify(null, SOURCES, Answer.parse(answer));
    uncached.verify(null, SOURCES, Answer.parse(answer));
    assertThat(cold.texts).hasSize(2 * embedded);
  }

  @Test
  void claimsTheLexicalEvidenceSettlesAreNeverEmbedded() throws Exception {
    Counting model = new Counting();
    Verification v = EvidenceVerifier.withEmbedder(model).verify(null, SOURCES, Answer.parse(
        "The committee approved the new budget on Tuesday [S1]. Heavy rain flooded several streets [S2]."));
    assertThat(v.claims()).extracting(ClaimVerdict::verdict).containsOnly(Verdict.SUPPORTED);
    assertThat(model.texts).isEmpty();
    // A Portuguese answer is never embedded by an English-only model.
    Counting pt = new Counting();
    EvidenceVerifier.withEmbedder(pt).verify(null, List.of(new VerifySource("S1", "O prazo de inscrição termina em março.")),
        Answer.parse("As inscrições vão até o fim do verão [S1]."));
    assertThat(pt.texts).isEmpty();
  }
}
