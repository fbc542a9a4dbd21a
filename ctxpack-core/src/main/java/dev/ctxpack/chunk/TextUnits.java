package dev.ctxpack.chunk;

import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.EncodedText;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.List;

/** Splits spans that are too long into word spans, and words into token-bounded pieces. */
final class TextUnits {
  private TextUnits() {}

  /**
   * Refines {@code spans} so that no returned span exceeds {@code maxTokens}: an oversized span is
   * cut into words, an oversized word at token boundaries (never inside a surrogate pair).
   * Returns the spans with their token counts in {@code counts}: exact where a span had to be
   * measured, else the whole-text estimate ({@link EncodedText#estimate}) of a span shown to fit by
   * its upper bound; callers count what they emit exactly.
   */
  static List<Span> fit(EncodedText encoded, List<Span> spans, int maxTokens, List<Integer> counts) {
    String text = encoded.text();
    Tokenizer tokenizer = encoded.tokenizer();
    List<Span> out = new ArrayList<>(spans.size());
    for (Span s : spans) {
      if (encoded.upperBound(s.start(), s.end()) <= maxTokens) {
        out.add(s);
        counts.add(encoded.estimate(s.start(), s.end()));
        continue;
      }
      int n = encoded.count(s.start(), s.end());
      if (n <= maxTokens) {
        out.add(s);
        counts.add(n);
        continue;
      }
      for (Span w : words(text, s)) {
        int wn = encoded.upperBound(w.start(), w.end()) <= maxTokens ? 0 : encoded.count(w.start(), w.end());
        if (wn <= maxTokens) {
          out.add(w);
          counts.add(wn == 0 ? encoded.estimate(w.start(), w.end()) : wn);
        } else {
          splitByTokens(text, w, tokenizer, maxTokens, out, counts);
        }
      }
    }
    return out;
  }

  /** Whitespace-delimited words of {@code span}, each including no whitespace. */
  static List<Span> words(String text, Span span) {
    List<Span> out = new ArrayList<>();
    int i = span.start();
    while (i < span.end()) {
      while (i < span.end() && Character.isWhitespace(text.charAt(i))) i++;
      int s = i;
      while (i < span.end() && !Character.isWhitespace(text.charAt(i))) i++;
      if (i > s) out.add(new Span(s, i));
    }
    return out;
  }

  /**
   * Words of {@code span} separated by any space ({@link SentenceSegmenter#isSpace}, which also knows
   * no-break and ideographic spaces), each including none.
   */
  static List<Span> spaceSeparatedWords(String text, Span span) {
    List<Span> out = new ArrayList<>();
    int i = span.start();
    while (i < span.end()) {
      while (i < span.end() && SentenceSegmenter.isSpace(text.charAt(i))) i++;
      int s = i;
      while (i < span.end() && !SentenceSegmenter.isSpace(text.charAt(i))) i++;
      if (i > s) out.add(new Span(s, i));
    }
    return out;
  }

  static void splitByTokens(
      String text, Span w, Tokenizer tokenizer, int maxTokens, List<Span> out, List<Integer> counts) {
    // Truncating the whole rest of a long word would re-encode all of it for every piece, which is
    // quadratic (a 40 kB word at 8 tokens took half a minute). Cutting from a window of 64 chars per
    // token (the longest tokens, runs such as "====", are 64 chars) is linear and gives the same pieces.
    int window = 64 * (maxTokens + 1);
    int pos = w.start();
    while (pos < w.end()) {
      int restEnd = w.end();
      if (restEnd - pos > window) {
        restEnd = pos + window;
        if (Character.isHighSurrogate(text.charAt(restEnd - 1)) && Character.isLowSurrogate(text.charAt(restEnd))) {
          restEnd--;
        }
      }
      String rest = text.substring(pos, restEnd);
      Tokenizer.Truncation t = tokenizer.truncate(rest, maxTokens);
      int len = t.text().length();
      if (len == 0) {
        // A single code point needs more tokens than allowed: take it whole (only possible for tiny maxima).
        len = Character.charCount(rest.codePointAt(0));
      }
      Span piece = new Span(pos, pos + len);
      out.add(piece);
      counts.add(len == t.text().length() ? t.tokens() : tokenizer.count(piece.of(text)));
      pos += len;
    }
  }
}
