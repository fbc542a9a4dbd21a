package dev.ctxpack.pack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.guard.InjectionDetector;
import dev.ctxpack.guard.InjectionGuard;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.token.ModelProfile;
import dev.ctxpack.token.ModelProfiles;
import dev.ctxpack.token.RememberingTokenizer;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Each packer remembers the token counts and guard hits of the texts it read in memories of its
 * own: the output is the same as without them, and another packer (another collection or tenant)
 * starts with nothing it could be faster for.
 */
class PackerMemoryTest {
  private static final PackOptions OPTIONS = PackOptions.builder().minRelevance(0).budget(900).build();

  private static RememberingTokenizer tokenizer(DefaultContextPacker p) {
    return (RememberingTokenizer) p.stages().tokenizer();
  }

  private static InjectionDetector detector(DefaultContextPacker p) {
    return p.stages().guard().detector();
  }

  @Test
  void twoPackersBuiltAlikeShareNoMemory() throws IOException {
    PackStages.Builder b = DefaultContextPacker.builder().retriever(ShippedStagesTest.FIXED);
    DefaultContextPacker a = b.build();
    DefaultContextPacker other = b.build();
    a.pack(ShippedStagesTest.QUERY, OPTIONS);
    assertThat(tokenizer(a).rememberedTexts()).isPositive();
    assertThat(detector(a).rememberedTexts()).isPositive();
    assertThat(tokenizer(other).rememberedTexts()).isZero();
    assertThat(detector(other).rememberedTexts()).isZero();
    // the default compressor counts with the packer's own tokenizer, not a shared one
    assertThat(((ExtractiveCompressor) a.stages().compressor()).tokenizer()).isSameAs(a.stages().tokenizer());
    assertThat(InjectionDetector.defaults().rememberedTexts()).isZero();
  }

  @Test
  void packsFromMemoryEqualPacksWithoutIt() throws IOException {
    DefaultContextPacker remembering = DefaultContextPacker.builder().retriever(ShippedStagesTest.FIXED).build();
    PackStages s = remembering.stages();
    Tokenizer plain = ((RememberingTokenizer) s.tokenizer()).delegate();
    DefaultContextPacker forgetting = new DefaultContextPacker(new PackStages(s.retriever(), plain, s.conservative(), s.strict(),
        s.vectors(), s.reranking(), s.selector(), ExtractiveCompressor.defaults(SentenceVectors.none()), s.conflicts(),
        s.orderer(), s.renderer(), InjectionGuard.defaults(), s.listener()));
    ContextPackage expected = forgetting.pack(ShippedStagesTest.QUERY, OPTIONS);
    ContextPackage first = remembering.pack(ShippedStagesTest.QUERY, OPTIONS);
    ContextPackage again = remembering.pack(ShippedStagesTest.QUERY, OPTIONS);
    assertThat(first.prompt()).isEqualTo(expected.prompt());
    assertThat(again.prompt()).isEqualTo(expected.prompt());
    assertThat(again.budget()).isEqualTo(expected.budget());
    assertThat(again.sources()).isEqualTo(expected.sources());
    assertThat(again.trace()).isEqualTo(expected.trace());
  }

  @Test
  void aModelsTokenizerIsThePackersOwnAndRemembersForItAlone() throws IOException {
    ModelProfile gpt4 = ModelProfiles.builtIn().get("gpt-4");
    PackOptions o = PackOptions.builder().minRelevance(0).budget(900).model(gpt4, 200).build();
    PackStages.Builder b = DefaultContextPacker.builder().retriever(ShippedStagesTest.FIXED);
    DefaultContextPacker a = b.build();
    DefaultContextPacker other = b.build();
    Tokenizer t = a.tokenizer(o);
    assertThat(t.name()).isEqualTo("cl100k_base");
    assertThat(a.tokenizer(o)).isSameAs(t);
    assertThat(other.tokenizer(o)).isNotSameAs(t);
    ContextPackage p = a.pack(ShippedStagesTest.QUERY, o);
    assertThat(((RememberingTokenizer) t).rememberedTexts()).isPositive();
    assertThat(((RememberingTokenizer) other.tokenizer(o)).rememberedTexts()).isZero();
    assertThat(p.budget().used()).isEqualTo(gpt4.tokenizerInstance().count(p.prompt()));
    // a model counting like the stages' tokenizer uses it
    PackOptions o200k = PackOptions.builder().minRelevance(0).budget(900).model(ModelProfiles.builtIn().get("gpt-4o"), 200).build();
    assertThat(a.tokenizer(o200k)).isSameAs(a.stages().tokenizer());
  }
}
