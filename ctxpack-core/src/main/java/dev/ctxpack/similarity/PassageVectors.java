package dev.ctxpack.similarity;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Unit vectors of passages for the semantic level and MMR, by passage id. A passage with no vector
 * (no embedder, or a language the embedder was not trained for) is simply not grouped: an
 * English-only model's vectors of Portuguese text are too close to each other to mean "same".
 */
@FunctionalInterface
public interface PassageVectors {
  Map<String, float[]> vectors(List<Passage> passages) throws IOException;

  /** No vectors: the semantic level groups nothing and MMR compares words. */
  static PassageVectors none() {
    return p -> Map.of();
  }

  /**
   * The vectors the index stores for each passage's lead chunk ({@link SearchableIndex#chunkVectors}), for
   * passages in one of {@code languages} (all when empty or the language is unknown).
   */
  static PassageVectors fromIndex(SearchableIndex index, Set<Language> languages) {
    return passages -> {
      Map<String, String> chunkToPassage = new HashMap<>();
      for (Passage p : passages) {
        if (supported(p, languages)) chunkToPassage.put(p.primary().chunk().id(), p.id());
      }
      Map<String, float[]> byChunk = index.chunkVectors(chunkToPassage.keySet());
      Map<String, float[]> out = new HashMap<>();
      byChunk.forEach((chunk, v) -> out.put(chunkToPassage.get(chunk), v));
      return out;
    };
  }

  /** Vectors computed now by {@code embedder} from each passage's lead piece. */
  static PassageVectors fromEmbedder(Embedder embedder) {
    return passages -> {
      List<Passage> todo = new ArrayList<>();
      for (Passage p : passages) if (supported(p, embedder.languages())) todo.add(p);
      if (todo.isEmpty()) return Map.of();
      List<float[]> vs = embedder.embed(todo.stream().map(p -> p.pieces().get(0).text()).toList());
      Map<String, float[]> out = new HashMap<>();
      for (int i = 0; i < todo.size(); i++) out.put(todo.get(i).id(), vs.get(i));
      return out;
    };
  }

  /**
   * {@code inner}, asked at most once per passage id (a passage it has no vector for included): one
   * request's vectors, shared by the stages that compare passages (the semantic dedup level, MMR,
   * topic ordering). Not thread-safe: one per request.
   */
  static PassageVectors memo(PassageVectors inner) {
    Map<String, float[]> cache = new HashMap<>();
    return passages -> {
      List<Passage> missing = passages.stream().filter(p -> !cache.containsKey(p.id())).toList();
      if (!missing.isEmpty()) {
        Map<String, float[]> got = inner.vectors(missing);
        for (Passage p : missing) cache.put(p.id(), got.get(p.id()));
      }
      Map<String, float[]> out = new HashMap<>();
      for (Passage p : passages) {
        float[] v = cache.get(p.id());
        if (v != null) out.put(p.id(), v);
      }
      return out;
    };
  }

  private static boolean supported(Passage p, Set<Language> languages) {
    Language l = p.primary().doc().language();
    return languages.isEmpty() || l == Language.UNKNOWN || languages.contains(l);
  }
}
