package dev.ctxpack.bench.compress;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.DropReason;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The baselines' sentence selector, independent of ctxpack's compressor: sentences are taken by
 * score, best first (ties in source order), each kept when the whole rendered output still fits the
 * budget, else skipped while the next ones are tried. A passage's output is rendered as ctxpack's
 * compressor renders it: runs of adjacent kept sentences of a part become one span (the source text
 * from the first's start to the last's end), spans in source order joined by {@link Passage#GAP};
 * it is counted as that text. Sentences scored NaN or negative infinity are never kept.
 */
public final class GreedySelector {
  private static final SentenceSegmenter SEGMENTER = new SentenceSegmenter();

  private GreedySelector() {}

  /** Every sentence of {@code inputs}, passage by passage and part by part, in source order. */
  public static List<Sentence> sentences(List<CompressInput> inputs, Language language) {
    List<Sentence> out = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      List<CompressInput.Part> parts = inputs.get(i).parts();
      for (int p = 0; p < parts.size(); p++) {
        String text = parts.get(p).text();
        int k = 0;
        for (Span s : SEGMENTER.split(text, language)) {
          out.add(new Sentence(i, p, k++, s.start(), s.end(), text.substring(s.start(), s.end())));
        }
      }
    }
    return out;
  }

  /**
   * Each input as exactly one sentence (its first part, whole): for candidate sets that are
   * already sentences (WikiQA), so segmentation cannot split them.
   */
  public static List<Sentence> wholeInputs(List<CompressInput> inputs) {
    List<Sentence> out = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      String text = inputs.get(i).parts().get(0).text();
      out.add(new Sentence(i, 0, 0, 0, text.length(), text));
    }
    return out;
  }

  /**
   * Keeps the best sentences whose rendered output fits in {@code budget} tokens (budget > 0).
   * {@code tokensIn} of the result is the sum of each input's text count.
   */
  public static Compression select(List<CompressInput> inputs, List<Sentence> sentences, double[] scores, int budget,
      Tokenizer tokenizer) {
    if (scores.length != sentences.size()) {
      throw new IllegalArgumentException(scores.length + " scores for " + sentences.size() + " sentences");
    }
    if (budget <= 0) throw new IllegalArgumentException("budget must be > 0, was " + budget);
    int n = sentences.size();
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) order[i] = i;
    // sentences are listed in source order, so the index breaks ties by source position
    Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> -scores[i]).thenComparingInt(i -> i));
    boolean[] kept = new boolean[n];
    int[] passageTokens = new int[inputs.size()];
    int total = 0;
    for (int idx : order) {
      double s = scores[idx];
      if (Double.isNaN(s) || s == Double.NEGATIVE_INFINITY) continue;
      int in = sentences.get(idx).input();
      kept[idx] = true;
      int t = tokenizer.count(text(inputs.get(in), spans(sentences, kept, in)));
      if (total - passageTokens[in] + t <= budget) {
        total += t - passageTokens[in];
        passageTokens[in] = t;
      } else {
        kept[idx] = false;
      }
    }
    List<Compression.Compressed> passages = new ArrayList<>();
    List<Compression.Dropped> dropped = new ArrayList<>();
    for (int in = 0; in < inputs.size(); in++) {
      List<Compression.Span> spans = spans(sentences, kept, in);
      for (int i = 0; i < n; i++) {
        Sentence s = sentences.get(i);
        if (s.input() != in || kept[i]) continue;
        boolean never = Double.isNaN(scores[i]) || scores[i] == Double.NEGATIVE_INFINITY;
        dropped.add(new Compression.Dropped(inputs.get(in).id(), new Compression.Span(s.part(), s.start(), s.end()),
            never ? DropReason.OFF_TOPIC : DropReason.BUDGET, scores[i], tokenizer.count(s.text())));
      }
      if (!spans.isEmpty()) {
        passages.add(new Compression.Compressed(inputs.get(in).id(), text(inputs.get(in), spans), spans, passageTokens[in]));
      }
    }
    int tokensIn = 0;
    for (CompressInput c : inputs) {
      for (CompressInput.Part p : c.parts()) tokensIn += tokenizer.count(p.text());
    }
    return new Compression(passages, dropped, tokensIn, total);
  }

  /**
   * The kept spans of input {@code in} in source order: each run of adjacent kept sentences of a
   * part is one span.
   */
  static List<Compression.Span> spans(List<Sentence> sentences, boolean[] kept, int in) {
    List<Compression.Span> out = new ArrayList<>();
    Sentence first = null;
    for (int i = 0; i < sentences.size(); i++) {
      Sentence s = sentences.get(i);
      if (s.input() != in || !kept[i]) continue;
      if (first == null) first = s;
      boolean runGoesOn = i + 1 < sentences.size() && kept[i + 1] && sentences.get(i + 1).input() == in
          && sentences.get(i + 1).part() == s.part();
      if (!runGoesOn) {
        out.add(new Compression.Span(s.part(), first.start(), s.end()));
        first = null;
      }
    }
    return out;
  }

  /** The text of {@code spans} of {@code input}, joined by {@link Passage#GAP}. */
  static String text(CompressInput input, List<Compression.Span> spans) {
    StringBuilder sb = new StringBuilder();
    for (Compression.Span sp : spans) {
      if (sb.length() > 0) sb.append(Passage.GAP);
      sb.append(input.parts().get(sp.part()).text(), sp.start(), sp.end());
    }
    return sb.toString();
  }
}
