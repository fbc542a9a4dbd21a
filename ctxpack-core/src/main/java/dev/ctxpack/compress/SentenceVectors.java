package dev.ctxpack.compress;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where sentence vectors come from: none, computed on the fly by an {@link Embedder}, or stored in
 * the index at ingestion ({@link IndexSentenceVectors}). Vectors are unit length. A source returns
 * no query vector for a query in a language its model was not trained for: the semantic signal is
 * then absent rather than noise.
 */
public interface SentenceVectors {

  /** The query's unit vector, or {@code null} when this source has none for it. */
  float[] query(String query) throws IOException;

  /** One unit vector per sentence, in order; {@code null} entries where none. */
  float[][] sentences(List<CompressInput> inputs, List<Sentence> sentences) throws IOException;

  /** Names the source in traces. */
  String id();

  /**
   * The request's token-level evidence ({@link SentenceTokens}), or {@code null} when this source
   * has none (the default; vectors stored in an index carry no token states). Unlike the vectors,
   * token states are given for a query in any language: the scorer asks for them only where it
   * has a model fitted on them for the query's language.
   */
  default SentenceTokens tokens(String query, List<CompressInput> inputs, List<Sentence> sentences) {
    return null;
  }

  /**
   * This source without token states: sentences are scored by the model over sentence vectors
   * alone, as with vectors stored in an index (cheaper on the fly: no pass over each passage; the
   * ranking is the one before token features, docs/BENCHMARKS.md).
   */
  default SentenceVectors withoutTokens() {
    SentenceVectors self = this;
    return new SentenceVectors() {
      @Override
      public float[] query(String query) throws IOException {
        return self.query(query);
      }

      @Override
      public float[][] sentences(List<CompressInput> inputs, List<Sentence> sentences) throws IOException {
        return self.sentences(inputs, sentences);
      }

      @Override
      public String id() {
        return self.id();
      }
    };
  }

  /** No vectors: the semantic features are absent. */
  static SentenceVectors none() {
    return new SentenceVectors() {
      @Override
      public float[] query(String query) {
        return null;
      }

      @Override
      public float[][] sentences(List<CompressInput> inputs, List<Sentence> sentences) {
        return new float[sentences.size()][];
      }

      @Override
      public String id() {
        return "none";
      }
    };
  }

  /** Every sentence embedded on the fly, in one batch per request. */
  static SentenceVectors embedder(Embedder embedder) {
    return embedder(embedder, "", "");
  }

  /**
   * Every sentence embedded on the fly with {@code passagePrefix} before it, the query with {@code
   * queryPrefix} (models trained with prefixes, such as E5's {@code "query: "} and {@code
   * "passage: "}).
   */
  static SentenceVectors embedder(Embedder embedder, String queryPrefix, String passagePrefix) {
    java.util.Objects.requireNonNull(queryPrefix, "queryPrefix");
    java.util.Objects.requireNonNull(passagePrefix, "passagePrefix");
    return new SentenceVectors() {
      private final LanguageDetector detector = new LanguageDetector();

      @Override
      public float[] query(String query) {
        if (!supports(embedder, detector.detect(query))) return null;
        return embedder.embed(queryPrefix + query);
      }

      @Override
      public float[][] sentences(List<CompressInput> inputs, List<Sentence> sentences) {
        List<String> texts = new ArrayList<>(sentences.size());
        for (Sentence s : sentences) texts.add(passagePrefix + s.text());
        List<float[]> vs = texts.isEmpty() ? List.of() : embedder.embed(texts);
        return vs.toArray(new float[0][]);
      }

      @Override
      public SentenceTokens tokens(String query, List<CompressInput> inputs, List<Sentence> sentences) {
        // Any language: the scorer asks only where it has a model fitted on these token states.
        return SentenceTokens.read(embedder, queryPrefix, passagePrefix, query, inputs, sentences);
      }

      @Override
      public String id() {
        return embedder.id();
      }
    };
  }

  /** Whether {@code embedder} was trained for {@code language} (a multilingual or unknown model: yes). */
  static boolean supports(Embedder embedder, Language language) {
    return embedder.languages().isEmpty() || language == Language.UNKNOWN || embedder.languages().contains(language);
  }
}
