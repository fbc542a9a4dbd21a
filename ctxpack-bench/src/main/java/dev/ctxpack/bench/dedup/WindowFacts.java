package dev.ctxpack.bench.dedup;

import dev.ctxpack.similarity.Words;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Source;
import dev.ctxpack.text.TextNormalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What facts a packed window holds, judged on the evidence text (the sources' text, not the
 * instructions or the question):
 *
 * <ul>
 *   <li><b>contexts</b>: distinct original contexts that the sources cite (a lead document or any
 *       copy merged, stitched or grouped into it) <em>and</em> whose text is there: at least one of
 *       its sentences of five words or more (the whole context when it has none) occurs in the
 *       evidence, compared on words (case, punctuation and whitespace ignored);
 *   <li><b>contexts with any sentence</b>: also the contexts present only through a sentence that a
 *       copy of another context had prepended;
 *   <li><b>gold answers</b>: distinct gold answer strings of every answerable question of the
 *       contexts above (the first measure) that occur in the evidence (case and whitespace folded);
 *   <li><b>hit</b>: one of the question's own gold answers occurs in the evidence.
 * </ul>
 *
 * A sentence of context X can only reach the window through a copy of X or a copy of another
 * context that had a sentence of X prepended, so only those contexts are tested. Thread-safe.
 */
public final class WindowFacts {
  /** The measures of one window. */
  public record Measures(int contexts, int contextsAnySentence, int contextsCited, boolean ownContext,
      int goldAnswers, boolean hit, int sources, int tokens) {}

  private final Map<String, DuplicatedCorpus.Copy> byDoc;
  private final List<List<String>> sentenceKeys = new ArrayList<>();
  private final List<List<String>> answerKeys = new ArrayList<>();

  public WindowFacts(List<SquadV2.Context> contexts, DuplicatedCorpus corpus) {
    this.byDoc = corpus.copies().stream().collect(Collectors.toMap(DuplicatedCorpus.Copy::docId, c -> c));
    for (SquadV2.Context c : contexts) {
      List<String> keys = new ArrayList<>();
      for (String s : Perturbations.sentences(c.text())) {
        List<String> w = Words.of(s);
        if (w.size() >= 5) keys.add(key(w));
      }
      if (keys.isEmpty()) keys.add(key(Words.of(c.text())));
      sentenceKeys.add(keys);
      Set<String> answers = new LinkedHashSet<>();
      for (SquadV2.Question q : c.questions()) for (String a : q.answers()) answers.add(TextNormalizer.identityForm(a));
      answerKeys.add(new ArrayList<>(answers));
    }
  }

  static String key(List<String> words) {
    return " " + String.join(" ", words) + " ";
  }

  /** One piece of evidence in a window: its text and the documents it cites. */
  public record Evidence(String text, List<String> docIds) {}

  public Measures measure(ContextPackage pkg, int ownContext, SquadV2.Question q) {
    List<Evidence> evidence = new ArrayList<>();
    for (Source s : pkg.sources()) evidence.add(new Evidence(s.text(), s.spans().stream().map(Source.DocSpan::docId).toList()));
    return measure(evidence, pkg.budget().used(), ownContext, q);
  }

  /**
   * The measures of a window made of {@code evidence} (e.g. a framework's retrieved contents, or
   * what an adapter returned), {@code tokens} long.
   */
  public Measures measure(List<Evidence> evidenceList, int tokens, int ownContext, SquadV2.Question q) {
    StringBuilder sb = new StringBuilder();
    Set<Integer> cited = new TreeSet<>();
    Set<Integer> reachable = new TreeSet<>();
    for (Evidence s : evidenceList) {
      sb.append(s.text()).append('\n');
      for (String docId : s.docIds()) {
        DuplicatedCorpus.Copy c = byDoc.get(docId);
        if (c == null) throw new IllegalStateException("source cites unknown document " + docId);
        cited.add(c.origin());
        reachable.add(c.origin());
        if (c.donor() >= 0) reachable.add(c.donor());
      }
    }
    String evidence = sb.toString();
    String words = key(Words.of(evidence));
    String folded = TextNormalizer.identityForm(evidence);
    List<Integer> present = new ArrayList<>(); // cited and text present
    int anySentence = 0;
    for (int ctx : reachable) {
      for (String k : sentenceKeys.get(ctx)) {
        if (words.contains(k)) {
          anySentence++;
          if (cited.contains(ctx)) present.add(ctx);
          break;
        }
      }
    }
    Set<String> gold = new LinkedHashSet<>();
    for (int ctx : present) for (String a : answerKeys.get(ctx)) if (folded.contains(a)) gold.add(a);
    boolean hit = false;
    for (String a : q.answers()) {
      if (folded.contains(TextNormalizer.identityForm(a))) {
        hit = true;
        break;
      }
    }
    return new Measures(present.size(), anySentence, cited.size(), present.contains(ownContext), gold.size(), hit,
        evidenceList.size(), tokens);
  }
}
