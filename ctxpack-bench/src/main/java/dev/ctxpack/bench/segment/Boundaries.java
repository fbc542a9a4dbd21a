package dev.ctxpack.bench.segment;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.text.BreakIterator;
import java.util.Collection;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Sentence boundaries as offsets, and their matching. A boundary is normalised by skipping the
 * whitespace after it ({@link SentenceSegmenter#isSpace}): a segmenter's span end before the spaces
 * and BreakIterator's boundary after them are then the same offset, the start of the next sentence
 * (or the text's length). Offset 0 is never a boundary; the text's length (the trivial final
 * boundary) is kept or dropped by {@code includeFinal}, the same way for gold and every system.
 */
public final class Boundaries {
  private Boundaries() {}

  /** {@code offset} moved past the whitespace that follows it. */
  public static int normalize(String text, int offset) {
    int i = offset;
    while (i < text.length() && SentenceSegmenter.isSpace(text.charAt(i))) i++;
    return i;
  }

  /** Normalised, deduplicated, sorted boundaries from raw end offsets. */
  public static TreeSet<Integer> of(String text, Collection<Integer> ends, boolean includeFinal) {
    TreeSet<Integer> out = new TreeSet<>();
    for (int e : ends) {
      int b = normalize(text, e);
      if (b <= 0) continue;
      if (b >= text.length() && !includeFinal) continue;
      out.add(b);
    }
    return out;
  }

  /** ctxpack's boundaries: the end of each span of {@code new SentenceSegmenter().split(text, language)}. */
  public static TreeSet<Integer> ctxpack(SentenceSegmenter segmenter, String text, Language language, boolean includeFinal) {
    java.util.List<Integer> ends = new java.util.ArrayList<>();
    for (Span s : segmenter.split(text, language)) ends.add(s.end());
    return of(text, ends, includeFinal);
  }

  /** {@code BreakIterator.getSentenceInstance(locale)}'s boundaries after the first (offset 0). */
  public static TreeSet<Integer> breakIterator(String text, Locale locale, boolean includeFinal) {
    BreakIterator it = BreakIterator.getSentenceInstance(locale);
    it.setText(text);
    java.util.List<Integer> ends = new java.util.ArrayList<>();
    for (int b = it.next(); b != BreakIterator.DONE; b = it.next()) ends.add(b);
    return of(text, ends, includeFinal);
  }

  /** True positives, false positives and false negatives, summed over paragraphs. */
  public record Score(long tp, long fp, long fn) {
    public static final Score ZERO = new Score(0, 0, 0);

    /** The score of {@code predicted} against {@code gold} (both normalised boundary sets). */
    public static Score of(java.util.Set<Integer> gold, java.util.Set<Integer> predicted) {
      long tp = 0;
      for (int b : predicted) if (gold.contains(b)) tp++;
      return new Score(tp, predicted.size() - tp, gold.size() - tp);
    }

    public Score plus(Score o) {
      return new Score(tp + o.tp, fp + o.fp, fn + o.fn);
    }

    /** tp / (tp + fp); 1 when nothing was predicted (no false boundary was made). */
    public double precision() {
      return tp + fp == 0 ? 1.0 : (double) tp / (tp + fp);
    }

    /** tp / (tp + fn); 1 when there was nothing to find. */
    public double recall() {
      return tp + fn == 0 ? 1.0 : (double) tp / (tp + fn);
    }

    /** 2PR / (P + R) = 2tp / (2tp + fp + fn); 0 when tp is 0 and there were errors. */
    public double f1() {
      long d = 2 * tp + fp + fn;
      return d == 0 ? 1.0 : 2.0 * tp / d;
    }
  }
}
