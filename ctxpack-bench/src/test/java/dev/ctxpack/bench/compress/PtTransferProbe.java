package dev.ctxpack.bench.compress;

import dev.ctxpack.bench.data.AssinLoader;
import dev.ctxpack.bench.data.TextPair;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.FeatureSentenceScorer;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceVectors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Hand-run: how the lexical sentence model transfers between sources (FaQuAD, ASSIN, SQuAD lexical). */
public final class PtTransferProbe {
  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
    FeatureSentenceScorer features = FeatureSentenceScorer.defaults(SentenceVectors.none());
    ExtractiveCompressor seg = ExtractiveCompressor.builder().scorer(features).build();
    Map<String, List<FitCompressor.Group>> fit = new LinkedHashMap<>();
    Map<String, List<FitCompressor.Group>> rep = new LinkedHashMap<>();
    for (CompressData.Half h : CompressData.Half.values()) {
      var m = h == CompressData.Half.FIT ? fit : rep;
      m.put("faquad", squad(data.resolve("faquad/train.json"), h, features, seg));
      m.put("assin", assin(data.resolve("assin"), h, features, seg));
      m.put("squad", squad(data.resolve("squad_v2_en/dev-v2.0.json"), h, features, seg));
    }
    for (var e : fit.entrySet()) System.out.printf("FIT %s %d, REPORT %d%n", e.getKey(), e.getValue().size(), rep.get(e.getKey()).size());
    String[][] recipes = {{"faquad"}, {"squad"}, {"assin"}, {"faquad", "squad"}, {"faquad", "assin"}, {"faquad", "squad", "assin"}};
    for (double lambda : FitCompressor.LAMBDAS) {
      for (String[] r : recipes) {
        List<FitCompressor.Group> train = new ArrayList<>();
        for (String s : r) train.addAll(fit.get(s));
        FitCompressor.Model m = FitCompressor.fit(train, lambda);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "lambda %-6s %-22s", lambda, String.join("+", r)));
        for (String s : fit.keySet()) {
          sb.append(String.format(Locale.ROOT, " %s FIT %.4f/%.3f REP %.4f/%.3f", s, mrr(m, fit.get(s))[0], mrr(m, fit.get(s))[1],
              mrr(m, rep.get(s))[0], mrr(m, rep.get(s))[1]));
        }
        System.out.println(sb);
      }
    }
    for (String s : fit.keySet()) {
      System.out.printf(Locale.ROOT, "bm25_rel alone %s FIT %.4f REP %.4f%n", s, FitCompressor.single(fit.get(s), 0), FitCompressor.single(rep.get(s), 0));
    }
  }

  static double[] mrr(FitCompressor.Model m, List<FitCompressor.Group> gs) {
    double sum = 0;
    int top = 0;
    for (FitCompressor.Group g : gs) {
      double[] s = new double[g.x().length];
      for (int i = 0; i < s.length; i++) s[i] = m.linear(g.x()[i]);
      double rr = FitCompressor.reciprocalRank(s, g.positive());
      sum += rr;
      if (rr == 1) top++;
    }
    return new double[] {sum / gs.size(), top / (double) gs.size()};
  }

  static List<FitCompressor.Group> squad(Path file, CompressData.Half half, FeatureSentenceScorer f, ExtractiveCompressor seg) throws Exception {
    return FitCompressor.groups(file, half, 3000, f, seg, false);
  }

  /** ASSIN: blocks of 10 consecutive pairs of a file are an "article"; an entailing pair's h is the query, the block's t's the inputs. */
  static List<FitCompressor.Group> assin(Path dir, CompressData.Half half, FeatureSentenceScorer f, ExtractiveCompressor seg) throws Exception {
    List<FitCompressor.Group> out = new ArrayList<>();
    List<TextPair> all = AssinLoader.loadAll(dir);
    Map<String, List<TextPair>> blocks = new LinkedHashMap<>();
    for (TextPair p : all) {
      int id = Integer.parseInt(p.id().substring(p.id().indexOf(':') + 1));
      blocks.computeIfAbsent(p.set() + ":" + ((id - 1) / 10), k -> new ArrayList<>()).add(p);
    }
    for (var e : blocks.entrySet()) {
      if (CompressData.split(e.getKey()) != half) continue;
      List<TextPair> b = e.getValue();
      for (int q = 0; q < b.size(); q++) {
        if (b.get(q).label().equals("None")) continue;
        List<CompressInput> inputs = new ArrayList<>();
        for (int i = 0; i < b.size(); i++) inputs.add(CompressInput.of("t" + i, b.get(i).a()));
        List<Sentence> sentences = seg.sentences(inputs);
        boolean[] pos = new boolean[sentences.size()];
        boolean any = false;
        for (int i = 0; i < pos.length; i++) {
          pos[i] = sentences.get(i).input() == q;
          any |= pos[i];
        }
        if (any) out.add(new FitCompressor.Group(f.features(b.get(q).b(), inputs, sentences, false), pos));
      }
    }
    return out;
  }
}
