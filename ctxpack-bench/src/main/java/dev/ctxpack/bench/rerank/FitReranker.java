package dev.ctxpack.bench.rerank;

import dev.ctxpack.bench.data.BeirLoader;
import dev.ctxpack.bench.data.Datasets;
import dev.ctxpack.bench.data.SciFactClaims;
import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.bench.pipeline.DocRankings;
import dev.ctxpack.eval.EvalReport;
import dev.ctxpack.eval.Evaluation;
import dev.ctxpack.eval.Judgments;
import dev.ctxpack.eval.Metric;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.rerank.RerankFeatures;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RrfFusion;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Fits the weights of {@link FeatureReranker} and writes them as its properties resource.
 *
 * <p>Training data: the SciFact training claims ({@code scifact/claims_train.jsonl}), each
 * retrieved by ctxpack hybrid search (RRF k = 60, {@code --signal-depth} candidates per signal,
 * the first {@code --k} fused chunks kept) over the SciFact corpus index in {@code --work-dir}
 * (the layout of the evaluation runner: {@code scifact-index}, built there when missing). A
 * candidate is relevant when its document is one the claim cites. Claims whose text is also a
 * SciFact test query are left out; the test judgments are never read.
 *
 * <p>Fitting: L2-regularised logistic regression ({@link LogisticFit}), pairwise and pointwise, on
 * standardised features, over the hybrid lists ({@code --train-lists}). The loss and the
 * regularisation are chosen by k-fold cross-validation over the training claims (folds from a
 * seeded shuffle): the held-out claims' document rankings are scored by nDCG@10 on their hybrid
 * lists and on their BM25-only lists (what hybrid search falls back to for a Portuguese query), and
 * the setting with the best mean of the two wins; it is then fitted on every training claim.
 * Deterministic for a given index.
 */
@Command(name = "fit-reranker", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Fits FeatureReranker's weights on SciFact training claims, choosing the regularisation by cross-validation.")
public final class FitReranker implements Callable<Integer> {
  static final List<Metric> METRICS = List.of(Metric.ndcg(10), Metric.recall(10), Metric.mrr(10));

  @Option(names = "--data", required = true, description = "The shared data folder (holds scifact/).")
  Path data;

  @Option(names = "--work-dir", required = true, description = "Where the SciFact index is (scifact-index), or is built.")
  Path workDir;

  @Option(names = "--out", description = "The properties file to write (default: print only).")
  Path out;

  @Option(names = "--k", description = "Fused chunks per claim, the list the reranker sees (default: ${DEFAULT-VALUE}).")
  int k = 40;

  @Option(names = "--signal-depth", description = "Candidates per signal before fusion (default: ${DEFAULT-VALUE}, as the evaluation's --depth).")
  int signalDepth = 100;

  @Option(names = "--folds", description = "Cross-validation folds (default: ${DEFAULT-VALUE}).")
  int folds = 5;

  @Option(names = "--seed", description = "Seed of the fold shuffle (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(names = "--lambdas", split = ",", description = "L2 strengths to try (default: 1e-4,1e-3,1e-2,0.1,1).")
  List<Double> lambdas = new ArrayList<>(List.of(1e-4, 1e-3, 1e-2, 0.1, 1.0));

  @Option(names = "--loss", split = ",", description = "Losses to try: pairwise, pointwise (default: both).")
  List<String> losses = new ArrayList<>(List.of("pairwise", "pointwise"));

  @Option(names = "--train-lists", split = ",", description = "Candidate lists fitted on: hybrid and/or bm25 (the lists of a query hybrid search runs as BM25, e.g. a Portuguese one); both are evaluated (default: hybrid).")
  List<String> trainLists = new ArrayList<>(List.of("hybrid"));

  @Option(names = "--drop", split = ",", description = "Features held at weight 0 (for ablations).")
  List<String> drop = new ArrayList<>();

  @Option(names = "--version", description = "The version the reranker's id names, features:<version> (default: ${DEFAULT-VALUE}).")
  String version = "v1";

  private final PrintStream log = System.out;
  private String[] args = new String[0];

  /** One training claim: its candidates, their features and labels, and its judgments. */
  record Query(String id, String text, List<Candidate> candidates, double[][] x, boolean[] relevant, Judgments judgments) {}

  /** A claim's two candidate lists: hybrid, and BM25 alone. */
  record Claim(Query hybrid, Query bm25) {}

  public static void main(String[] args) {
    FitReranker f = new FitReranker();
    f.args = args.clone();
    CommandLine cli = new CommandLine(f);
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("fit-reranker: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return e instanceof IllegalArgumentException ? 2 : 1;
    });
    System.exit(cli.execute(args));
  }

  @Override
  public Integer call() throws Exception {
    for (String d : drop) {
      if (!RerankFeatures.NAMES.contains(d)) throw new IllegalArgumentException("unknown feature '" + d + "': use " + RerankFeatures.NAMES);
    }
    List<LogisticFit.Loss> lossList = losses.stream().map(l -> LogisticFit.Loss.valueOf(l.trim().toUpperCase(Locale.ROOT))).toList();
    Path claimsFile = data.resolve("scifact/claims_train.jsonl");
    List<SciFactClaims.Claim> claims = SciFactClaims.load(claimsFile);
    Set<String> testTexts;
    try (Reader r = Files.newBufferedReader(data.resolve("scifact/beir_test/queries.jsonl"), StandardCharsets.UTF_8)) {
      testTexts = new HashSet<>(BeirLoader.readQueries(r, "queries.jsonl").values());
    }
    List<SciFactClaims.Claim> train = claims.stream()
        .filter(c -> !c.citedDocIds().isEmpty() && !testTexts.contains(c.text())).toList();
    log.printf(Locale.ROOT, "claims: %d in %s; %d used (%d without cited documents, %d whose text is also a test query left out)%n",
        claims.size(), claimsFile, train.size(), claims.stream().filter(c -> c.citedDocIds().isEmpty()).count(),
        claims.stream().filter(c -> testTexts.contains(c.text())).count());

    for (String l : trainLists) {
      if (!l.equals("hybrid") && !l.equals("bm25")) throw new IllegalArgumentException("--train-lists: use hybrid and/or bm25, not '" + l + "'");
    }
    List<Claim> queries = new ArrayList<>();
    Files.createDirectories(workDir);
    Path indexDir = workDir.resolve("scifact-index");
    int perSignal = Math.max(k, signalDepth);
    try (CtxpackPipeline ctx = CtxpackPipeline.open(indexDir, new MiniLmEmbedder(), CtxpackPipeline.CHUNK_TOKENS)) {
      if (ctx.stats().chunks() == 0) {
        log.println("building the SciFact index in " + indexDir + " ...");
        ctx.ingest(Datasets.ingestibleCorpus("scifact", data), null);
      }
      log.println("index: " + ctx.stats());
      RrfFusion fusion = new RrfFusion();
      for (SciFactClaims.Claim c : train) {
        Map<String, Integer> gains = new LinkedHashMap<>();
        for (String d : c.citedDocIds()) gains.put(d, 1);
        Judgments j = Judgments.of(gains);
        queries.add(new Claim(
            query(c, ctx.candidates(c.text(), RetrievalMode.HYBRID, fusion, k, perSignal), j),
            query(c, ctx.candidates(c.text(), RetrievalMode.BM25, fusion, k, perSignal), j)));
      }
    }
    long withPositive = queries.stream().filter(q -> anyTrue(q.hybrid().relevant())).count();
    log.printf(Locale.ROOT, "candidates: hybrid rrf(k=60), %d per signal, first %d fused chunks; %d of %d claims have a cited document among them%n",
        perSignal, k, withPositive, queries.size());
    log.printf(Locale.ROOT, "also BM25 alone, first %d chunks (the lists of a query hybrid search runs as BM25); fitted on: %s%n",
        k, trainLists);

    // Folds: a seeded shuffle of the claims, dealt round-robin.
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < queries.size(); i++) order.add(i);
    Collections.shuffle(order, new Random(seed));
    int[] fold = new int[queries.size()];
    for (int i = 0; i < order.size(); i++) fold[order.get(i)] = i % folds;

    List<Query> hybridQueries = queries.stream().map(Claim::hybrid).toList();
    List<Query> bm25Queries = queries.stream().map(Claim::bm25).toList();
    EvalReport base = evaluate(hybridQueries, q -> DocRankings.fromChunks(q.candidates()));
    EvalReport baseBm25 = evaluate(bm25Queries, q -> DocRankings.fromChunks(q.candidates()));
    log.printf(Locale.ROOT, "%n%d-fold cross-validation over %d training claims (seed %d); features: %s%s%n", folds,
        queries.size(), seed, RerankFeatures.NAMES, drop.isEmpty() ? "" : "; dropped: " + drop);
    String head = String.format(Locale.ROOT, "%-10s %-8s | %-26s | %-26s | %s", "", "", "hybrid lists", "bm25 lists", "both");
    String cols = String.format(Locale.ROOT, "%-10s %-8s | %8s %8s %8s | %8s %8s %8s | %8s", "loss", "lambda", "nDCG@10", "R@10",
        "MRR@10", "nDCG@10", "R@10", "MRR@10", "nDCG@10");
    String baseLine = String.format(Locale.ROOT, "%-10s %-8s | %s | %s | %8.4f", "no rerank", "-", figures(base), figures(baseBm25),
        (base.mean(METRICS.get(0)) + baseBm25.mean(METRICS.get(0))) / 2);
    log.println(head);
    log.println(cols);
    log.println(baseLine);
    LogisticFit.Loss bestLoss = null;
    double bestLambda = Double.NaN;
    double bestMean = Double.NEGATIVE_INFINITY;
    double bestNdcg = Double.NaN;
    double bestBm25 = Double.NaN;
    List<String> cvLines = new ArrayList<>(List.of(head, cols, baseLine));
    for (LogisticFit.Loss loss : lossList) {
      for (double lambda : lambdas) {
        Map<String, List<String>> run = new LinkedHashMap<>();
        Map<String, List<String>> runBm25 = new LinkedHashMap<>();
        for (int f = 0; f < folds; f++) {
          List<Claim> fitOn = new ArrayList<>();
          List<Claim> heldOut = new ArrayList<>();
          for (int i = 0; i < queries.size(); i++) (fold[i] == f ? heldOut : fitOn).add(queries.get(i));
          FeatureReranker model = fit(lists(fitOn), loss, lambda);
          for (Claim c : heldOut) {
            run.put(c.hybrid().id(), rank(model, c.hybrid()));
            runBm25.put(c.bm25().id(), rank(model, c.bm25()));
          }
        }
        EvalReport r = evaluate(hybridQueries, run);
        EvalReport rb = evaluate(bm25Queries, runBm25);
        // Chosen by the mean nDCG@10 of both kinds of lists the reranker sees: hybrid, and BM25
        // alone (hybrid's fallback for a query in a language the embedder was not trained for).
        double ndcg = (r.mean(METRICS.get(0)) + rb.mean(METRICS.get(0))) / 2;
        String line = String.format(Locale.ROOT, "%-10s %-8s | %s | %s | %8.4f", loss.name().toLowerCase(Locale.ROOT), lambda,
            figures(r), figures(rb), ndcg);
        log.println(line);
        cvLines.add(line);
        // Ties go to the earlier setting (lambdas are tried smallest first).
        if (ndcg > bestMean + 1e-12) {
          bestMean = ndcg;
          bestNdcg = r.mean(METRICS.get(0));
          bestBm25 = rb.mean(METRICS.get(0));
          bestLoss = loss;
          bestLambda = lambda;
        }
      }
    }
    log.printf(Locale.ROOT, "chosen by the mean of both: %s, lambda %s (CV nDCG@10 %.4f against hybrid %.4f; on bm25 lists %.4f against bm25 %.4f)%n",
        bestLoss.name().toLowerCase(Locale.ROOT), bestLambda, bestNdcg, base.mean(METRICS.get(0)), bestBm25,
        baseBm25.mean(METRICS.get(0)));

    FeatureReranker model = fit(lists(queries), bestLoss, bestLambda);
    EvalReport in = evaluate(hybridQueries, q -> rank(model, q));
    log.printf(Locale.ROOT, "fitted on all %d claims: in-sample nDCG@10 %.4f, R@10 %.4f, MRR@10 %.4f on hybrid lists%n", queries.size(),
        in.mean(METRICS.get(0)), in.mean(METRICS.get(1)), in.mean(METRICS.get(2)));
    log.println("weights (standardised features):");
    model.weights().forEach((f, w) -> log.printf(Locale.ROOT, "  %-20s %+.4f%n", f, w));

    if (out != null) {
      List<String> header = new ArrayList<>();
      header.add("FeatureReranker weights (features:" + version + "): score = sum of weight.F * (F - mean.F) / scale.F");
      header.add("over the features of dev.ctxpack.rerank.RerankFeatures. Written by:");
      header.add("  java -cp ctxpack-bench/target/ctxpack-bench.jar dev.ctxpack.bench.rerank.FitReranker "
          + Arrays.stream(args).collect(Collectors.joining(" ")));
      header.add("Data: SciFact claims_train.jsonl, " + queries.size() + " claims (label: the candidate's document is cited);");
      header.add("  candidates: ctxpack hybrid rrf(k=60), " + perSignal + " per signal, first " + k
          + " fused chunks, and BM25 alone, first " + k + " chunks, over the SciFact corpus index; fitted on: " + trainLists + ".");
      header.add("Fit: L2 logistic regression (" + bestLoss.name().toLowerCase(Locale.ROOT) + "), lambda " + bestLambda
          + ", chosen by " + folds + "-fold CV over the training claims (seed " + seed + ")");
      header.add("  by the mean nDCG@10 over both kinds of lists (hybrid, and BM25 alone: hybrid's fallback):");
      for (String l : cvLines) header.add("  " + l);
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.writeString(out, model.toProperties(header), StandardCharsets.UTF_8);
      log.println("wrote " + out);
    }
    return 0;
  }

  private Query query(SciFactClaims.Claim c, List<Candidate> cands, Judgments j) {
    boolean[] rel = new boolean[cands.size()];
    for (int i = 0; i < rel.length; i++) rel[i] = c.citedDocIds().contains(cands.get(i).chunk().docId());
    return new Query(c.id(), c.text(), cands, RerankFeatures.compute(c.text(), cands), rel, j);
  }

  /** The lists of {@code claims} that --train-lists names. */
  private List<Query> lists(List<Claim> claims) {
    List<Query> out = new ArrayList<>();
    for (Claim c : claims) {
      if (trainLists.contains("hybrid")) out.add(c.hybrid());
      if (trainLists.contains("bm25")) out.add(c.bm25());
    }
    return out;
  }

  private static String figures(EvalReport r) {
    return String.format(Locale.ROOT, "%8.4f %8.4f %8.4f", r.mean(METRICS.get(0)), r.mean(METRICS.get(1)), r.mean(METRICS.get(2)));
  }

  /** Standardises on {@code fitOn}'s candidates, fits, and returns the reranker in raw-feature terms. */
  FeatureReranker fit(List<Query> fitOn, LogisticFit.Loss loss, double lambda) {
    int d = RerankFeatures.NAMES.size();
    double[] mean = new double[d];
    double[] scale = new double[d];
    long n = 0;
    for (Query q : fitOn) {
      for (double[] row : q.x()) {
        for (int f = 0; f < d; f++) mean[f] += row[f];
        n++;
      }
    }
    for (int f = 0; f < d; f++) mean[f] /= Math.max(1, n);
    for (Query q : fitOn) {
      for (double[] row : q.x()) for (int f = 0; f < d; f++) scale[f] += (row[f] - mean[f]) * (row[f] - mean[f]);
    }
    for (int f = 0; f < d; f++) {
      scale[f] = Math.sqrt(scale[f] / Math.max(1, n));
      if (!(scale[f] > 1e-12)) scale[f] = 1;
    }
    boolean[] dropped = new boolean[d];
    for (int f = 0; f < d; f++) dropped[f] = drop.contains(RerankFeatures.NAMES.get(f));
    List<LogisticFit.Group> groups = new ArrayList<>();
    for (Query q : fitOn) {
      double[][] z = new double[q.x().length][d];
      for (int i = 0; i < z.length; i++) {
        for (int f = 0; f < d; f++) z[i][f] = dropped[f] ? 0 : (q.x()[i][f] - mean[f]) / scale[f];
      }
      groups.add(new LogisticFit.Group(z, q.relevant()));
    }
    double[] w = LogisticFit.fit(groups, d, loss, lambda);
    Map<String, Double> wm = new LinkedHashMap<>();
    Map<String, Double> mm = new LinkedHashMap<>();
    Map<String, Double> sm = new LinkedHashMap<>();
    for (int f = 0; f < d; f++) {
      String name = RerankFeatures.NAMES.get(f);
      wm.put(name, dropped[f] ? 0.0 : round(w[f]));
      mm.put(name, round(mean[f]));
      sm.put(name, round(scale[f]));
    }
    return new FeatureReranker(version, wm, mm, sm);
  }

  /** Six decimals, as the properties file stores them, so the figures printed are the shipped model's. */
  private static double round(double v) {
    return Double.parseDouble(String.format(Locale.ROOT, "%.6f", v));
  }

  /** The claim's document ranking after {@code model} reorders its candidates. */
  private static List<String> rank(FeatureReranker model, Query q) {
    return DocRankings.fromChunks(model.rerank(q.text(), q.candidates()));
  }

  private static EvalReport evaluate(List<Query> queries, java.util.function.Function<Query, List<String>> ranker) {
    Map<String, List<String>> run = new LinkedHashMap<>();
    for (Query q : queries) run.put(q.id(), ranker.apply(q));
    return evaluate(queries, run);
  }

  private static EvalReport evaluate(List<Query> queries, Map<String, List<String>> run) {
    Map<String, Judgments> qrels = new LinkedHashMap<>();
    for (Query q : queries) qrels.put(q.id(), q.judgments());
    return Evaluation.evaluate(run, qrels, METRICS);
  }

  private static boolean anyTrue(boolean[] b) {
    for (boolean x : b) if (x) return true;
    return false;
  }
}
