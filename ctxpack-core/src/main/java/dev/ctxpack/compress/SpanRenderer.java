package dev.ctxpack.compress;

import dev.ctxpack.model.Passage;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Renders a {@link Selection}: each passage's kept spans in source order, runs of adjacent kept
 * sentences as one span (the text between them included), other spans joined by {@link
 * Passage#GAP}, each passage counted exactly. The compressor renders after selecting and again after
 * each drop while over the budget; the selector renders once to count what the knapsack kept.
 * Thread-safe.
 */
final class SpanRenderer {
  private final Tokenizer tokenizer;

  SpanRenderer(Tokenizer tokenizer) {
    this.tokenizer = tokenizer;
  }

  /** Each passage's kept spans: runs of adjacent kept sentences become one span, in source order. */
  List<Compression.Compressed> render(List<CompressInput> inputs, List<Sentence> sentences, Selection sel) {
    List<List<Compression.Span>> spans = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) spans.add(new ArrayList<>());
    int runStart = -1;
    for (int i = 0; i < sentences.size(); i++) {
      Sentence s = sentences.get(i);
      boolean in = sel.kept[i];
      if (in && runStart < 0) runStart = i;
      boolean last = i + 1 == sentences.size() || !Selection.samePart(sentences.get(i + 1), s) || !sel.kept[i + 1];
      if (in && last) {
        Sentence first = sentences.get(runStart);
        spans.get(s.input()).add(new Compression.Span(s.part(), first.start(), s.end()));
        runStart = -1;
      }
      int[] cut = sel.cuts.get(i);
      if (cut != null) spans.get(s.input()).add(new Compression.Span(s.part(), cut[0], cut[1]));
    }
    List<Compression.Compressed> out = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      List<Compression.Span> ss = spans.get(i);
      if (ss.isEmpty()) continue;
      ss.sort(Comparator.comparingInt(Compression.Span::part).thenComparingInt(Compression.Span::start));
      StringBuilder text = new StringBuilder();
      for (Compression.Span sp : ss) {
        if (text.length() > 0) text.append(Passage.GAP);
        text.append(inputs.get(i).parts().get(sp.part()).text(), sp.start(), sp.end());
      }
      String t = text.toString();
      out.add(new Compression.Compressed(inputs.get(i).id(), t, ss, tokenizer.count(t)));
    }
    return out;
  }

  /** The tokens of {@code passages}, each counted as rendered. */
  static int total(List<Compression.Compressed> passages) {
    int t = 0;
    for (Compression.Compressed c : passages) t += c.tokens();
    return t;
  }
}
