package dev.ctxpack.chunk;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.util.ArrayList;
import java.util.List;

/**
 * The sentences the one-sentence chunkers index: the segmenter's, with a short heading that ends
 * without punctuation ("OBJECTIVES", "# Coffee", "Resultados"; not a list item) joined to the
 * sentence after it. The
 * segmenter ends a sentence after such a heading, as UD annotates headlines; a chunk holding only
 * the heading would be found by nothing and say nothing, and the heading is the context of the
 * sentence it opens. {@link SentenceChunker} cuts these units and {@link SentenceWindow} widens hits
 * by them, so both count the same sentences.
 */
final class SentenceUnits {
  /** A heading has at most this many words. */
  static final int MAX_HEADING_WORDS = 4;

  private static final SentenceSegmenter SEGMENTER = new SentenceSegmenter();
  /** A list item ("- item", "* item", "• item", "1. item", "a) item") is not a heading. */
  private static final java.util.regex.Pattern LIST_ITEM =
      java.util.regex.Pattern.compile("\\s*(?:[-*•–+]\\s|\\p{Alnum}{1,3}[.)]\\s)");

  private SentenceUnits() {}

  static List<Span> of(String text, Language language) {
    List<Span> sentences = SEGMENTER.split(text, language);
    List<Span> out = new ArrayList<>(sentences.size());
    int start = -1;
    for (int i = 0; i < sentences.size(); i++) {
      Span s = sentences.get(i);
      int from = start >= 0 ? start : s.start();
      if (i + 1 < sentences.size() && heading(text, s)) {
        start = from;
        continue;
      }
      out.add(new Span(from, s.end()));
      start = -1;
    }
    return out;
  }

  /** A few words without final punctuation. */
  static boolean heading(String text, Span s) {
    int end = s.end();
    while (end > s.start() && Character.isWhitespace(text.charAt(end - 1))) end--;
    if (end == s.start()) return false;
    char last = text.charAt(end - 1);
    if (".!?…:;\"”’)]»".indexOf(last) >= 0) return false;
    if (LIST_ITEM.matcher(text.substring(s.start(), end)).lookingAt()) return false;
    int words = 0;
    boolean in = false;
    for (int i = s.start(); i < end; i++) {
      boolean space = Character.isWhitespace(text.charAt(i));
      if (!space && !in && ++words > MAX_HEADING_WORDS) return false;
      in = !space;
    }
    return words > 0;
  }
}
