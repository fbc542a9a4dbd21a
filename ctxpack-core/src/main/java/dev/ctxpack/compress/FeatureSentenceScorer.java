package dev.ctxpack.compress;

import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Scores sentences by a logistic model over {@link SentenceFeatures}: {@code p = sigmoid(a * sum_F
 * weight.F * (F - mean.F) / scale.F + b)}, the probability that the sentence holds the answer. One
 * model per query language (Portuguese and English; English for any other) and per kind of
 * evidence: with sentence vectors and the embedder's token states (when sentences are embedded on
 * the fly by a model that gives them, {@link SentenceTokens}), with sentence vectors (stored in an
 * index), and lexical (when there are none for the query: no embedder, or a language the embedder
 * was not trained for), each fitted on real QA data
 * by {@code dev.ctxpack.bench.compress.FitCompressor} and shipped as the resource {@value
 * #RESOURCE}. Thread-safe.
 */
public final class FeatureSentenceScorer implements SentenceScorer {
  public static final String RESOURCE = "/dev/ctxpack/compress/sentence-scorer.properties";

  /** One language's fitted model. */
  public record Model(double[] weight, double[] mean, double[] scale, double a, double b, double onTopic) {
    public Model {
      int d = SentenceFeatures.NAMES.size();
      if (weight.length != d || mean.length != d || scale.length != d) {
        throw new IllegalArgumentException("a model needs " + d + " weights, means and scales");
      }
    }

    double linear(double[] x) {
      double s = 0;
      for (int f = 0; f < x.length; f++) s += weight[f] * (x[f] - mean[f]) / scale[f];
      return s;
    }

    double probability(double[] x) {
      return 1 / (1 + Math.exp(-(a * linear(x) + b)));
    }
  }

  private static volatile Map<Key, Model> defaults;

  /**
   * Which model: a language, with or without sentence vectors, and whether it also reads the
   * embedder's token states ({@link SentenceTokens}). Written {@code en.} (vectors), {@code
   * en.lexical.}, {@code en.tokens.} (vectors and token states), {@code pt.lexical.tokens.} (token
   * states without vectors: MiniLM's pooled vectors are not fitted for Portuguese, its token states'
   * matches are).
   */
  public record Key(Language language, boolean vectors, boolean tokens) {
    public Key(Language language, boolean vectors) {
      this(language, vectors, false);
    }

    String prefix() {
      return language.code() + (vectors ? "" : ".lexical") + (tokens ? ".tokens." : ".");
    }
  }

  private final Map<Key, Model> models;
  private final SentenceVectors vectors;
  private final LanguageDetector detector = new LanguageDetector();

  public FeatureSentenceScorer(Map<Key, Model> models, SentenceVectors vectors) {
    if (!models.containsKey(new Key(Language.EN, false))) {
      throw new IllegalArgumentException("an English lexical model is required");
    }
    this.models = Map.copyOf(models);
    this.vectors = Objects.requireNonNull(vectors, "vectors");
  }

  /** The shipped models over {@code vectors}. */
  public static FeatureSentenceScorer defaults(SentenceVectors vectors) {
    Map<Key, Model> m = defaults;
    if (m == null) {
      try (InputStream in = FeatureSentenceScorer.class.getResourceAsStream(RESOURCE)) {
        if (in == null) throw new IllegalStateException("missing resource " + RESOURCE);
        Properties p = new Properties();
        p.load(in);
        m = parse(p);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      defaults = m;
    }
    return new FeatureSentenceScorer(m, vectors);
  }

  /**
   * Reads models written as {@code en.weight.F}, {@code en.mean.F}, {@code en.scale.F}, {@code
   * en.a}, {@code en.b}, {@code en.onTopic} (with vectors), {@code en.tokens.weight.F}... (with
   * vectors and token states) and {@code en.lexical.weight.F}... (without). A feature a model does
   * not name has weight 0.
   */
  public static Map<Key, Model> parse(Properties p) {
    Map<Key, Model> out = new HashMap<>();
    for (Language lang : List.of(Language.EN, Language.PT)) for (int level = 0; level < 4; level++) {
      Key key = new Key(lang, (level & 1) != 0, (level & 2) != 0);
      String prefix = key.prefix();
      if (p.getProperty(prefix + "a") == null) continue;
      int d = SentenceFeatures.NAMES.size();
      double[] w = new double[d];
      double[] mean = new double[d];
      double[] scale = new double[d];
      for (int f = 0; f < d; f++) {
        String name = SentenceFeatures.NAMES.get(f);
        w[f] = number(p, prefix + "weight." + name, 0);
        mean[f] = number(p, prefix + "mean." + name, 0);
        scale[f] = number(p, prefix + "scale." + name, 1);
        if (!(scale[f] > 0)) throw new IllegalArgumentException(prefix + "scale." + name + " must be > 0");
      }
      out.put(key, new Model(w, mean, scale, number(p, prefix + "a", 1), number(p, prefix + "b", 0),
          number(p, prefix + "onTopic", 0.5)));
    }
    return out;
  }

  private static double number(Properties p, String key, double otherwise) {
    String v = p.getProperty(key);
    if (v == null) return otherwise;
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " is not a number: '" + v + "'");
    }
  }

  @Override
  public String id() {
    return "features:" + vectors.id();
  }

  /**
   * The model for a query in {@code language} with or without a query vector: that language's
   * (English when neither), with vectors when there is a vector and such a model, else lexical.
   */
  public Model model(Language language, boolean vectors) {
    return model(language, vectors, false);
  }

  /** As {@link #model(Language, boolean)}, the model reading token states when {@code tokens} and there is one. */
  public Model model(Language language, boolean vectors, boolean tokens) {
    Language lang = language == Language.PT ? Language.PT : Language.EN;
    if (tokens && models.containsKey(new Key(lang, vectors, true))) return models.get(new Key(lang, vectors, true));
    if (vectors && models.containsKey(new Key(lang, true))) return models.get(new Key(lang, true));
    Model m = models.get(new Key(lang, false));
    return m != null ? m : models.get(new Key(Language.EN, false));
  }

  @Override
  public boolean probabilities() {
    return true;
  }

  @Override
  public double onTopic(String query) {
    return model(detector.detect(query), false).onTopic();
  }

  @Override
  public double onTopic() {
    return models.get(new Key(Language.EN, false)).onTopic();
  }

  @Override
  public double[] score(String query, List<CompressInput> inputs, List<Sentence> sentences) throws IOException {
    float[] qv = vectors.query(query);
    Language language = detector.detect(query);
    // With a model for them, the token states' pass gives the sentence vectors too (SentenceTokens).
    SentenceTokens tokens = hasTokenModel(language, qv != null) ? vectors.tokens(query, inputs, sentences) : null;
    float[][] sv = qv == null ? null : tokens != null ? tokens.vectors() : vectors.sentences(inputs, sentences);
    // The model with vectors only where most sentences have one; else the lexical model, without them.
    int with = 0;
    if (sv != null) for (float[] v : sv) if (v != null) with++;
    boolean useVectors = qv != null && with * 2 >= sentences.size() && with > 0;
    if (!useVectors) {
      qv = null;
      sv = null;
      if (!hasTokenModel(language, false)) tokens = null;
    }
    double[][] x = SentenceFeatures.compute(query, inputs, sentences, qv, sv, tokens);
    Model m = model(language, useVectors, tokens != null);
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) out[i] = m.probability(x[i]);
    return out;
  }

  /**
   * The feature rows the models weigh (for fitting and inspection); without vectors when {@code
   * withVectors} is false or the source has none for the query.
   */
  public double[][] features(String query, List<CompressInput> inputs, List<Sentence> sentences, boolean withVectors)
      throws IOException {
    return features(query, inputs, sentences, withVectors, false);
  }

  /** As {@link #features(String, List, List, boolean)}, with the token-match features when {@code withTokens} and the source has them. */
  public double[][] features(String query, List<CompressInput> inputs, List<Sentence> sentences, boolean withVectors,
      boolean withTokens) throws IOException {
    float[] qv = withVectors ? vectors.query(query) : null;
    SentenceTokens tokens = withTokens ? vectors.tokens(query, inputs, sentences) : null;
    float[][] sv = qv == null ? null : tokens != null ? tokens.vectors() : vectors.sentences(inputs, sentences);
    return SentenceFeatures.compute(query, inputs, sentences, qv, sv, tokens);
  }

  private boolean hasTokenModel(Language language, boolean vectors) {
    return models.containsKey(new Key(language == Language.PT ? Language.PT : Language.EN, vectors, true));
  }
}
