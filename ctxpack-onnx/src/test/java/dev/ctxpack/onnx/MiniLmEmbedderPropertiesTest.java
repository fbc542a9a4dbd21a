package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.embed.Embedder;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of {@link MiniLmEmbedder} over random English / Portuguese-like and arbitrary text. */
class MiniLmEmbedderPropertiesTest {
  static final MiniLmEmbedder EMBEDDER = MiniLmEmbedderTest.EMBEDDER;

  @Provide
  Arbitrary<String> texts() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "the", "budget", "was", "approved", "não", "é", "permitido", "ação", "coração", "2023",
            "R$", "1.500,00", "€", "🙂", "日本", "?!", "(", ")", "-", "don't", "x", "\n");
    Arbitrary<String> sep = Arbitraries.of(" ", "", ", ", ". ");
    return piece.list().ofMinSize(1).ofMaxSize(80)
        .flatMap(ps -> sep.list().ofSize(ps.size()).map(ss -> {
          StringBuilder sb = new StringBuilder();
          for (int i = 0; i < ps.size(); i++) sb.append(ps.get(i)).append(ss.get(i));
          return sb.toString();
        }))
        .filter(s -> !s.isBlank());
  }

  @Property(tries = 40)
  void unitLengthAndIndependentOfTheBatch(@ForAll("texts") String text, @ForAll("texts") String other) {
    List<float[]> batch = EMBEDDER.embed(List.of(other, text));
    float[] alone = EMBEDDER.embed(text);
    assertThat(Math.sqrt(Embedder.dot(alone, alone))).isCloseTo(1.0, within(1e-5));
    assertThat(batch.get(1)).containsExactly(alone, within(1e-5f));
  }

  /** Any string at all either embeds to a unit vector or is rejected naming its index. */
  @Property(tries = 40)
  void arbitraryUnicodeEmbedsOrIsRejectedNamingTheIndex(@ForAll String text) {
    try {
      float[] v = EMBEDDER.embed(List.of("anchor text", text)).get(1);
      assertThat(Math.sqrt(Embedder.dot(v, v))).isCloseTo(1.0, within(1e-5));
    } catch (IllegalArgumentException e) {
      assertThat(e).hasMessageContaining("texts[1]");
    }
  }
}
