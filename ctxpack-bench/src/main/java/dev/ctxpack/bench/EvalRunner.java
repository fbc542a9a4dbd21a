package dev.ctxpack.bench;

import dev.ctxpack.bench.data.CorpusDoc;
import dev.ctxpack.bench.data.Dataset;
import dev.ctxpack.bench.data.Datasets;
import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.bench.pipeline.IngestResult;
import dev.ctxpack.bench.pipeline.PeerPipeline;
import dev.ctxpack.bench.pipeline.Ranker;
import dev.ctxpack.bench.pipeline.WindowedDense;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.eval.EvalReport;
import dev.ctxpack.eval.Evaluation;
import dev.ctxpack.eval.Metric;
import dev.ctxpack.model.Language;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.rerank.Reranker;
import dev.ctxpack.retrieve.Fusion;
import dev.ctxpack.retrieve.RetrievalMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The evaluation runner: retrieval quality, ingest throughput and search latency of ctxpack over
 * real data sets, next to the peer pipeline measured in the same run. For each data set:
 *
 * <ol>
 *   <li>load it (BEIR layout or Cranfield SMART) from the shared data folder;
 *   <li>ingest the corpus with ctxpack's real pipeline twice: without embeddings into a scratch
 *       index (throughput of {@code --no-embed}), then with the default embedder into the index
 *       that is searched;
 *   <li>build the peer pipeline (Lucene BM25 + LangChain4j embeddings) over the same documents;
 *   <li>for every method: a warm-up pass over all queries, a timed pass at {@code --depth}
 *       (rankings for nDCG@10, Recall@10, MRR@10, and the latencies), and an untimed pass at
 *       {@code --recall-depth} for Recall@100;
 *   <li>write a Markdown table and JSON (and TREC run files) to {@code --out}.
 * </ol>
 *
 * Runs on demand only ({@code java -jar ctxpack-bench/target/ctxpack-bench.jar}); never part of
 * {@code mvn test}.
 */
@Command(name = "eval", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Evaluates ctxpack retrieval (bm25, dense, hybrid, hybrid+rerank) and a peer pipeline on real data sets.",
    footer = {"", "eval compress [options]: the query-aware compression evaluation instead (answer retention at token budgets;",
        "  dev.ctxpack.bench.compress.CompressEval); see eval compress --help.",
        "eval verify [options]: the answer verification evaluation instead (SciFact claims, citation errors, abstention;",
        "  dev.ctxpack.bench.verify.VerifyEval); see eval verify --help.",
        "eval quotes [options]: quoted extracts checked verbatim (misquotes: a word changed, another source, no source) in",
        "  the quotes, quote-first and digest patterns on SQuAD/FaQuAD (dev.ctxpack.bench.verify.QuoteEval).",
        "eval negation [options]: negation by construction family, FIT and REPORT wordings, on SQuAD/FaQuAD",
        "  (dev.ctxpack.bench.verify.NegationEval).",
        "eval segment [options]: the sentence segmentation evaluation instead (boundary P/R/F1 on UD EWT and Bosque;",
        "  dev.ctxpack.bench.segment.SegmentEval); see eval segment --help.",
        "eval clean [options]: the cleaning evaluation instead (injected page heads, feet and boilerplate in SciFact and",
        "  FaQuAD text, beside a Haystack DocumentCleaner baseline; dev.ctxpack.bench.clean.CleanEval); see eval clean --help.",
        "eval minhash [options]: corpus-level near-duplicate detection instead (MinHash + LSH chunks/s, memory, precision/recall",
        "  over 1M chunk texts from SciFact; dev.ctxpack.bench.minhash.MinHashEval); see eval minhash --help.",
        "eval chunking [options]: chunking throughput (MB/s) against o200k counting and LangChain4j's recursive splitter",
        "  (dev.ctxpack.bench.chunking.ChunkingBench); see eval chunking --help.",
        "eval memory [options]: episodic memory recall@k on MRPC (en) and ASSIN (pt) paraphrase pairs",
        "  (dev.ctxpack.bench.memory.MemoryEval); see eval memory --help.",
        "eval history [options]: answer-bearing facts kept by history compaction on conversations built from SQuAD and FaQuAD",
        "  (dev.ctxpack.bench.memory.HistoryEval); see eval history --help.",
        "eval adapters [options]: LangChain4j and Spring AI with and without ctxpack's adapters on a duplicated SQuAD corpus:",
        "  distinct facts and tokens per request (dev.ctxpack.bench.adapters.AdapterEval); see eval adapters --help.",
        "eval ablation [options]: the pack pipeline with each stage switched off in turn (dedup, MMR, compression, reorder,",
        "  rerank) on a duplicated SQuAD corpus (dev.ctxpack.bench.dedup.DistinctFacts --set stages); see eval ablation --help.",
        "eval pii [options]: PII redaction recall, false positives on one-digit-off numbers and clean SciFact, SQuAD and FaQuAD",
        "  text, throughput, 1 MiB hostile strings per recogniser (dev.ctxpack.bench.pii.PiiEval); see eval pii --help.",
        "injection [options]: the injection defence on canaries built from SciFact, SQuAD and FaQuAD passages (containment,",
        "  detection by family, false positives, cost per pack; dev.ctxpack.bench.injection.InjectionEval); see injection --help.",
        "load [options]: ctxpack serve under 1, 16 and 64 clients on SciFact, and hostile requests",
        "  (dev.ctxpack.bench.load.LoadBench); see load --help.",
        "tools [options]: tool selection recall@k and MRR on MCP and GitHub REST tool schemas with en and pt requests",
        "  (dev.ctxpack.bench.tools.ToolEval); see tools --help.",
        "solr [options]: bm25, dense, hybrid nDCG@10 and latency, and pack latency, over a SolrCloud collection (a dev",
        "  cluster it starts) beside the embedded index, same run (dev.ctxpack.bench.solr.SolrEval); see solr --help."})
public final class EvalRunner implements Callable<Integer> {
  static final List<Metric> TOP_METRICS = List.of(Metric.ndcg(10), Metric.recall(10), Metric.mrr(10));
  static final Metric DEEP_METRIC = Metric.recall(100);
  /** The hybrid+rerank row reorders this many fused chunks, the list FeatureReranker's weights were fitted on. */
  static final int RERANK_DEPTH = 40;

  @Option(names = {"-d", "--dataset"}, split = ",", description = "Data sets: ${COMPLETION-CANDIDATES}... (default: scifact,cranfield).",
      completionCandidates = DatasetNames.class)
  List<String> datasets = new ArrayList<>(List.of("scifact", "cranfield"));

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval).")
  Path out;

  @Option(names = "--work-dir", description = "Where indexes are built and kept (default: a temporary folder, deleted at the end).")
  Path workDir;

  @Option(names = "--reuse-index", description = "Reuse a ctxpack index already in --work-dir (skips both ctxpack ingests).")
  boolean reuseIndex;

  @Option(names = "--depth", description = "Candidates fetched per query for the top-10 metrics and latency (chunks for ctxpack, documents for the peer; default: ${DEFAULT-VALUE}).")
  int depth = 100;

  @Option(names = "--recall-depth", description = "Candidates fetched for Recall@100 (default: ${DEFAULT-VALUE}).")
  int recallDepth = 1000;

  @Option(names = "--signal-depth", description = "ctxpack candidates per signal (sparse and dense) before fusion; 0 = --depth (default: ${DEFAULT-VALUE}).")
  int signalDepth = 0;

  @Option(names = "--fusion", split = ";", description = "ctxpack hybrid fusions, one row each: rrf | rrf:K | rrf:K:Wsparse,Wdense | weighted:Wsparse,Wdense (default: rrf:60).")
  List<String> fusions = new ArrayList<>(List.of("rrf:60"));

  @Option(names = "--chunk-tokens", description = "ctxpack chunk size in o200k_base tokens, for experiments (default: ${DEFAULT-VALUE}).")
  int chunkTokens = CtxpackPipeline.CHUNK_TOKENS;

  @Option(names = "--doc-fusion", description = "Also run each fusion per document (experimental: each signal's chunks collapsed to their documents before fusing).")
  boolean docFusion;

  @Option(names = "--dense-windows", description = "Experimental: also ingest N-token windows with embeddings and add rows whose dense signal max-pools window hits into the main chunks (0 = off).")
  int denseWindows = 0;

  @Option(names = "--lang", description = "Document language at ingest: auto, en or pt (default: ${DEFAULT-VALUE}).")
  String lang = "auto";

  @Option(names = "--no-rerank", description = "Skip the ctxpack hybrid+rerank row.")
  boolean noRerank;

  @Option(names = "--rerank-weights", description = "FeatureReranker weights file for the hybrid+rerank row (default: the shipped weights).")
  Path rerankWeights;

  @Option(names = "--no-peer", description = "Skip the peer pipeline.")
  boolean noPeer;

  @Option(names = "--skip-no-embed-ingest", description = "Skip the --no-embed throughput measurement.")
  boolean skipNoEmbed;

  @Option(names = "--max-queries", description = "Evaluate only the first N judged queries (0 = all; for smoke tests).")
  int maxQueries = 0;

  @Option(names = "--progress", description = "Print progress lines on stderr even when it is not a terminal (they are shown on a terminal anyway).")
  boolean progress;

  private PrintStream log = System.err;
  /** Method name to its per-query nDCG@10 on the current data set, for the paired tests. */
  private final Map<String, Map<String, Double>> perQueryNdcg = new LinkedHashMap<>();
  private String[] args = new String[0];

  /** The evaluations run by their own command ({@code eval NAME ...}), each given the arguments after its name. */
  private static final Map<String, java.util.function.ToIntFunction<String[]>> OTHER_EVALS = Map.ofEntries(
      Map.entry("compress", dev.ctxpack.bench.compress.CompressEval::run),
      Map.entry("calibration", dev.ctxpack.bench.compress.CalibrationEval::run),
      Map.entry("verify", dev.ctxpack.bench.verify.VerifyEval::run),
      Map.entry("quotes", dev.ctxpack.bench.verify.QuoteEval::run),
      Map.entry("negation", dev.ctxpack.bench.verify.NegationEval::run),
      Map.entry("minhash", dev.ctxpack.bench.minhash.MinHashEval::run),
      Map.entry("segment", dev.ctxpack.bench.segment.SegmentEval::run),
      Map.entry("clean", dev.ctxpack.bench.clean.CleanEval::run),
      Map.entry("load", dev.ctxpack.bench.load.LoadBench::run),
      Map.entry("ablation", dev.ctxpack.bench.dedup.DistinctFacts::ablation),
      Map.entry("pii", dev.ctxpack.bench.pii.PiiEval::run),
      Map.entry("injection", dev.ctxpack.bench.injection.InjectionEval::run),
      Map.entry("chunking", dev.ctxpack.bench.chunking.ChunkingBench::run),
      Map.entry("tools", dev.ctxpack.bench.tools.ToolEval::run),
      Map.entry("memory", dev.ctxpack.bench.memory.MemoryEval::run),
      Map.entry("history", dev.ctxpack.bench.memory.HistoryEval::run),
      Map.entry("order", dev.ctxpack.bench.order.OrderEval::run),
      Map.entry("strategies", dev.ctxpack.bench.strategies.StrategiesEval::run),
      Map.entry("adapters", dev.ctxpack.bench.adapters.AdapterEval::run),
      Map.entry("relevance", dev.ctxpack.bench.relevance.RelevanceEval::run),
      Map.entry("solr", dev.ctxpack.bench.solr.SolrEval::run));

  public static void main(String[] args) {
    var other = args.length > 0 ? OTHER_EVALS.get(args[0]) : null;
    if (other != null) System.exit(other.applyAsInt(Arrays.copyOfRange(args, 1, args.length)));
    EvalRunner runner = new EvalRunner();
    runner.args = args.clone();
    CommandLine cli = new CommandLine(runner);
    // Errors are one line on stderr: exit 2 for bad input, 1 for runtime failures.
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("ctxpack eval: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return e instanceof IllegalArgumentException ? 2 : 1;
    });
    System.exit(cli.execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (!progress && System.console() == null) log = new PrintStream(java.io.OutputStream.nullOutputStream());
    if (depth < 10) throw new CommandLine.ParameterException(new CommandLine(this), "--depth must be >= 10, was " + depth);
    if (recallDepth < 100) throw new CommandLine.ParameterException(new CommandLine(this), "--recall-depth must be >= 100, was " + recallDepth);
    Language language = lang.equalsIgnoreCase("auto") ? null : Language.fromCode(lang);
    List<Fusion> fusionList = new ArrayList<>();
    for (String f : fusions) fusionList.add(RunSupport.parseFusion(f));
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.defaultOutDir();
    Path work = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("ctxpack-eval");
    String command = "java -jar ctxpack-bench/target/ctxpack-bench.jar"
        + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(java.util.stream.Collectors.joining());
    Map<String, String> env = Environment.describe();
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("chunker", "token(o200k_base, " + chunkTokens + ", " + CtxpackPipeline.OVERLAP + ")");
    settings.put("depth", depth);
    settings.put("recallDepth", recallDepth);
    settings.put("signalDepth", signalDepth == 0 ? "=depth" : signalDepth);
    settings.put("fusion", fusionList.stream().map(Fusion::describe).toList());
    settings.put("language", lang);
    Reranker reranker = null;
    if (!noRerank) {
      if (rerankWeights == null) {
        reranker = FeatureReranker.defaults();
      } else {
        try (java.io.Reader r = Files.newBufferedReader(rerankWeights, java.nio.charset.StandardCharsets.UTF_8)) {
          reranker = FeatureReranker.load(r);
        }
      }
      settings.put("rerank", reranker.id() + " over the first " + RERANK_DEPTH + " hybrid chunks"
          + (rerankWeights == null ? "" : ", weights from " + rerankWeights));
    }
    if (denseWindows > 0) settings.put("denseWindows", denseWindows + "-token windows (experimental rows)");
    if (docFusion) settings.put("docFusion", "experimental per-document fusion rows added");
    settings.put("queries", "sequential, one thread; warm-up pass first");

    List<DatasetResult> results = new ArrayList<>();
    try {
      Embedder embedder = new MiniLmEmbedder();
      settings.put("embedder", embedder.id());
      for (String name : datasets) {
        results.add(evaluate(name, dataDir, work, embedder, language, fusionList, reranker));
      }
    } finally {
      if (workDir == null) RunSupport.deleteTree(work);
    }
    String md = Report.markdown(command, env, settings, results);
    System.out.println(md);
    String stem = "eval-" + String.join("-", datasets);
    Report.write(outDir, stem, md, command, env, settings, results);
    log.println("wrote " + outDir.resolve(stem + ".md") + " and " + outDir.resolve(stem + ".json"));
    return 0;
  }

  private DatasetResult evaluate(String name, Path dataDir, Path work, Embedder embedder, Language language,
      List<Fusion> fusionList, Reranker reranker) throws IOException {
    log.println("[" + name + "] loading from " + dataDir);
    Dataset ds = Datasets.load(name, dataDir);
    List<CorpusDoc> docs = ds.indexableCorpus();
    Map<String, String> queries = ds.judgedQueries();
    if (maxQueries > 0) queries = RunSupport.first(queries, maxQueries);
    List<String> notes = new ArrayList<>();
    if (docs.size() < ds.corpus().size()) {
      notes.add((ds.corpus().size() - docs.size()) + " empty document records skipped by both pipelines: "
          + ds.corpus().stream().filter(CorpusDoc::isEmpty).map(CorpusDoc::id).toList());
    }
    Path corpusFile = Datasets.ingestibleCorpus(name, dataDir);
    if (corpusFile == null) corpusFile = RunSupport.writeJsonl(docs, work.resolve(name + "-corpus.jsonl"));
    long inputBytes = Files.size(corpusFile);
    log.println("[" + name + "] " + ds.corpus().size() + " documents, " + queries.size() + " judged queries of "
        + ds.queries().size());

    List<IngestResult> ingest = new ArrayList<>();
    Path indexDir = work.resolve(name + "-index");
    boolean reuse = reuseIndex && Files.isDirectory(indexDir);
    if (!reuse) {
      RunSupport.deleteTree(indexDir);
      if (!skipNoEmbed) {
        Path scratch = work.resolve(name + "-noembed-index");
        RunSupport.deleteTree(scratch);
        log.println("[" + name + "] ctxpack ingest --no-embed ...");
        ingest.add(CtxpackPipeline.ingestNoEmbed(corpusFile, scratch, language, chunkTokens));
        RunSupport.deleteTree(scratch);
      }
    }
    List<MethodResult> methods = new ArrayList<>();
    perQueryNdcg.clear();
    int indexed;
    int chunks;
    try (CtxpackPipeline ctx = CtxpackPipeline.open(indexDir, embedder, chunkTokens)) {
      if (!reuse) {
        log.println("[" + name + "] ctxpack ingest (with embeddings) ...");
        ingest.add(ctx.ingest(corpusFile, language));
      } else {
        notes.add("ctxpack index reused from " + indexDir + " (no ingest timing)");
      }
      var stats = ctx.stats();
      indexed = stats.documents();
      chunks = stats.chunks();
      log.println("[" + name + "] ctxpack index: " + stats);
      List<Ranker> rankers = new ArrayList<>();
      rankers.add(ctx.ranker(RetrievalMode.BM25, fusionList.get(0), signalDepth, "ctxpack bm25"));
      rankers.add(ctx.ranker(RetrievalMode.DENSE, fusionList.get(0), signalDepth, "ctxpack dense"));
      for (Fusion f : fusionList) {
        rankers.add(ctx.ranker(RetrievalMode.HYBRID, f, signalDepth,
            "ctxpack hybrid (" + f.describe() + (signalDepth > 0 ? ", " + signalDepth + "/signal" : "") + ")"));
      }
      if (reranker != null) {
        Fusion f = fusionList.get(0);
        rankers.add(ctx.rerankRanker(f, signalDepth, reranker, RERANK_DEPTH, "ctxpack hybrid+rerank (" + f.describe()
            + (signalDepth > 0 ? ", " + signalDepth + "/signal" : "") + ", " + reranker.id() + " on top " + RERANK_DEPTH + ")"));
      }
      if (docFusion) {
        for (Fusion f : fusionList) {
          rankers.add(ctx.docFusionRanker(f, signalDepth,
              "ctxpack hybrid per-doc (" + f.describe() + (signalDepth > 0 ? ", " + signalDepth + "/signal" : "") + ")"));
        }
      }
      for (Ranker r : rankers) methods.add(measure(name, r, "ctxpack", queries, ds));
      if (denseWindows > 0) {
        Path windowDir = work.resolve(name + "-windows" + denseWindows + "-index");
        boolean reuseWindows = reuseIndex && Files.isDirectory(windowDir);
        try (CtxpackPipeline win = CtxpackPipeline.open(windowDir, embedder, denseWindows)) {
          if (!reuseWindows) {
            log.println("[" + name + "] ctxpack ingest of " + denseWindows + "-token windows (experimental) ...");
            IngestResult w = win.ingest(corpusFile, language);
            ingest.add(new IngestResult(w.pipeline(), "experimental " + denseWindows + "-token windows", w.documents(),
                w.chunks(), w.inputBytes(), w.seconds(), w.embedSeconds()));
          }
          WindowedDense wd = new WindowedDense(ctx, win, chunkTokens);
          methods.add(measure(name, wd.denseRanker("ctxpack dense, " + denseWindows + "-token windows (experimental)"),
              "ctxpack", queries, ds));
          for (Fusion f : fusionList) {
            methods.add(measure(name, wd.hybridRanker(f, "ctxpack hybrid (" + f.describe() + "), dense on "
                + denseWindows + "-token windows (experimental)"), "ctxpack", queries, ds));
          }
        }
      }
    }
    if (!noPeer) {
      Path peerDir = work.resolve(name + "-peer-index");
      RunSupport.deleteTree(peerDir);
      try (PeerPipeline peer = new PeerPipeline(peerDir)) {
        log.println("[" + name + "] peer build (Lucene + LangChain4j embeddings) ...");
        ingest.add(peer.build(docs, inputBytes));
        for (Ranker r : peer.rankers()) methods.add(measure(name, r, "peer", queries, ds));
      }
      RunSupport.deleteTree(peerDir);
    }
    notes.add("load average (1, 5, 15 min) when this data set finished: " + Environment.loadAverage());
    int excluded = ds.queries().size() - ds.judgedQueries().size();
    List<String> excludedIds = ds.queries().keySet().stream().filter(q -> !ds.judgedQueries().containsKey(q)).toList();
    if (excluded > 0) notes.add(excluded + " queries have no relevant judgment and are excluded: " + excludedIds);
    return new DatasetResult(name, ds.corpus().size(), indexed, chunks, ds.queries().size(), queries.size(), excludedIds,
        ingest, methods, comparisons(), Targets.check(name, methods), notes);
  }

  private MethodResult measure(String dataset, Ranker r, String pipeline, Map<String, String> queries, Dataset ds)
      throws IOException {
    log.println("[" + dataset + "] " + r.name() + ": warm-up, timed pass, recall pass ...");
    Measurement.run(r, queries, depth);
    Measurement.Pass timed = Measurement.run(r, queries, depth);
    Measurement.Pass deep = Measurement.run(r, queries, recallDepth);
    EvalReport top = Evaluation.evaluate(timed.rankings(), restrict(ds, queries), TOP_METRICS);
    EvalReport rec = Evaluation.evaluate(deep.rankings(), restrict(ds, queries), List.of(DEEP_METRIC));
    Map<String, Double> ndcgByQuery = new LinkedHashMap<>();
    top.perQuery().forEach((q, scores) -> ndcgByQuery.put(q, scores.get(Metric.ndcg(10))));
    perQueryNdcg.put(r.name(), ndcgByQuery);
    Map<String, Double> metrics = new LinkedHashMap<>();
    for (Metric m : TOP_METRICS) metrics.put(m.toString(), top.mean(m));
    metrics.put(DEEP_METRIC.toString(), rec.mean(DEEP_METRIC));
    long shortLists = deep.rankings().values().stream().filter(l -> l.size() < 100).count();
    if (shortLists > 0) {
      log.println("[" + dataset + "] " + r.name() + ": " + shortLists + " queries ranked fewer than 100 documents at depth " + recallDepth);
    }
    Path outDir = out != null ? out : RunSupport.defaultOutDir();
    Report.writeRun(outDir.resolve("runs").resolve(dataset + "-" + RunSupport.slug(r.name()) + ".trec"), timed.rankings(), RunSupport.slug(r.name()));
    MethodResult m = new MethodResult(r.name(), pipeline, metrics, timed.percentileMillis(50), timed.percentileMillis(99),
        timed.meanMillis(), top.evaluated());
    log.println(String.format(Locale.ROOT, "[%s] %-50s nDCG@10 %.3f  R@10 %.3f  R@100 %.3f  MRR@10 %.3f  p50 %.1f ms  p99 %.1f ms",
        dataset, r.name(), metrics.get("nDCG@10"), metrics.get("Recall@10"), metrics.get("Recall@100"), metrics.get("MRR@10"),
        m.p50Ms(), m.p99Ms()));
    return m;
  }

  /**
   * Every ctxpack hybrid row against the peer's hybrid and, for the extra rows, against ctxpack's
   * default hybrid (the first hybrid row): paired randomization tests on per-query nDCG@10.
   */
  private List<PairedTest.Comparison> comparisons() {
    List<PairedTest.Comparison> out = new ArrayList<>();
    String ours = null;
    String peer = null;
    for (String name : perQueryNdcg.keySet()) {
      if (ours == null && name.startsWith("ctxpack hybrid")) ours = name;
      if (peer == null && name.startsWith("peer hybrid")) peer = name;
    }
    for (String name : perQueryNdcg.keySet()) {
      if (!name.startsWith("ctxpack hybrid")) continue;
      if (peer != null) out.add(PairedTest.compare(name, perQueryNdcg.get(name), peer, perQueryNdcg.get(peer)));
      if (!name.equals(ours)) out.add(PairedTest.compare(name, perQueryNdcg.get(name), ours, perQueryNdcg.get(ours)));
    }
    return out;
  }

  private static Map<String, dev.ctxpack.eval.Judgments> restrict(Dataset ds, Map<String, String> queries) {
    Map<String, dev.ctxpack.eval.Judgments> out = new LinkedHashMap<>();
    for (String q : queries.keySet()) out.put(q, ds.qrels().get(q));
    return out;
  }

  static final class DatasetNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return Datasets.NAMES.iterator();
    }
  }
}
