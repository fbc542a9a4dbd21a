package dev.ctxpack.chunk;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.util.List;

/**
 * Widens a retrieved span to the sentences around it, for chunks indexed one sentence at a time
 * ({@link SentenceWindowChunker}). The document's stored text is segmented again into the units the
 * chunker cut ({@link SentenceUnits}: deterministic, so the same sentences), and the span grows from the
 * first sentence it touches minus {@code n} to the last plus {@code n}, within the document: the
 * result is a verbatim span of the stored text, never shorter than the hit.
 */
public final class SentenceWindow {
  private SentenceWindow() {}

  /** The span of {@code hit} in {@code text} widened by {@code n} sentences each side. */
  public static Span expand(String text, Language language, Span hit, int n) {
    if (n < 0) throw new IllegalArgumentException("window must be >= 0, was " + n);
    if (hit.end() > text.length()) {
      throw new IllegalArgumentException("span " + hit + " is outside the text of length " + text.length());
    }
    if (n == 0) return hit;
    List<Span> sentences = SentenceUnits.of(text, language);
    int first = -1;
    int last = -1;
    for (int i = 0; i < sentences.size(); i++) {
      Span s = sentences.get(i);
      if (s.end() > hit.start() && s.start() < hit.end()) {
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first < 0) return hit;
    int start = Math.min(hit.start(), sentences.get(Math.max(0, first - n)).start());
    int end = Math.max(hit.end(), sentences.get(Math.min(sentences.size() - 1, last + n)).end());
    return new Span(start, end);
  }
}
