package dev.ctxpack.bench.order;

import dev.ctxpack.bench.dedup.SquadV2;
import dev.ctxpack.lucene.LuceneIndex;
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
import dev.ctxpack.order.DefaultOrderer;
import dev.ctxpack.order.TopicGroups;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * How well {@link TopicGroups} recovers topics, with Wikipedia (SQuAD) or FaQuAD article titles as
 * the gold topic of each paragraph. A set is what the packer selected for one question: the
 * passages of one real prompt, from one or several articles. Quality is the pairwise precision,
 * recall and F1 of "same group" against "same article", averaged over sets (a set where no two
 * passages share an article, or all do, scores 1 for the side with nothing to find). {@link
 * #calibrate} fits the thresholds on questions of half the articles and reports them on the other.
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

  /**
   * The topic sets of {@code d}: the sources the packer selects (2,000 tokens, selection order) for
   * up to {@code topicSets} questions of the articles of one half (0: even-numbered articles in file
   * order, for fitting; 1: odd, for testing).
   */
  private static List<TopicSet> topicSets(OrderEval.Data d, OrderEval.Packing packing, int half, int count, long seed)
      throws IOException {
    Map<String, Integer> article = new LinkedHashMap<>();
    Map<String, String> titles = new HashMap<>();
    List<int[]> qs = new ArrayList<>();
    for (SquadV2.Context c : d.contexts()) {
      int a = article.computeIfAbsent(c.title(), t -> article.size());
      titles.put(d.docId(c.index()), c.title());
      if (a % 2 == half) for (int i = 0; i < c.questions().size(); i++) qs.add(new int[] {c.index(), i});
    }
    Collections.shuffle(qs, new Random(seed + 100 + half));
    List<TopicSet> out = new ArrayList<>();
    for (int[] qi : qs.subList(0, Math.min(count, qs.size()))) {
      String q = d.contexts().get(qi[0]).questions().get(qi[1]).text();
      ContextPackage p = packing.packer().pack(q, packing.base().toBuilder().reorder(false).budget(2000).build());
      if (p.sources().size() >= 2) out.add(of(p, titles));
    }
    return out;
  }

  /** The index's vectors of each set passage's lead chunk, by passage id (what the packer's topic order gets). */
  private static Map<String, float[]> vectors(LuceneIndex index, List<List<TopicSet>> sets) throws IOException {
    Map<String, String> passageOfChunk = new HashMap<>();
    for (var l : sets) for (var s : l) for (var p : s.passages()) passageOfChunk.put(p.primary().chunk().id(), p.id());
    Map<String, float[]> out = new HashMap<>();
    index.chunkVectors(passageOfChunk.keySet()).forEach((chunk, v) -> out.put(passageOfChunk.get(chunk), v));
    return out;
  }

  static Map<String, Object> calibrate(OrderEval.Data en, OrderEval.Data pt, OrderEval.Packing enPacking,
      OrderEval.Packing ptPacking, LuceneIndex enIndex, int topicSets, long seed, StringBuilder md) throws IOException {
    List<TopicSet> enFit = topicSets(en, enPacking, 0, topicSets, seed);
    List<TopicSet> enTest = topicSets(en, enPacking, 1, topicSets, seed);
    List<TopicSet> ptFit = topicSets(pt, ptPacking, 0, topicSets, seed);
    List<TopicSet> ptTest = topicSets(pt, ptPacking, 1, topicSets, seed);
    Map<String, float[]> vectors = vectors(enIndex, List.of(enFit, enTest));
    Map<String, float[]> none = none();

    double[] vGrid = grid(0.20, 0.80, 0.05);
    double[] tGrid = grid(0.01, 0.30, 0.01);
    double vBest = best(List.of(enFit), List.of(vectors), vGrid);
    double tBest = best(List.of(enFit, ptFit), List.of(none, none), tGrid);

    md.append("## Topic thresholds\n\nEach set is the sources `pack` selects for one question (2,000 tokens, hybrid")
        .append(" for SQuAD, BM25 for FaQuAD; sets of two sources or more), its topics the articles of the sources' documents;")
        .append(" questions of even-numbered articles fit, of odd-numbered ones test (up to ").append(topicSets)
        .append(" questions each, seed ").append(seed).append("; sets: SQuAD ").append(enFit.size()).append(" / ")
        .append(enTest.size()).append(", FaQuAD ").append(ptFit.size()).append(" / ").append(ptTest.size())
        .append("). Pairwise precision / recall / F1 of \"same group\" against \"same article\", mean over sets.")
        .append(" Best on the fit half: vectors ").append(vBest).append(", terms (both languages pooled) ").append(tBest)
        .append(" (shipped: vectors ").append(DefaultOrderer.TOPIC_VECTOR_COSINE).append(", terms ")
        .append(DefaultOrderer.TOPIC_TERM_COSINE).append(").\n\n");
    md.append("| similarity | threshold | data (half) | precision | recall | F1 |\n|---|---:|---|---:|---:|---:|\n");
    List<Object> rows = new ArrayList<>();
    for (double t : vGrid) {
      rows.add(row(md, "vectors", t, "SQuAD (fit)", quality(enFit, vectors, t), t == vBest));
    }
    for (double t : tGrid) {
      rows.add(row(md, "terms", t, "SQuAD (fit)", quality(enFit, none, t), t == tBest));
      rows.add(row(md, "terms", t, "FaQuAD (fit)", quality(ptFit, none, t), t == tBest));
    }
    md.append("\nOn the test half, at the thresholds best on the fit half (and the shipped ones, when they differ), beside the two trivial groupings (each passage alone:")
        .append(" precision 1; all in one group: recall 1):\n\n");
    md.append("| similarity | threshold | data (half) | precision | recall | F1 |\n|---|---:|---|---:|---:|---:|\n");
    for (double v : new java.util.TreeSet<>(List.of(vBest, DefaultOrderer.TOPIC_VECTOR_COSINE))) {
      rows.add(row(md, "vectors", v, "SQuAD (test)", quality(enTest, vectors, v), true));
    }
    for (double t : new java.util.TreeSet<>(List.of(tBest, DefaultOrderer.TOPIC_TERM_COSINE))) {
      rows.add(row(md, "terms", t, "SQuAD (test)", quality(enTest, none, t), true));
      rows.add(row(md, "terms", t, "FaQuAD (test)", quality(ptTest, none, t), true));
    }
    rows.add(row(md, "each alone", 2, "SQuAD (test)", quality(enTest, none, 2), false));
    rows.add(row(md, "each alone", 2, "FaQuAD (test)", quality(ptTest, none, 2), false));
    rows.add(row(md, "one group", -1, "SQuAD (test)", quality(enTest, none, -1), false));
    rows.add(row(md, "one group", -1, "FaQuAD (test)", quality(ptTest, none, -1), false));
    md.append('\n');
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("bestVectorThreshold", vBest);
    m.put("bestTermThreshold", tBest);
    m.put("sets", Map.of("squadFit", enFit.size(), "squadTest", enTest.size(), "faquadFit", ptFit.size(), "faquadTest", ptTest.size()));
    m.put("rows", rows);
    return m;
  }

  private static Map<String, Object> row(StringBuilder md, String sim, double t, String data, Quality q,
      boolean mark) {
    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.3f | %.3f | %s |%n", sim, t < 0 || t > 1 ? "" : String.format(Locale.ROOT, "%.2f", t),
        data, q.precision(), q.recall(), String.format(Locale.ROOT, mark ? "**%.3f**" : "%.3f", q.f1())));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("similarity", sim);
    m.put("threshold", t);
    m.put("data", data);
    m.put("precision", q.precision());
    m.put("recall", q.recall());
    m.put("f1", q.f1());
    return m;
  }
}
