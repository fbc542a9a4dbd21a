package dev.ctxpack.bench.compress;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.FeatureSentenceScorer;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.onnx.Embedders;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Hand-run: does token-level MaxSim over MiniLM's token states add to the sentence model (CV on FIT)? */
public final class MaxSimProbe {
  static OrtEnvironment env;
  static OrtSession session;
  static HuggingFaceTokenizer tok;
  static final Map<String, Object[]> cache = new HashMap<>();

  /** [states float[][] unit rows, CharSpan[] spans, long[] ids]. */
  static Object[] encode(String text) throws Exception {
    Object[] c = cache.get(text);
    if (c != null) return c;
    Encoding enc = tok.encode(text);
    long[] ids = enc.getIds();
    long[] shape = {1, ids.length};
    float[][] states;
    try (OnnxTensor a = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
        OnnxTensor b = OnnxTensor.createTensor(env, LongBuffer.wrap(enc.getAttentionMask()), shape);
        OnnxTensor t = OnnxTensor.createTensor(env, LongBuffer.wrap(enc.getTypeIds()), shape);
        OrtSession.Result res = session.run(Map.of("input_ids", a, "attention_mask", b, "token_type_ids", t))) {
      states = ((float[][][]) res.get(0).getValue())[0];
    }
    for (float[] s : states) {
      double n = 0;
      for (float x : s) n += x * x;
      n = Math.sqrt(n);
      for (int i = 0; i < s.length; i++) s[i] /= n;
    }
    c = new Object[] {states, enc.getCharTokenSpans(), ids, enc.getTokens()};
    cache.put(text, c);
    return c;
  }

  static boolean content(String token) {
    return token.chars().anyMatch(Character::isLetterOrDigit) && !token.equals("[CLS]") && !token.equals("[SEP]");
  }

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
    int max = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
    ClassLoader l = dev.ctxpack.onnx.MiniLmEmbedder.class.getClassLoader();
    env = OrtEnvironment.getEnvironment();
    try (OrtSession.SessionOptions o = new OrtSession.SessionOptions()) {
      o.setIntraOpNumThreads(2);
      session = env.createSession(l.getResourceAsStream("all-minilm-l6-v2-q.onnx").readAllBytes(), o);
    }
    try (InputStream tj = l.getResourceAsStream("all-minilm-l6-v2-q-tokenizer.json")) {
      tok = HuggingFaceTokenizer.newInstance(tj, Map.of("padding", "false", "maxLength", "512", "truncation", "true"));
    }
    var embedder = new CachingEmbedder(Embedders.byName("minilm"), 200_000);
    FeatureSentenceScorer features = FeatureSentenceScorer.defaults(SentenceVectors.embedder(embedder, "", ""));
    ExtractiveCompressor seg = ExtractiveCompressor.builder().scorer(features).build();
    List<FitCompressor.Group> base = new ArrayList<>();
    List<FitCompressor.Group> plus = new ArrayList<>();
    long t0 = System.nanoTime();
    int extra = 12;
    for (CompressData.Case c : CompressData.cases(CompressData.loadSquad(data.resolve("squad_v2_en/dev-v2.0.json")),
        CompressData.Half.FIT, true, max, FitCompressor.SEED)) {
      List<Sentence> sentences = seg.sentences(c.inputs());
      boolean[] pos = new boolean[sentences.size()];
      boolean any = false;
      for (int i = 0; i < pos.length; i++) {
        for (String ans : c.answers()) if (sentences.get(i).text().contains(ans)) pos[i] = true;
        any |= pos[i];
      }
      if (!any) continue;
      double[][] x = features.features(c.question(), c.inputs(), sentences, true);
      base.add(new FitCompressor.Group(x, pos));
      Object[] q = encode(c.question());
      float[][] qs = (float[][]) q[0];
      String[] qt = (String[]) q[3];
      double[][] ext = new double[sentences.size()][extra];
      List<List<float[]>> lateTokens = new ArrayList<>();
      double[] idfq = new double[qs.length];
      {
        // per query piece: 1 - the mean, over the request's paragraphs' tokens, of cos to it (rare meaning -> weight high)
        java.util.Set<String> seen = new java.util.HashSet<>();
        int np = 0;
        for (CompressInput in : c.inputs()) {
          for (CompressInput.Part part : in.parts()) {
            if (!seen.add(part.text())) continue;
            float[][] ps = (float[][]) encode(part.text())[0];
            for (int a = 0; a < qs.length; a++) {
              double bm = -1;
              for (float[] v : ps) bm = Math.max(bm, dot(qs[a], v));
              idfq[a] += bm;
            }
            np++;
          }
        }
        for (int a = 0; a < qs.length; a++) idfq[a] = Math.max(0.05, 1 - idfq[a] / np);
      }
      for (int i = 0; i < sentences.size(); i++) {
        Sentence s = sentences.get(i);
        CompressInput in = c.inputs().get(s.input());
        String ptext = in.parts().get(s.part()).text();
        Object[] p = encode(ptext);
        float[][] ps = (float[][]) p[0];
        CharSpan[] spans = (CharSpan[]) p[1];
        Object[] alone = encode(s.text());
        float[][] as = (float[][]) alone[0];
        String[] at = (String[]) alone[3];
        // late: tokens of the paragraph pass inside the sentence span
        List<float[]> late = new ArrayList<>();
        for (int t = 0; t < spans.length; t++) {
          if (spans[t] == null) continue;
          if (spans[t].getStart() >= s.start() && spans[t].getStart() < s.end()) late.add(ps[t]);
        }
        List<float[]> al = new ArrayList<>();
        for (int t = 0; t < as.length; t++) if (content(at[t])) al.add(as[t]);
        double mLate = 0, mAlone = 0, mLateAll = 0;
        int nq = 0, nqa = 0;
        for (int a = 0; a < qs.length; a++) {
          double bl = late.isEmpty() ? 0 : -1, ba = al.isEmpty() ? 0 : -1;
          for (float[] v : late) bl = Math.max(bl, dot(qs[a], v));
          for (float[] v : al) ba = Math.max(ba, dot(qs[a], v));
          mLateAll += bl;
          nqa++;
          if (!content(qt[a])) continue;
          mLate += bl;
          mAlone += ba;
          nq++;
        }
        ext[i][0] = nq == 0 ? 0 : mLate / nq;
        ext[i][1] = nq == 0 ? 0 : mAlone / nq;
        ext[i][2] = mLateAll / Math.max(1, nqa);
        lateTokens.add(late);
      }
      // idf of query pieces over the request's sentences (a piece "occurs" in a sentence when some token state is its id)
      // window: the late tokens of the sentence and its neighbours in the same part
      for (int i = 0; i < sentences.size(); i++) {
        List<float[]> win = new ArrayList<>(lateTokens.get(i));
        for (int j : new int[] {i - 1, i + 1}) {
          if (j < 0 || j >= sentences.size()) continue;
          if (sentences.get(j).input() != sentences.get(i).input() || sentences.get(j).part() != sentences.get(i).part()) continue;
          win.addAll(lateTokens.get(j));
        }
        double mw = 0, mi = 0, wsum = 0, top = 0;
        int nq = 0;
        double[] best = new double[qs.length];
        for (int a = 0; a < qs.length; a++) {
          if (!content(qt[a])) continue;
          double bw = win.isEmpty() ? 0 : -1, bl = lateTokens.get(i).isEmpty() ? 0 : -1;
          for (float[] v : win) bw = Math.max(bw, dot(qs[a], v));
          for (float[] v : lateTokens.get(i)) bl = Math.max(bl, dot(qs[a], v));
          mw += bw;
          // weight: how rare the query piece's best match is across the request: 1 - mean over sentences of their max
          double w = idfq[a];
          mi += w * bl;
          wsum += w;
          top += bl > 0.8 ? 1 : 0;
          nq++;
        }
        ext[i][6] = nq == 0 ? 0 : mw / nq;
        ext[i][7] = wsum == 0 ? 0 : mi / wsum;
        ext[i][8] = nq == 0 ? 0 : top / nq;
      }
      double[] best = new double[3];
      java.util.Arrays.fill(best, -9);
      for (double[] e : ext) for (int k = 0; k < 3; k++) best[k] = Math.max(best[k], e[k]);
      for (double[] e : ext) for (int k = 0; k < 3; k++) e[k + 3] = e[k] - best[k];
      double[] best2 = new double[3];
      java.util.Arrays.fill(best2, -9);
      for (double[] e : ext) for (int k = 0; k < 3; k++) best2[k] = Math.max(best2[k], e[k + 6]);
      for (double[] e : ext) for (int k = 0; k < 3; k++) e[k + 9] = e[k + 6] - best2[k];
      double[][] y = new double[x.length][];
      for (int i = 0; i < x.length; i++) {
        y[i] = java.util.Arrays.copyOf(x[i], x[i].length + extra);
        System.arraycopy(ext[i], 0, y[i], x[i].length, extra);
      }
      plus.add(new FitCompressor.Group(y, pos));
    }
    System.out.printf(Locale.ROOT, "%d questions, %.1f s, %d encodings%n", base.size(), (System.nanoTime() - t0) / 1e9, cache.size());
    int d = base.get(0).x()[0].length;
    for (int k = 0; k < extra; k++) System.out.printf(Locale.ROOT, "ext %d alone MRR %.4f%n", k, FitCompressor.single(plus, d + k));
    int[][] subsets = {{}, {0, 3}, {1, 4}, {0, 3, 6, 9}, {7, 10}, {0, 3, 7, 10}, {0, 3, 8, 11}, {0, 3, 6, 7, 8, 9, 10, 11}, {0, 1, 3, 4, 6, 7, 9, 10}};
    for (double lambda : new double[] {1e-4, 1e-3}) {
      System.out.printf(Locale.ROOT, "lambda %s base CV MRR %.4f top1 %.3f%n", lambda, FitCompressor.crossValidate(base, lambda), top1(base, lambda));
      for (int[] sub : subsets) {
        if (sub.length == 0) continue;
        List<FitCompressor.Group> g = select(plus, d, sub);
        System.out.printf(Locale.ROOT, "lambda %s +%s CV MRR %.4f top1 %.3f%n", lambda, java.util.Arrays.toString(sub),
            FitCompressor.crossValidate(g, lambda), top1(g, lambda));
      }
    }
  }

  static List<FitCompressor.Group> select(List<FitCompressor.Group> plus, int d, int[] sub) {
    List<FitCompressor.Group> out = new ArrayList<>();
    for (FitCompressor.Group g : plus) {
      double[][] y = new double[g.x().length][];
      for (int i = 0; i < y.length; i++) {
        y[i] = java.util.Arrays.copyOf(g.x()[i], d + sub.length);
        for (int k = 0; k < sub.length; k++) y[i][d + k] = g.x()[i][d + sub[k]];
      }
      out.add(new FitCompressor.Group(y, g.positive()));
    }
    return out;
  }

  /** CV share ranked first (5 folds, same shuffle as crossValidate). */
  static double top1(List<FitCompressor.Group> groups, double lambda) {
    List<FitCompressor.Group> copy = new ArrayList<>(groups);
    java.util.Collections.shuffle(copy, new java.util.Random(42));
    int top = 0;
    for (int fold = 0; fold < 5; fold++) {
      List<FitCompressor.Group> train = new ArrayList<>();
      for (int i = 0; i < copy.size(); i++) if (i % 5 != fold) train.add(copy.get(i));
      FitCompressor.Model m = FitCompressor.fit(train, lambda);
      for (int i = fold; i < copy.size(); i += 5) {
        FitCompressor.Group g = copy.get(i);
        double[] s = new double[g.x().length];
        for (int j = 0; j < s.length; j++) s[j] = m.linear(g.x()[j]);
        if (FitCompressor.reciprocalRank(s, g.positive()) == 1) top++;
      }
    }
    return top / (double) copy.size();
  }

  static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }
}
