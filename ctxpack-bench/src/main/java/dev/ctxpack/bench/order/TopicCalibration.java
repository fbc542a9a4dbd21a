package dev.ctxpack.bench.order;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Span;
import dev.ctxpack.order.TopicGroups;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * How well {@link TopicGroups} recovers topics, with Wikipedia (SQuAD) or FaQuAD article titles as
 * the gold topic of each paragraph. A set is what the packer selected for one question: the
 * passages of one real prompt, from one or several articles. Quality is the pairwise precision,
 * recall and F1 of "same group" against "same article", averaged over sets (a set where no two
 * passages share an article, or all do, scores 1 for the side with nothing to find).
 */
final class TopicCalibration {
  /** One set: passages (ids {@code c<context index>}) and each one's article. */
  record TopicSet(List<Passage> passages, List<String> topics) {}

  /** Mean pairwise precision, recall and F1 over the sets. */
  record Quality(double precision, double recall, double f1) {}

  private TopicCalibration() {}

  /**
   * The set of a package's sources: one passage per source (its id, text, pieces and lead chunk),
   * each with the article title of its lead document ({@code titles}, by document id).
   */
  static TopicSet of(ContextPackage p, Map<String, String> titles) {
    List<Passage> passages = new ArrayList<>();
    List<String> topics = new ArrayList<>();
    for (Source s : p.sources()) {
      Source.DocSpan lead = s.spans().get(0);
      Chunk chunk = new Chunk(lead.chunkId(), lead.docId(), new Span(lead.start(), lead.end()),
          " ".repeat(lead.end() - lead.start()), "", 0, 0);
      Candidate c = new Candidate(chunk, new DocInfo(lead.docId(), "", "", Language.UNKNOWN, Map.of()),
          Scores.of(Signal.RERANK, 1.0));
      passages.add(Passage.of(s.passage(), s.pieces(), List.of(c), 1.0));
      topics.add(titles.getOrDefault(lead.docId(), lead.docId()));
    }
    return new TopicSet(passages, topics);
  }

  /** Mean pairwise quality over {@code sets} at {@code threshold}, with {@code vectors} (empty: terms). */
  static Quality quality(List<TopicSet> sets, Map<String, float[]> vectors, double threshold) {
    double p = 0;
    double rc = 0;
    double f = 0;
    for (TopicSet s : sets) {
      TopicGroups.Grouping g = TopicGroups.group(s.passages(), vectors, threshold, threshold);
      int[] group = new int[s.passages().size()];
      for (int k = 0; k < g.groups().size(); k++) for (int m : g.groups().get(k)) group[m] = k;
      long tp = 0;
      long predicted = 0;
      long gold = 0;
      for (int a = 0; a < group.length; a++) {
        for (int b = a + 1; b < group.length; b++) {
          boolean same = group[a] == group[b];
          boolean truth = s.topics().get(a).equals(s.topics().get(b));
          predicted += same ? 1 : 0;
          gold += truth ? 1 : 0;
          tp += same && truth ? 1 : 0;
        }
      }
      double pr = predicted == 0 ? 1 : tp / (double) predicted;
      double re = gold == 0 ? 1 : tp / (double) gold;
      p += pr;
      rc += re;
      f += pr + re == 0 ? 0 : 2 * pr * re / (pr + re);
    }
    int n = sets.size();
    return new Quality(p / n, rc / n, f / n);
  }

  /** The threshold of {@code grid} with the best mean F1 over every list of {@code fitSets} (ties: the lower). */
  static double best(List<List<TopicSet>> fitSets, List<Map<String, float[]>> vectors, double[] grid) {
    double best = grid[0];
    double bestF = Double.NEGATIVE_INFINITY;
    for (double t : grid) {
      double f = 0;
      for (int i = 0; i < fitSets.size(); i++) f += quality(fitSets.get(i), vectors.get(i), t).f1();
      if (f > bestF + 1e-12) {
        bestF = f;
        best = t;
      }
    }
    return best;
  }

  static double[] grid(double from, double to, double step) {
    List<Double> l = new ArrayList<>();
    for (int i = 0; from + i * step <= to + 1e-9; i++) l.add(Math.round((from + i * step) * 1000) / 1000.0);
    return l.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The passage ids of {@code sets}, sorted. */
  static TreeSet<String> ids(List<TopicSet> sets) {
    TreeSet<String> out = new TreeSet<>();
    for (TopicSet s : sets) for (Passage p : s.passages()) out.add(p.id());
    return out;
  }

  static Map<String, float[]> none() {
    return new HashMap<>();
  }
}
