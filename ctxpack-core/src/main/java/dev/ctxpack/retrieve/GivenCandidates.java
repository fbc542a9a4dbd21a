package dev.ctxpack.retrieve;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.LanguageDetector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A retriever that returns candidates someone else found: the evidence a framework's retrievers
 * gave (LangChain4j contents, Spring AI documents), packed by ctxpack's later stages as if ctxpack had
 * retrieved it. They come back best first (by {@link Candidate#score()}, ties in the given order),
 * every one of them whatever {@link RetrievalOptions#k()} asks: the caller already chose how many.
 */
public final class GivenCandidates implements Retriever {
  private static final LanguageDetector LANGUAGES = new LanguageDetector();
  private final List<Candidate> candidates;

  public GivenCandidates(List<Candidate> candidates) {
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(Comparator.comparingDouble(Candidate::score).reversed());
    this.candidates = List.copyOf(sorted);
  }

  @Override
  public List<Candidate> retrieve(String query, RetrievalOptions options, Trace trace) {
    trace.add(Stage.RETRIEVE, Action.RETRIEVE, "given", List.of(), "", 0,
        candidates.size() + " candidates given by the caller");
    return candidates;
  }

  public List<Candidate> candidates() {
    return candidates;
  }

  /**
   * A candidate for text found outside ctxpack: chunk {@code id} of document {@code docId} (the id when
   * null), at offset {@code start} of it (0 when unknown: overlap stitching needs the real offsets),
   * with a title, URI and metadata (nullable) and a score (higher is better; a rank works). Its
   * language is detected from the text.
   *
   * @throws IllegalArgumentException naming the id when the id or text is empty, the offset negative
   *     or the score not finite
   */
  public static Candidate candidate(String id, String docId, String text, int start, String title, String uri,
      Map<String, String> metadata, double score) {
    if (id == null || id.isBlank()) throw new IllegalArgumentException("a candidate needs a non-empty id");
    if (text == null || text.isEmpty()) throw new IllegalArgumentException("candidate " + id + " has no text");
    if (start < 0) throw new IllegalArgumentException("start of " + id + " must be >= 0, was " + start);
    if (!Double.isFinite(score)) throw new IllegalArgumentException("score of " + id + " must be finite, was " + score);
    String doc = docId == null || docId.isBlank() ? id : docId;
    Chunk chunk = new Chunk(id, doc, new Span(start, start + text.length()), text, "", 0, 0);
    DocInfo info = new DocInfo(doc, uri, title, LANGUAGES.detect(text), metadata);
    return new Candidate(chunk, info, Scores.of(Signal.FUSED, score));
  }
}
