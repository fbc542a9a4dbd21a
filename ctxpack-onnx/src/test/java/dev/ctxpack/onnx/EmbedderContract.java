package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ctxpack.embed.Embedder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Embedder} must do, whatever runs the model: unit-length vectors of {@link
 * Embedder#dimension()}, the same vector for the same text alone or in any batch, input order kept,
 * empty in / empty out, blank text rejected naming its index, safe under concurrent calls.
 */
abstract class EmbedderContract {
  static final List<String> TEXTS =
      List.of(
          "The committee approved the budget for renewable energy in 2023.",
          "A comissão aprovou o orçamento para energia renovável em 2023.",
          "Cats sleep for most of the day.",
          "Não é permitido estacionar aqui, salvo aos domingos.",
          "Citations must resolve to a source that was given to the model.",
          "🙂 emoji, accents (ação, coração) and punctuation?!");

  /** The embedder under test; may be shared between tests. */
  abstract Embedder embedder();

  static double cosine(float[] a, float[] b) {
    return Embedder.dot(a, b);
  }

  static double norm(float[] v) {
    return Math.sqrt(Embedder.dot(v, v));
  }

  @Test
  void idIsNamed() {
    assertThat(embedder().id()).isNotBlank();
  }

  @Test
  void everyVectorHasTheDimensionAndUnitLength() {
    List<float[]> vectors = embedder().embed(TEXTS);
    assertThat(vectors).hasSize(TEXTS.size());
    for (float[] v : vectors) {
      assertThat(v).hasSize(embedder().dimension());
      for (float x : v) assertThat(Float.isFinite(x)).isTrue();
      assertThat(norm(v)).isCloseTo(1.0, within(1e-5));
    }
  }

  @Test
  void sameTextGivesTheSameVector() {
    float[] first = embedder().embed(TEXTS.get(0));
    float[] second = embedder().embed(TEXTS.get(0));
    assertThat(second).containsExactly(first, within(1e-6f));
  }

  @Test
  void batchEqualsOneCallPerTextInOrder() {
    List<float[]> batch = embedder().embed(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) {
      float[] single = embedder().embed(TEXTS.get(i));
      assertThat(batch.get(i)).as("texts[%d]", i).containsExactly(single, within(1e-5f));
    }
  }

  @Test
  void reversedBatchGivesReversedVectors() {
    List<String> reversed = new ArrayList<>(TEXTS);
    java.util.Collections.reverse(reversed);
    List<float[]> forward = embedder().embed(TEXTS);
    List<float[]> backward = embedder().embed(reversed);
    for (int i = 0; i < TEXTS.size(); i++) {
      assertThat(backward.get(TEXTS.size() - 1 - i)).containsExactly(forward.get(i), within(1e-5f));
    }
  }

  @Test
  void emptyListGivesEmptyList() {
    assertThat(embedder().embed(List.of())).isEmpty();
  }

  @Test
  void blankTextIsRejectedNamingItsIndex() {
    assertThatThrownBy(() -> embedder().embed(List.of("fine", "  \n\t ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("texts[1]");
    assertThatThrownBy(() -> embedder().embed(Arrays.asList("fine", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("texts[1]");
  }

  @Test
  void concurrentCallersGetTheSameVectors() throws Exception {
    List<float[]> expected = embedder().embed(TEXTS);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Callable<List<float[]>>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) calls.add(() -> embedder().embed(TEXTS));
      for (Future<List<float[]>> f : pool.invokeAll(calls)) {
        List<float[]> got = f.get();
        for (int i = 0; i < TEXTS.size(); i++) {
          assertThat(got.get(i)).containsExactly(expected.get(i), within(1e-5f));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
