package dev.ctxpack.verify;

import static dev.ctxpack.verify.VerifyText.stem;
import static dev.ctxpack.verify.VerifyText.terms;
import static dev.ctxpack.verify.VerifyText.wordsOf;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.similarity.Guard;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one request's sources are, analysed once: sentences, their terms and stems, term rarity,
 * the language, and (on demand) the guard's cues and the sentences' vectors. {@link
 * EvidenceVerifier#verify} builds one per call and every claim of the answer is checked against
 * it, so nothing about the sources is computed twice. Not thread-safe: one call's own.
 */
final class SourceSentences {
  final List<CompressInput> inputs;
  final List<Sentence> sentences;
  final List<Set<String>> terms = new ArrayList<>();
  final List<Set<String>> stems = new ArrayList<>();
  final List<TreeMap<String, List<String>>> cues = new ArrayList<>();
  /** Sentence indices of each source, in order. */
  final List<List<Integer>> bySource = new ArrayList<>();
  final Map<String, Integer> df = new HashMap<>();
  final Map<Integer, Set<String>> sourceTerms = new HashMap<>();
  final Map<Integer, String> sourceFolded = new HashMap<>();
  final Map<Integer, Set<String>> sourceStems = new HashMap<>();
  final boolean portuguese;
  /** Whether the embedder reads this request's language (the MiniLM default reads English only). */
  final boolean semantic;
  private final Embedder embedder;
  float[][] vectors;

  SourceSentences(List<CompressInput> inputs, List<Sentence> sentences, String answerText, LanguageDetector detector,
      Embedder embedder) {
    this.inputs = inputs;
    this.sentences = sentences;
    this.embedder = embedder;
    for (int i = 0; i < inputs.size(); i++) bySource.add(new ArrayList<>());
    for (int i = 0; i < sentences.size(); i++) {
      Sentence s = sentences.get(i);
      Set<String> t = terms(s.text());
      terms.add(t);
      Set<String> st = new HashSet<>();
      for (String w : t) st.add(stem(w));
      stems.add(st);
      for (String w : t) df.merge(w, 1, Integer::sum);
      cues.add(null);
      bySource.get(s.input()).add(i);
    }
    StringBuilder sample = new StringBuilder(answerText);
    for (int i = 0; i < inputs.size() && sample.length() < 2000; i++) sample.append(' ').append(text(i));
    Language lang = detector.detect(sample.toString());
    portuguese = lang == Language.PT;
    Language l = lang == Language.UNKNOWN ? Language.EN : lang;
    semantic = embedder != null && (embedder.languages().isEmpty() || embedder.languages().contains(l));
  }

  String text(int input) {
    return inputs.get(input).parts().get(0).text();
  }

  TreeMap<String, List<String>> cues(int sentence) {
    TreeMap<String, List<String>> c = cues.get(sentence);
    if (c == null) {
      c = Guard.cues(sentences.get(sentence).text());
      cues.set(sentence, c);
    }
    return c;
  }

  Set<String> sourceTerms(int input) {
    return sourceTerms.computeIfAbsent(input, k -> {
      Set<String> all = new HashSet<>();
      for (int s : bySource.get(k)) all.addAll(terms.get(s));
      return all;
    });
  }

  Set<String> sourceStems(int input) {
    return sourceStems.computeIfAbsent(input, k -> {
      Set<String> all = new HashSet<>();
      for (int s : bySource.get(k)) all.addAll(stems.get(s));
      return all;
    });
  }

  String folded(int input) {
    return sourceFolded.computeIfAbsent(input, k -> " " + String.join(" ", wordsOf(text(k))) + " ");
  }

  double idf(String term) {
    int n = sentences.size();
    // a term in no source weighs as a rare one, not more: a claim's own verb ("occur" for "happen")
    // should not outweigh everything the sources do confirm
    int d = Math.max(1, df.getOrDefault(term, 0));
    return Math.log(1 + (n - d + 0.5) / (d + 0.5));
  }

  float[][] vectors() {
    if (vectors == null) {
      List<String> texts = new ArrayList<>();
      for (Sentence s : sentences) texts.add(s.text());
      List<float[]> v = texts.isEmpty() ? List.of() : Embedder.embedLeniently(embedder, texts);
      vectors = v.toArray(new float[0][]);
    }
    return vectors;
  }

  /** Sentences {@code from} to {@code to} (inclusive) of source {@code input} as evidence, the score held in [0, 1]. */
  Evidence evidence(int input, int from, int to, double score) {
    Sentence a = sentences.get(from);
    Sentence b = sentences.get(to);
    String text = text(input);
    return new Evidence(inputs.get(input).id(), a.start(), b.end(), text.substring(a.start(), b.end()),
        Math.min(1, Math.max(0, score)));
  }
}
