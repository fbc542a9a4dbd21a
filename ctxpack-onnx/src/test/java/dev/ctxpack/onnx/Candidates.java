package dev.ctxpack.onnx;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Candidates for reranker tests, and how to read a reranked list back. */
final class Candidates {
  private Candidates() {}

  /** A candidate whose chunk {@code id} holds {@code text}, from a document titled {@code title}, with a BM25 score. */
  static Candidate of(String id, String title, String text, double bm25) {
    Chunk chunk = new Chunk(id, "doc-" + id, new Span(0, text.length()), text, "", 0, text.split("\\s+").length);
    DocInfo doc = new DocInfo("doc-" + id, "file:///" + id, title, Language.EN, Map.of());
    return new Candidate(chunk, doc, Scores.of(Signal.BM25, bm25));
  }

  /** An untitled candidate. */
  static Candidate of(String id, String text) {
    return of(id, "", text, 1.0);
  }

  static List<String> ids(List<Candidate> ranked) {
    return ranked.stream().map(c -> c.chunk().id()).collect(Collectors.toList());
  }

  static double rerank(Candidate c) {
    return c.scores().get(Signal.RERANK).orElseThrow();
  }

  /** Lower-case words of {@code text} (letters and digits). */
  static Set<String> words(String text) {
    return java.util.Arrays.stream(text.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
        .filter(w -> !w.isEmpty())
        .collect(Collectors.toSet());
  }

  /** How many distinct words of {@code query} occur in {@code text}: what the test services score by. */
  static int overlap(String query, String text) {
    Set<String> passage = words(text);
    return (int) words(query).stream().filter(passage::contains).count();
  }
}
