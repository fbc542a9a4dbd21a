package dev.ctxpack.assemble;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.Terms;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Chooses few-shot examples for a query within a token budget. Each example's input is scored by
 * its similarity to the query: the cosine of their embeddings when an embedder is given and reads
 * the query's language, else the overlap of their content terms ({@link Terms}: folded, plural-free,
 * stop words out; |Q ∩ E| / √(|Q|·|E|)). Examples are taken best first, ties in request order, each
 * one that still fits; the chosen ones are sent least similar first, so the closest example is the
 * nearest to the conversation. Thread-safe.
 */
final class FewShotSelector {
  private final Embedder embedder;
  private final LanguageDetector languages = new LanguageDetector();

  FewShotSelector(Embedder embedder) {
    this.embedder = embedder;
  }

  /** The chosen examples in sending order and what they cost. */
  record Chosen(List<FewShot> examples, int tokens) {}

  Chosen select(String query, List<FewShot> examples, int budget, Tokenizer tok, Trace trace) {
    if (examples.isEmpty()) return new Chosen(List.of(), 0);
    double[] score = new double[examples.size()];
    String how = scores(query, examples, score);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < examples.size(); i++) order.add(i);
    order.sort(Comparator.<Integer>comparingDouble(i -> -score[i]).thenComparing(i -> i));
    List<Integer> taken = new ArrayList<>();
    int used = 0;
    for (int i : order) {
      int c = examples.get(i).cost(tok);
      String s = String.format(Locale.ROOT, "%.4f", score[i]);
      if (used + c <= budget) {
        taken.add(i);
        used += c;
        trace.add(Stage.FEW_SHOT, Action.KEEP, "fewShot:" + how, List.of("fewShot[" + i + "]"), "", 0,
            "similarity " + s + ", " + c + " tokens");
      } else {
        trace.add(Stage.FEW_SHOT, Action.DROP, "fewShot:budget", List.of("fewShot[" + i + "]"), "", c,
            "similarity " + s + ": " + c + " tokens do not fit the " + (budget - used) + " left of " + budget);
      }
    }
    taken.sort(Comparator.<Integer>comparingDouble(i -> score[i]).thenComparing(i -> -i));
    List<FewShot> out = new ArrayList<>(taken.size());
    for (int i : taken) out.add(examples.get(i));
    return new Chosen(out, used);
  }

  /** Fills {@code score} with each example's similarity to the query and names the measure. */
  private String scores(String query, List<FewShot> examples, double[] score) {
    Language lang = languages.detect(query);
    if (embedder != null && !query.isBlank() && (embedder.languages().isEmpty() || embedder.languages().contains(lang))) {
      List<String> texts = new ArrayList<>(examples.size() + 1);
      texts.add(query);
      for (FewShot e : examples) texts.add(e.input());
      List<float[]> v = Embedder.embedLeniently(embedder, texts);
      if (v.get(0) != null) {
        for (int i = 0; i < examples.size(); i++) {
          float[] e = v.get(i + 1);
          score[i] = e == null ? 0 : Embedder.dot(v.get(0), e);
        }
        return "cosine:" + embedder.id();
      }
    }
    Set<String> q = new HashSet<>(Terms.content(query));
    for (int i = 0; i < examples.size(); i++) {
      Set<String> e = new HashSet<>(Terms.content(examples.get(i).input()));
      if (q.isEmpty() || e.isEmpty()) continue;
      int shared = 0;
      for (String t : e) if (q.contains(t)) shared++;
      score[i] = shared / Math.sqrt((double) q.size() * e.size());
    }
    return "terms";
  }
}
