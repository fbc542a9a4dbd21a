package dev.ctxpack.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CachingEmbedderTest {
  /**
   * Records every batch it is asked for; vectors derive from the text so results can be checked.
   * The next {@code failures} calls throw instead, as an unavailable model would.
   */
  static final class Recording implements Embedder {
    final List<List<String>> calls = new ArrayList<>();
    int failures;

    @Override
    public String id() {
      return "recording";
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      if (failures > 0) {
        failures--;
        throw new IllegalStateException("model unavailable");
      }
      calls.add(List.copyOf(texts));
      return texts.stream().map(t -> Embedder.normalize(new float[] {t.length(), 1})).toList();
    }
  }

  @Test
  void eachDistinctTextReachesTheModelOnceAndResultsKeepInputOrder() {
    Recording model = new Recording();
    CachingEmbedder cache = new CachingEmbedder(model, 100);
    List<float[]> first = cache.embed(List.of("aa", "b", "aa", "cccc"));
    assertThat(model.calls).containsExactly(List.of("aa", "b", "cccc"));
    assertThat(first.get(0)).containsExactly(first.get(2));
    assertThat(first.get(1)).containsExactly(Embedder.normalize(new float[] {1, 1}));
    cache.embed(List.of("b", "dd"));
    assertThat(model.calls).hasSize(2);
    assertThat(model.calls.get(1)).containsExactly("dd");
    assertThat(cache.hits()).isEqualTo(1);
    assertThat(cache.misses()).isEqualTo(4);
    assertThat(cache.id()).isEqualTo("recording");
  }

  @Test
  void theCacheIsBoundedAndEvictsTheLeastRecentlyUsed() {
    Recording model = new Recording();
    CachingEmbedder cache = new CachingEmbedder(model, 2);
    cache.embed(List.of("a"));
    cache.embed(List.of("b"));
    cache.embed(List.of("a"));
    cache.embed(List.of("c"));
    cache.embed(List.of("a"));
    assertThat(model.calls).hasSize(3);
    cache.embed(List.of("b"));
    assertThat(model.calls).hasSize(4);
  }

  @Test
  void returnedVectorsAreCopiesSoCallersCannotCorruptTheCache() {
    CachingEmbedder cache = new CachingEmbedder(new Recording(), 10);
    float[] v = cache.embed("abc");
    v[0] = 42;
    assertThat(cache.embed("abc")[0]).isNotEqualTo(42f);
  }

  @Test
  void aNonPositiveBoundIsRejected() {
    assertThatThrownBy(() -> new CachingEmbedder(new Recording(), 0)).hasMessageContaining("maxEntries");
  }
}
