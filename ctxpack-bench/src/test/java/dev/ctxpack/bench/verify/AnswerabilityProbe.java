package dev.ctxpack.bench.verify;

import dev.ctxpack.bench.compress.CompressData;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.embed.TokenStates;
import dev.ctxpack.onnx.Embedders;
import dev.ctxpack.text.Terms;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Hand-run: can a model fitted here tell SQuAD 2.0's unanswerable questions from answerable ones
 * against their own paragraph (issue 24, part 4)? FIT half only, 5-fold cross-validation of a
 * logistic regression over what runs here: the compressor's calibrated best-sentence probability
 * (lexical and MiniLM models), token-level matches of the question's content tokens in MiniLM's
 * token states of the paragraph and of its best sentence, the question's terms absent from the
 * paragraph, and negation in the question. Prints each feature's AUC alone and the model's CV AUC
 * and mean accuracy over the two classes at a threshold chosen on the training folds.
 *
 * <pre>
 * java -cp ctxpack-bench/target/test-classes:ctxpack-bench/target/ctxpack-bench.jar \
 *     dev.ctxpack.bench.verify.AnswerabilityProbe ../shared/data 1000
 * </pre>
 */
public final class AnswerabilityProbe {
  static final String[] NAMES = {"p_lexical", "p_minilm", "tok_min_par", "tok_mean_par", "tok_low_par", "tok_2nd_par",
      "tok_min_best", "tok_mean_best", "absent_terms", "absent_stems", "negated"};

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
    int perClass = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    List<String[]> pos = new ArrayList<>(); // answerable: question, paragraph
    List<String[]> neg = new ArrayList<>();
    for (CompressData.Article a : CompressData.loadSquad(data.resolve("squad_v2_en/dev-v2.0.json"))) {
      if (CompressData.split(a.title()) != CompressData.Half.FIT) continue;
      for (CompressData.Paragraph p : a.paragraphs()) {
        for (CompressData.Qa q : p.questions()) {
          if (q.impossible()) neg.add(new String[] {q.question(), p.text()});
          else if (q.answers().stream().anyMatch(p.text()::contains)) pos.add(new String[] {q.question(), p.text()});
        }
      }
    }
    Collections.shuffle(pos, new Random(42));
    Collections.shuffle(neg, new Random(43));
    pos = pos.subList(0, Math.min(perClass, pos.size()));
    neg = neg.subList(0, Math.min(perClass, neg.size()));
    Embedder minilm = new CachingEmbedder(Embedders.byName("minilm"), 200_000);
    ExtractiveCompressor lexical = ExtractiveCompressor.defaults(SentenceVectors.none());
    ExtractiveCompressor vectors = ExtractiveCompressor.defaults(SentenceVectors.embedder(minilm));
    List<double[]> x = new ArrayList<>();
    List<Integer> y = new ArrayList<>();
    long t0 = System.nanoTime();
    for (int cls = 0; cls < 2; cls++) {
      for (String[] c : cls == 0 ? pos : neg) {
        x.add(features(c[0], c[1], lexical, vectors, minilm));
        y.add(cls); // 1 = unanswerable
      }
    }
    System.out.printf(Locale.ROOT, "%d answerable, %d unanswerable (FIT), features in %.0f s%n", pos.size(), neg.size(),
        (System.nanoTime() - t0) / 1e9);
    for (int f = 0; f < NAMES.length; f++) {
      double[] s = new double[x.size()];
      for (int i = 0; i < s.length; i++) s[i] = x.get(i)[f];
      double auc = auc(s, y);
      System.out.printf(Locale.ROOT, "  %-14s AUC %.3f%n", NAMES[f], Math.max(auc, 1 - auc));
    }
    crossValidate(x, y);
  }

  static double[] features(String q, String par, ExtractiveCompressor lexical, ExtractiveCompressor vectors, Embedder e)
      throws Exception {
    List<CompressInput> in = List.of(CompressInput.of("P", par));
    CompressOptions probe = CompressOptions.threshold(1).withRelative(0.1);
    ExtractiveCompressor.Gate gl = lexical.gate(q, in, probe);
    ExtractiveCompressor.Gate gv = vectors.gate(q, in, probe);
    double pl = gl.sentence() == null ? 0 : gl.best();
    double pv = gv.sentence() == null ? 0 : gv.best();
    TokenStates qs = e.tokenStates(q);
    TokenStates ps = e.tokenStates(par);
    String best = gv.sentence() == null ? par : gv.sentence().text();
    TokenStates bs = e.tokenStates(best);
    double[] mPar = maxSims(qs, ps);
    double[] mBest = maxSims(qs, bs);
    double[] sorted = mPar.clone();
    Arrays.sort(sorted);
    double low = 0;
    for (double m : mPar) if (m < 0.6) low++;
    Set<String> parTerms = new HashSet<>(Terms.content(par));
    Set<String> parStems = new HashSet<>();
    for (String t : parTerms) parStems.add(t.length() > 5 ? t.substring(0, 5) : t);
    List<String> qTerms = Terms.content(q);
    double absent = 0;
    double absentStem = 0;
    for (String t : qTerms) {
      if (!parTerms.contains(t)) absent++;
      if (!parStems.contains(t.length() > 5 ? t.substring(0, 5) : t)) absentStem++;
    }
    String lq = " " + q.toLowerCase(Locale.ROOT) + " ";
    boolean negated = lq.contains(" not ") || lq.contains("n't ") || lq.contains(" never ") || lq.contains(" no ");
    int n = Math.max(1, mPar.length);
    return new double[] {pl, pv, sorted.length == 0 ? 0 : sorted[0], mean(mPar), low / n,
        sorted.length > 1 ? sorted[1] : sorted.length == 0 ? 0 : sorted[0], min(mBest), mean(mBest),
        qTerms.isEmpty() ? 0 : absent / qTerms.size(), qTerms.isEmpty() ? 0 : absentStem / qTerms.size(), negated ? 1 : 0};
  }

  /** For each content token of {@code q}, its best cosine to a content token of {@code t}. */
  static double[] maxSims(TokenStates q, TokenStates t) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < q.size(); i++) {
      if (!q.content()[i]) continue;
      double best = 0;
      for (int j = 0; j < t.size(); j++) {
        if (!t.content()[j]) continue;
        best = Math.max(best, cos(q.vectors()[i], t.vectors()[j]));
      }
      out.add(best);
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static double cos(float[] a, float[] b) {
    double d = 0, na = 0, nb = 0;
    for (int i = 0; i < a.length; i++) {
      d += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return d / Math.sqrt(na * nb + 1e-12);
  }

  static double mean(double[] v) {
    return v.length == 0 ? 0 : Arrays.stream(v).average().orElse(0);
  }

  static double min(double[] v) {
    return v.length == 0 ? 0 : Arrays.stream(v).min().orElse(0);
  }

  /** AUC of scores for label 1 over label 0. */
  static double auc(double[] s, List<Integer> y) {
    Integer[] idx = new Integer[s.length];
    for (int i = 0; i < idx.length; i++) idx[i] = i;
    Arrays.sort(idx, (a, b) -> Double.compare(s[a], s[b]));
    double rankSum = 0;
    long n1 = 0;
    int i = 0;
    while (i < idx.length) {
      int j = i;
      while (j + 1 < idx.length && s[idx[j + 1]] == s[idx[i]]) j++;
      double rank = (i + j) / 2.0 + 1;
      for (int k = i; k <= j; k++) if (y.get(idx[k]) == 1) {
        rankSum += rank;
        n1++;
      }
      i = j + 1;
    }
    long n0 = s.length - n1;
    return (rankSum - n1 * (n1 + 1) / 2.0) / (n1 * (double) n0);
  }

  static void crossValidate(List<double[]> x, List<Integer> y) {
    int n = x.size();
    int d = x.get(0).length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) order[i] = i;
    Collections.shuffle(Arrays.asList(order), new Random(7));
    double[] out = new double[n];
    double accSum = 0;
    double[] classAcc = new double[2];
    for (int fold = 0; fold < 5; fold++) {
      List<Integer> train = new ArrayList<>();
      List<Integer> test = new ArrayList<>();
      for (int k = 0; k < n; k++) (k % 5 == fold ? test : train).add(order[k]);
      double[] mu = new double[d];
      double[] sd = new double[d];
      for (int i : train) for (int f = 0; f < d; f++) mu[f] += x.get(i)[f] / train.size();
      for (int i : train) for (int f = 0; f < d; f++) sd[f] += Math.pow(x.get(i)[f] - mu[f], 2) / train.size();
      for (int f = 0; f < d; f++) sd[f] = Math.sqrt(sd[f]) + 1e-9;
      double[] w = new double[d + 1];
      for (int it = 0; it < 3000; it++) {
        double[] g = new double[d + 1];
        for (int i : train) {
          double z = w[d];
          for (int f = 0; f < d; f++) z += w[f] * (x.get(i)[f] - mu[f]) / sd[f];
          double err = 1 / (1 + Math.exp(-z)) - y.get(i);
          for (int f = 0; f < d; f++) g[f] += err * (x.get(i)[f] - mu[f]) / sd[f];
          g[d] += err;
        }
        for (int f = 0; f <= d; f++) w[f] -= 0.5 * (g[f] / train.size() + (f < d ? 1e-3 * w[f] : 0));
      }
      double[] trainScore = new double[train.size()];
      List<Integer> trainY = new ArrayList<>();
      for (int k = 0; k < train.size(); k++) {
        trainScore[k] = score(w, x.get(train.get(k)), mu, sd);
        trainY.add(y.get(train.get(k)));
      }
      double threshold = bestThreshold(trainScore, trainY);
      int[] right = new int[2];
      int[] count = new int[2];
      for (int i : test) {
        out[i] = score(w, x.get(i), mu, sd);
        count[y.get(i)]++;
        if ((out[i] >= threshold ? 1 : 0) == y.get(i)) right[y.get(i)]++;
      }
      accSum += (right[0] / (double) count[0] + right[1] / (double) count[1]) / 2;
      classAcc[0] += right[0] / (double) count[0] / 5;
      classAcc[1] += right[1] / (double) count[1] / 5;
      if (fold == 0) {
        StringBuilder sb = new StringBuilder("  weights (fold 1, standardised):");
        for (int f = 0; f < d; f++) sb.append(String.format(Locale.ROOT, " %s %.2f", NAMES[f], w[f]));
        System.out.println(sb);
      }
    }
    System.out.printf(Locale.ROOT, "logistic regression, 5-fold CV: AUC %.3f, mean accuracy over the two classes %.1f %%"
        + " (answerable judged answerable %.1f %%, unanswerable judged unanswerable %.1f %%)%n",
        auc(out, y), 100 * accSum / 5, 100 * classAcc[0], 100 * classAcc[1]);
  }

  static double score(double[] w, double[] x, double[] mu, double[] sd) {
    double z = w[w.length - 1];
    for (int f = 0; f < x.length; f++) z += w[f] * (x[f] - mu[f]) / sd[f];
    return z;
  }

  /** The threshold with the best mean accuracy over the two classes. */
  static double bestThreshold(double[] s, List<Integer> y) {
    double[] sorted = s.clone();
    Arrays.sort(sorted);
    double best = sorted[0];
    double bestAcc = -1;
    int n1 = 0;
    for (int v : y) n1 += v;
    int n0 = y.size() - n1;
    for (int k = 0; k < sorted.length; k += Math.max(1, sorted.length / 400)) {
      double t = sorted[k];
      int r0 = 0;
      int r1 = 0;
      for (int i = 0; i < s.length; i++) {
        if (y.get(i) == 1 && s[i] >= t) r1++;
        if (y.get(i) == 0 && s[i] < t) r0++;
      }
      double acc = (r0 / (double) n0 + r1 / (double) n1) / 2;
      if (acc > bestAcc) {
        bestAcc = acc;
        best = t;
      }
    }
    return best;
  }
}
