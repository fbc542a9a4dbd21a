package dev.ctxpack.bench.compress;

import dev.ctxpack.bench.rerank.LogisticFit;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.FeatureSentenceScorer;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceFeatures;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.onnx.Embedders;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Fits {@link FeatureSentenceScorer}'s models and writes them as its properties resource.
 *
 * <p>Training data: the FIT half ({@link CompressData#split}) of SQuAD 2.0 dev (English,
 * answerable questions), of WikiQA dev (English) and of FaQuAD train (Portuguese); the REPORT
 * halves, on which the compression evaluation reports, are never read here. Each SQuAD or FaQuAD
 * question becomes the request the evaluation builds ({@link CompressData#cases}: its paragraph and
 * four others of its article, shuffled with a fixed seed); a sentence is positive when it holds one
 * of the question's answer strings. A WikiQA question's candidates are each their own input,
 * positive by their gold label. The Portuguese model ({@code pt.lexical}) is fitted on FaQuAD's FIT
 * questions and SQuAD's read lexically, pooled, its regularisation chosen by the mean of the two
 * sources' cross-validated MRR: lexical features mean the same in both languages, and one
 * Portuguese domain alone taught a model that transferred worse than BM25 to another Portuguese
 * source; its probability is calibrated on the FaQuAD sentences alone. Vectors: all-MiniLM-L6-v2 on the
 * fly, as {@code ctxpack compress} computes them; models are fitted with them (English) and without
 * them (English and Portuguese: MiniLM was not trained for Portuguese, and an index may hold no
 * vectors).
 *
 * <p>Fitting: pairwise L2 logistic regression ({@link LogisticFit}) on standardised features, one
 * model per language; the regularisation is chosen by 5-fold cross-validation by the mean
 * reciprocal rank of the first positive sentence. The model's score is then calibrated into a
 * probability by a one-feature pointwise logistic fit ({@link #calibrated}), and the on-topic line is
 * set where 90 % of the positive sentences of the training data lie above it. {@code --weights-from
 * FILE} keeps FILE's ranking models and refits only that calibration. Deterministic.
 */
@Command(name = "fit-compressor", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Fits the sentence scorer of query-aware compression on the FIT halves of SQuAD and FaQuAD.")
public final class FitCompressor implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--data", defaultValue = "../shared/data", description = "Data directory (default: ${DEFAULT-VALUE}).")
  Path data;

  @Option(names = "--out", description = "Where to write the properties (default: print them).")
  Path out;

  @Option(names = "--questions", defaultValue = "0", description = "At most this many questions per language (0: all).")
  int maxQuestions;

  @Option(names = "--folds", defaultValue = "5")
  int folds;

  @Option(names = "--embedder", defaultValue = "minilm", description = "Embedder spec for sentence vectors (default: ${DEFAULT-VALUE}).")
  String embedderSpec;

  @Option(names = "--query-prefix", defaultValue = "", description = "Text put before the query when embedding it.")
  String queryPrefix;

  @Option(names = "--passage-prefix", defaultValue = "", description = "Text put before each sentence when embedding it.")
  String passagePrefix;

  @Option(names = "--weights-from", description = "Keep the ranking models (weights, means, scales) of this properties file "
      + "and refit only the calibration (a, b, onTopic) on the FIT data.")
  Path weightsFrom;

  @Option(names = "--refit", split = ",", description = "With --weights-from: fit only these models (en, en.tokens, en.lexical, pt.lexical, pt.lexical.tokens) "
      + "anew, ranking and calibration, and copy the others verbatim with their record.")
  List<String> refit = List.of();

  static final double[] LAMBDAS = {1e-4, 1e-3, 1e-2, 1e-1, 1};
  /** The models fitted, by their prefix in the properties file. */
  static final List<String> MODELS = List.of("en", "en.tokens", "en.lexical", "pt.lexical", "pt.lexical.tokens");

  /** The scorer's key of a model named as in {@link #MODELS}. */
  static FeatureSentenceScorer.Key key(String model) {
    return new FeatureSentenceScorer.Key(model.startsWith("pt") ? dev.ctxpack.model.Language.PT : dev.ctxpack.model.Language.EN,
        !model.contains("lexical"), model.endsWith("tokens"));
  }
  static final long SEED = 7;

  record Group(double[][] x, boolean[] positive) {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new FitCompressor()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    PrintStream log = System.err;
    if (!refit.isEmpty() && weightsFrom == null) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--refit needs --weights-from (the models to keep)");
    }
    for (String r : refit) {
      if (!MODELS.contains(r)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--refit: unknown model '" + r + "' (" + String.join(", ", MODELS) + ")");
      }
    }
    Embedder embedder = new CachingEmbedder(Embedders.byName(embedderSpec), 200_000);
    FeatureSentenceScorer features =
        FeatureSentenceScorer.defaults(SentenceVectors.embedder(embedder, queryPrefix, passagePrefix));
    ExtractiveCompressor segmenter = ExtractiveCompressor.builder().scorer(features).build();
    List<String> header = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    Map<FeatureSentenceScorer.Key, FeatureSentenceScorer.Model> kept = null;
    if (weightsFrom != null) {
      java.util.Properties p = new java.util.Properties();
      try (var r = Files.newBufferedReader(weightsFrom, StandardCharsets.ISO_8859_1)) {
        p.load(r);
      }
      kept = FeatureSentenceScorer.parse(p);
      header.addAll(keptRecord(Files.readAllLines(weightsFrom, StandardCharsets.ISO_8859_1), refit));
      if (refit.isEmpty()) {
        header.add("ranking models kept from the previous fit; calibration (a, b, onTopic) refitted by FitCompressor --weights-from");
      }
    }
    for (String key : MODELS) {
      if (kept != null && !refit.isEmpty() && !refit.contains(key)) {
        FeatureSentenceScorer.Model k = kept.get(key(key));
        if (k == null) throw new IllegalArgumentException("--weights-from " + weightsFrom + " has no model " + key);
        body.append(new Model(k.weight(), k.mean(), k.scale(), k.a(), k.b(), k.onTopic()).write(key));
        continue;
      }
      String lang = key.substring(0, 2);
      boolean withVectors = !key.contains("lexical");
      boolean withTokens = key.endsWith("tokens");
      Path file = lang.equals("en") ? data.resolve("squad_v2_en/dev-v2.0.json") : data.resolve("faquad/train.json");
      List<Group> groups = groups(file, features, segmenter, withVectors, withTokens);
      int wiki = 0;
      int squadLexical = 0;
      List<List<Group>> sources = new ArrayList<>();
      if (lang.equals("en")) {
        List<Group> w = wikiQa(data.resolve("wikiqa/WikiQA-dev.tsv"), features, withVectors, withTokens);
        wiki = w.size();
        groups.addAll(w);
        sources.add(groups);
      } else {
        // The Portuguese model reads lexical features only, which mean the same in either language:
        // it is fitted on FaQuAD (one domain) and SQuAD's English questions read lexically (another),
        // so that it does not learn one site's layout (docs/BENCHMARKS.md, "Portuguese at parity").
        sources.add(new ArrayList<>(groups));
        List<Group> squad = groups(data.resolve("squad_v2_en/dev-v2.0.json"), features, segmenter, false, withTokens);
        squadLexical = squad.size();
        sources.add(squad);
        groups.addAll(squad);
      }
      log.printf(Locale.ROOT, "%s: %d training questions from the FIT half of %s%n", key, groups.size(), file);
      if (kept != null && refit.isEmpty()) {
        FeatureSentenceScorer.Model k = kept.get(key(key));
        if (k == null) throw new IllegalArgumentException("--weights-from " + weightsFrom + " has no model " + key);
        body.append(calibrated(new Model(k.weight(), k.mean(), k.scale(), 1, 0, 0), groups).write(key));
        continue;
      }
      header.add(key + ": " + (groups.size() - wiki - squadLexical) + " questions of the FIT half of " + data.relativize(file)
          + (wiki > 0 ? " and " + wiki + " of the FIT half of wikiqa/WikiQA-dev.tsv" : "")
          + (squadLexical > 0 ? " and " + squadLexical + " of the FIT half of squad_v2_en/dev-v2.0.json (" + (withTokens ? "lexical and token" : "lexical") + " features)" : "")
          + "; CV (" + folds + " folds) MRR of the first answer sentence" + (sources.size() > 1 ? ", the mean of each source's:" : ":"));
      double bestMrr = -1;
      double bestLambda = LAMBDAS[0];
      for (double lambda : LAMBDAS) {
        double mrr = crossValidatePooled(sources, lambda);
        header.add(String.format(Locale.ROOT, "  lambda %-7s MRR %.4f", lambda, mrr));
        log.printf(Locale.ROOT, "  %s lambda %s: CV MRR %.4f%n", key, lambda, mrr);
        if (mrr > bestMrr + 1e-9) {
          bestMrr = mrr;
          bestLambda = lambda;
        }
      }
      header.add(String.format(Locale.ROOT, "  chosen: lambda %s; baselines on the same questions: bm25_rel alone MRR %.4f%s",
          bestLambda, single(groups, 0),
          withVectors ? String.format(Locale.ROOT, ", dense alone MRR %.4f", single(groups, 5)) : ""));
      Model m = fit(groups, bestLambda);
      // The probability is calibrated on the model's own language only: a Portuguese sentence's p
      // must mean what it says on Portuguese requests, whatever the ranking was fitted on.
      if (sources.size() > 1) m = calibrated(m, sources.get(0));
      body.append(m.write(key));
    }
    StringBuilder text = new StringBuilder();
    text.append("# FeatureSentenceScorer models: p = sigmoid(a * sum_F weight.F * (F - mean.F) / scale.F + b)\n");
    text.append("# over dev.ctxpack.compress.SentenceFeatures. Written by:\n");
    text.append("#   java -cp ctxpack-bench/target/ctxpack-bench.jar dev.ctxpack.bench.compress.FitCompressor --data ../shared/data --out ctxpack-core/src/main/resources/dev/ctxpack/compress/sentence-scorer.properties")
        .append(weightsFrom == null ? "" : " --weights-from ctxpack-core/src/main/resources/dev/ctxpack/compress/sentence-scorer.properties")
        .append(refit.isEmpty() ? "" : " --refit " + String.join(",", refit)).append('\n');
    for (String h : header) text.append("# ").append(h).append('\n');
    text.append("version=v1\n").append(body);
    if (out == null) {
      System.out.print(text);
    } else {
      Files.writeString(out, text, StandardCharsets.UTF_8);
      log.println("wrote " + out);
    }
    return 0;
  }

  /**
   * The fit's record (cross-validation tables) of a properties file's header, without the lines
   * this class writes itself and without the blocks ("KEY: ..." and its indented lines) of the
   * models in {@code refit}, which are written anew: the record stays with the weights it describes.
   */
  static List<String> keptRecord(List<String> lines, List<String> refit) {
    List<String> out = new ArrayList<>();
    boolean skipping = false;
    for (String line : lines) {
      if (!line.startsWith("# ") || line.startsWith("# FeatureSentenceScorer models") || line.startsWith("# over ")
          || line.startsWith("#   java ") || line.startsWith("# ranking models kept")) continue;
      String h = line.substring(2);
      if (!h.startsWith("  ")) skipping = refit.contains(h.split(":", 2)[0]);
      if (!skipping) out.add(h);
    }
    return out;
  }

  List<Group> groups(Path file, FeatureSentenceScorer features, ExtractiveCompressor segmenter, boolean withVectors,
      boolean withTokens) throws IOException {
    List<Group> out = groups(file, CompressData.Half.FIT, 0, features, segmenter, withVectors, withTokens);
    if (maxQuestions > 0 && out.size() > maxQuestions) {
      java.util.Collections.shuffle(out, new Random(SEED));
      out = new ArrayList<>(out.subList(0, maxQuestions));
    }
    return out;
  }

  /**
   * The answerable questions of {@code half} of a SQuAD-format file (at most {@code max}, 0: all) as
   * the requests the evaluation builds, each sentence positive when it holds an answer string;
   * questions whose answer crosses a sentence boundary are left out.
   */
  static List<Group> groups(Path file, CompressData.Half half, int max, FeatureSentenceScorer features,
      ExtractiveCompressor segmenter, boolean withVectors) throws IOException {
    return groups(file, half, max, features, segmenter, withVectors, false);
  }

  /** As above, with the token-match features when {@code withTokens} (and the embedder gives token states). */
  static List<Group> groups(Path file, CompressData.Half half, int max, FeatureSentenceScorer features,
      ExtractiveCompressor segmenter, boolean withVectors, boolean withTokens) throws IOException {
    List<Group> out = new ArrayList<>();
    for (CompressData.Case c : CompressData.cases(CompressData.loadSquad(file), half, true, max, SEED)) {
      List<Sentence> sentences = segmenter.sentences(c.inputs());
      boolean[] pos = new boolean[sentences.size()];
      boolean any = false;
      for (int i = 0; i < pos.length; i++) {
        for (String ans : c.answers()) if (sentences.get(i).text().contains(ans)) pos[i] = true;
        any |= pos[i];
      }
      if (!any) continue; // the answer crosses a sentence boundary: no sentence holds it
      out.add(new Group(features.features(c.question(), c.inputs(), sentences, withVectors, withTokens), pos));
    }
    return out;
  }

  /**
   * The FIT half of WikiQA dev: each question's candidate sentences, each its own input (as the
   * evaluation ranks them), positive by the gold label.
   */
  List<Group> wikiQa(Path file, FeatureSentenceScorer features, boolean withVectors, boolean withTokens) throws IOException {
    List<Group> out = new ArrayList<>();
    for (CompressData.WikiQuestion q : CompressData.loadWikiQa(file)) {
      if (CompressData.split(q.id()) != CompressData.Half.FIT || !q.hasPositive()) continue;
      List<CompressInput> inputs = new ArrayList<>();
      for (int i = 0; i < q.sentences().size(); i++) inputs.add(CompressInput.of("s" + i, q.sentences().get(i)));
      List<Sentence> sentences = GreedySelector.wholeInputs(inputs);
      boolean[] pos = new boolean[sentences.size()];
      for (int i = 0; i < pos.length; i++) pos[i] = q.labels().get(i);
      out.add(new Group(features.features(q.question(), inputs, sentences, withVectors, withTokens), pos));
    }
    return out;
  }

  /** A fitted model in raw-feature terms. */
  record Model(double[] weight, double[] mean, double[] scale, double a, double b, double onTopic) {
    String write(String lang) {
      StringBuilder sb = new StringBuilder();
      for (int f = 0; f < weight.length; f++) {
        String n = SentenceFeatures.NAMES.get(f);
        sb.append(String.format(Locale.ROOT, "%s.weight.%s=%.6f%n%s.mean.%s=%.6f%n%s.scale.%s=%.6f%n",
            lang, n, weight[f], lang, n, mean[f], lang, n, scale[f]));
      }
      sb.append(String.format(Locale.ROOT, "%s.a=%.6f%n%s.b=%.6f%n%s.onTopic=%.6f%n", lang, a, lang, b, lang, onTopic));
      return sb.toString();
    }

    double linear(double[] x) {
      double s = 0;
      for (int f = 0; f < x.length; f++) s += weight[f] * (x[f] - mean[f]) / scale[f];
      return s;
    }
  }

  static Model fit(List<Group> groups, double lambda) {
    int d = groups.isEmpty() ? SentenceFeatures.NAMES.size() : groups.get(0).x()[0].length;
    double[] mean = new double[d];
    double[] scale = new double[d];
    long n = 0;
    for (Group g : groups) {
      for (double[] row : g.x()) {
        for (int f = 0; f < d; f++) mean[f] += row[f];
        n++;
      }
    }
    for (int f = 0; f < d; f++) mean[f] /= Math.max(1, n);
    for (Group g : groups) for (double[] row : g.x()) for (int f = 0; f < d; f++) scale[f] += (row[f] - mean[f]) * (row[f] - mean[f]);
    for (int f = 0; f < d; f++) {
      scale[f] = Math.sqrt(scale[f] / Math.max(1, n));
      if (!(scale[f] > 1e-12)) scale[f] = 1;
    }
    List<LogisticFit.Group> std = new ArrayList<>();
    for (Group g : groups) {
      double[][] x = new double[g.x().length][d];
      for (int i = 0; i < x.length; i++) for (int f = 0; f < d; f++) x[i][f] = (g.x()[i][f] - mean[f]) / scale[f];
      std.add(new LogisticFit.Group(x, g.positive()));
    }
    double[] w = LogisticFit.fit(std, d, LogisticFit.Loss.PAIRWISE, lambda);
    return calibrated(new Model(w, mean, scale, 1, 0, 0), groups);
  }

  /**
   * The calibration step: {@code raw}'s linear score z made a probability {@code p = sigmoid(a z +
   * b)}, and the on-topic line (the probability above which 90 % of the positive sentences lie).
   * Pointwise over every sentence of {@code groups}.
   */
  static Model calibrated(Model raw, List<Group> groups) {
    List<LogisticFit.Group> cal = new ArrayList<>();
    List<Double> positives = new ArrayList<>();
    for (Group g : groups) {
      double[][] z = new double[g.x().length][1];
      for (int i = 0; i < z.length; i++) {
        z[i][0] = raw.linear(g.x()[i]);
        if (g.positive()[i]) positives.add(z[i][0]);
      }
      cal.add(new LogisticFit.Group(z, g.positive()));
    }
    double[] ab = LogisticFit.fitWithIntercept(cal, 1, 1e-6);
    double a = ab[0];
    double b = ab[1];
    positives.sort(null);
    double z10 = positives.isEmpty() ? 0 : positives.get((int) Math.floor(positives.size() * 0.10));
    double onTopic = 1 / (1 + Math.exp(-(a * z10 + b)));
    return new Model(raw.weight(), raw.mean(), raw.scale(), a, b, onTopic);
  }

  static double crossValidate(List<Group> groups, double lambda) {
    return crossValidatePooled(List.of(groups), lambda);
  }

  /**
   * 5-fold cross-validated MRR over several sources pooled: each source is cut into its own folds
   * (one source's fold k is tested together with the others' fold k, trained on the rest of every
   * source), and the result is the mean of each source's MRR, so a small source counts as much as a
   * large one. One source: the plain cross-validated MRR.
   */
  static double crossValidatePooled(List<List<Group>> sources, double lambda) {
    List<List<Group>> shuffled = new ArrayList<>();
    for (List<Group> s : sources) {
      List<Group> copy = new ArrayList<>(s);
      java.util.Collections.shuffle(copy, new Random(42));
      shuffled.add(copy);
    }
    double[] sum = new double[sources.size()];
    int k = 5;
    for (int fold = 0; fold < k; fold++) {
      List<Group> train = new ArrayList<>();
      for (List<Group> s : shuffled) for (int i = 0; i < s.size(); i++) if (i % k != fold) train.add(s.get(i));
      Model m = fit(train, lambda);
      for (int src = 0; src < shuffled.size(); src++) {
        List<Group> s = shuffled.get(src);
        for (int i = fold; i < s.size(); i += k) {
          Group g = s.get(i);
          double[] score = new double[g.x().length];
          for (int j = 0; j < score.length; j++) score[j] = m.linear(g.x()[j]);
          sum[src] += reciprocalRank(score, g.positive());
        }
      }
    }
    double mean = 0;
    for (int src = 0; src < sum.length; src++) mean += sum[src] / Math.max(1, shuffled.get(src).size());
    return mean / sum.length;
  }

  /** MRR when ranking by one raw feature alone. */
  static double single(List<Group> groups, int feature) {
    double sum = 0;
    for (Group g : groups) {
      double[] s = new double[g.x().length];
      for (int i = 0; i < s.length; i++) s[i] = g.x()[i][feature];
      sum += reciprocalRank(s, g.positive());
    }
    return sum / Math.max(1, groups.size());
  }

  static double reciprocalRank(double[] score, boolean[] positive) {
    Integer[] order = new Integer[score.length];
    for (int i = 0; i < order.length; i++) order[i] = i;
    Arrays.sort(order, (x, y) -> score[y] != score[x] ? Double.compare(score[y], score[x]) : Integer.compare(x, y));
    for (int r = 0; r < order.length; r++) if (positive[order[r]]) return 1.0 / (r + 1);
    return 0;
  }
}
