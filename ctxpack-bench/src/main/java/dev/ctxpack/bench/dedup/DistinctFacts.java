package dev.ctxpack.bench.dedup;

import dev.ctxpack.model.Stage;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.bench.pipeline.IngestResult;
import dev.ctxpack.dedup.DedupLevel;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.retrieve.HybridRetriever;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Distinct facts per window on a duplicated corpus. SQuAD 2.0 dev contexts each appear one to four
 * times as separate documents under light perturbations ({@link DuplicatedCorpus}); the corpus is
 * ingested with ctxpack's real {@code Ingestor} into a {@code LuceneIndex} with MiniLM vectors (as
 * the evaluation runner does), and every answerable question (or a fixed-seed sample) is packed at
 * each budget by several configurations in the same run:
 *
 * <ul>
 *   <li><b>full</b>: as shipped (conservative dedup, strict dedup with semantic level, refill, MMR);
 *   <li><b>dedup off</b>: {@code withDedup(false)}, MMR on;
 *   <li><b>MMR off</b>: dedup on, greedy selection by score;
 *   <li><b>exact-only</b>: {@code Builder.dedup} with the exact level alone for both passes, MMR on;
 *   <li><b>dedup off, MMR off</b>: top passages by score until the budget is full.
 * </ul>
 *
 * {@link WindowFacts} says what each window holds. Writes Markdown and JSON into {@code --out}.
 */
@Command(name = "distinct-facts", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Distinct contexts and gold answers per packed window on a duplicated SQuAD 2.0 corpus.")
public final class DistinctFacts implements Callable<Integer> {
  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/distinct-facts).")
  Path out;

  @Option(names = "--work-dir", description = "Where the corpus and index are written and kept (default: a temporary folder, deleted at the end).")
  Path workDir;

  @Option(names = "--reuse-index", description = "Reuse the index in --work-dir when its corpus equals the one this seed generates.")
  boolean reuseIndex;

  @Option(names = "--seed", description = "Seed of the copies, perturbations and question sample (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(names = "--budgets", split = ",", description = "Prompt budgets in tokens (default: 1000,2000).")
  List<Integer> budgets = new ArrayList<>(List.of(1000, 2000));

  @Option(names = "--max-questions", description = "Pack a fixed-seed sample of N answerable questions (0 = all; default: ${DEFAULT-VALUE}).")
  int maxQuestions = 0;

  @Option(names = "--progress", description = "Progress lines on stderr.")
  boolean progress;

  @Option(names = "--set", description = "Which configurations: dedup (the dedup and MMR variants, default) or stages"
      + " (the pipeline as the CLI ships it, then each stage switched off in turn: dedup, MMR, compression, reorder,"
      + " rerank, and all of them; `eval ablation`).")
  String set = "dedup";

  private String[] args = new String[0];
  private PrintStream log = System.err;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs with {@code args}; returns the exit code. */
  public static int run(String[] args) {
    DistinctFacts app = new DistinctFacts();
    app.args = args.clone();
    CommandLine cli = new CommandLine(app);
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("distinct-facts: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return e instanceof IllegalArgumentException ? 2 : 1;
    });
    return cli.execute(args);
  }

  /** {@code ctxpack eval ablation}: the stages set, reported in ctxpack-bench/target/ablation. */
  public static int ablation(String[] args) {
    String[] all = new String[args.length + 2];
    all[0] = "--set";
    all[1] = "stages";
    System.arraycopy(args, 0, all, 2, args.length);
    return run(all);
  }

  /** One configuration: its name and how it packs. */
  record Config(String name, String what, DefaultContextPacker packer, PackOptions options) {}

  /** Sums over the questions of one configuration at one budget. */
  static final class Tally {
    final String config;
    final int budget;
    int n;
    long cited;
    long present;
    long anySentence;
    long own;
    long gold;
    long hits;
    long sources;
    long tokens;
    long nanos;
    final Map<String, Long> decisions = new TreeMap<>();
    final List<int[]> perQuestion = new ArrayList<>(); // {contexts, gold, hit}
    final List<String> ids = new ArrayList<>();

    Tally(String config, int budget) {
      this.config = config;
      this.budget = budget;
    }

    void add(String qid, WindowFacts.Measures m, ContextPackage pkg, long ns) {
      n++;
      ids.add(qid);
      cited += m.contextsCited();
      present += m.contexts();
      anySentence += m.contextsAnySentence();
      own += m.ownContext() ? 1 : 0;
      gold += m.goldAnswers();
      hits += m.hit() ? 1 : 0;
      sources += m.sources();
      tokens += m.tokens();
      nanos += ns;
      perQuestion.add(new int[] {m.contexts(), m.goldAnswers(), m.hit() ? 1 : 0});
      for (Decision d : pkg.trace()) {
        if (d.stage() == Stage.DEDUP) decisions.merge(d.action() + " " + d.rule(), 1L, Long::sum);
        else if (d.stage() == Stage.REFILL) decisions.merge("refill", 1L, Long::sum);
      }
    }

    double mean(long v) {
      return n == 0 ? Double.NaN : v / (double) n;
    }

    Map<String, Object> json(Tally baseline) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("configuration", config);
      m.put("budget", budget);
      m.put("questions", n);
      m.put("meanContexts", mean(present));
      m.put("meanContextsAnySentence", mean(anySentence));
      m.put("meanContextsCited", mean(cited));
      m.put("meanGoldAnswers", mean(gold));
      m.put("answerHitRate", mean(hits));
      m.put("ownContextRate", mean(own));
      m.put("meanSources", mean(sources));
      m.put("meanTokensUsed", mean(tokens));
      m.put("meanPackMs", mean(nanos) / 1e6);
      m.put("decisionsTotal", decisions);
      if (baseline != null && baseline != this) {
        m.put("versusBaseline", paired(baseline));
        List<String> fewer = new ArrayList<>();
        for (int i = 0; i < n && fewer.size() < 50; i++) {
          if (perQuestion.get(i)[0] < baseline.perQuestion.get(i)[0]) fewer.add(ids.get(i));
        }
        m.put("fewerContextsThanBaseline", fewer);
      }
      return m;
    }

    /** Questions where this configuration has more / fewer contexts present and gold answers than {@code b}. */
    Map<String, Integer> paired(Tally b) {
      int[] c = new int[6];
      for (int i = 0; i < n; i++) {
        int[] x = perQuestion.get(i);
        int[] y = b.perQuestion.get(i);
        c[0] += x[0] > y[0] ? 1 : 0;
        c[1] += x[0] < y[0] ? 1 : 0;
        c[2] += x[1] > y[1] ? 1 : 0;
        c[3] += x[1] < y[1] ? 1 : 0;
        c[4] += x[2] > y[2] ? 1 : 0;
        c[5] += x[2] < y[2] ? 1 : 0;
      }
      Map<String, Integer> m = new LinkedHashMap<>();
      m.put("contextsMore", c[0]);
      m.put("contextsFewer", c[1]);
      m.put("goldMore", c[2]);
      m.put("goldFewer", c[3]);
      m.put("hitGained", c[4]);
      m.put("hitLost", c[5]);
      return m;
    }
  }

  @Override
  public Integer call() throws Exception {
    if (!set.equals("dedup") && !set.equals("stages")) throw new IllegalArgumentException("--set must be dedup or stages, was " + set);
    if (!progress) log = new PrintStream(java.io.OutputStream.nullOutputStream());
    for (int b : budgets) if (b < 200) throw new IllegalArgumentException("budgets must be >= 200 tokens, was " + b);
    Path root = projectRoot();
    Path dataDir = data != null ? data : defaultDataDir(root);
    Path outDir = out != null ? out : root.resolve("ctxpack-bench/target/" + reportName());
    Path work = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("ctxpack-distinct-facts");
    String loadStart = loadAverage();
    String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    try {
      return run(dataDir, outDir, work, loadStart, started);
    } finally {
      if (workDir == null) deleteTree(work);
    }
  }

  private int run(Path dataDir, Path outDir, Path work, String loadStart, String started) throws IOException {
    Path squad = dataDir.resolve("squad_v2_en/dev-v2.0.json");
    if (!Files.isRegularFile(squad)) throw new IOException("no SQuAD 2.0 dev at " + squad + ": pass --data DIR");
    List<SquadV2.Context> contexts = SquadV2.load(squad);
    DuplicatedCorpus corpus = DuplicatedCorpus.build(contexts, seed);
    log.println("[distinct-facts] " + contexts.size() + " contexts -> " + corpus.copies().size() + " documents "
        + corpus.kindCounts());

    // Questions: every answerable one, or a fixed-seed sample in file order.
    List<int[]> all = new ArrayList<>(); // {context, question index}
    for (SquadV2.Context c : contexts) for (int i = 0; i < c.questions().size(); i++) all.add(new int[] {c.index(), i});
    int answerable = all.size();
    List<int[]> questions = all;
    if (maxQuestions > 0 && maxQuestions < all.size()) {
      List<int[]> shuffled = new ArrayList<>(all);
      Collections.shuffle(shuffled, new Random(seed + 2));
      questions = new ArrayList<>(shuffled.subList(0, maxQuestions));
      questions.sort(Comparator.<int[]>comparingInt(a -> a[0]).thenComparingInt(a -> a[1]));
    }

    Path corpusFile = work.resolve("corpus.jsonl");
    Path indexDir = work.resolve("index");
    byte[] jsonl = jsonl(corpus);
    boolean reuse = reuseIndex && Files.isDirectory(indexDir) && Files.isRegularFile(corpusFile)
        && Arrays.equals(Files.readAllBytes(corpusFile), jsonl);
    if (reuseIndex && !reuse) log.println("[distinct-facts] no matching index in " + work + ": building it");
    Embedder embedder = new MiniLmEmbedder();
    IngestResult ingest = null;
    LuceneIndex index;
    if (reuse) {
      index = LuceneIndex.openExisting(indexDir);
    } else {
      deleteTree(indexDir);
      Files.write(corpusFile, jsonl);
      CtxpackPipeline pipeline = CtxpackPipeline.open(indexDir, embedder, CtxpackPipeline.CHUNK_TOKENS);
      ingest = pipeline.ingest(corpusFile, null);
      index = pipeline.index();
    }
    try {
      Index.Stats stats = index.stats();
      log.println("[distinct-facts] index: " + stats + (ingest == null ? " (reused)" : String.format(Locale.ROOT,
          " (ingested in %.1f s)", ingest.seconds())));
      // The query's vector is computed once and shared by the configurations.
      Embedder queries = new CachingEmbedder(embedder, 64);
      HybridRetriever retriever = new HybridRetriever(index, queries);
      PassageVectors vectors = PassageVectors.fromIndex(index, embedder.languages());
      DedupOptions exact = DedupOptions.strict().withLevels(EnumSet.of(DedupLevel.EXACT));
      DefaultContextPacker shipped = DefaultContextPacker.builder().retriever(retriever).vectors(vectors).build();
      DefaultContextPacker exactOnly =
          DefaultContextPacker.builder().retriever(retriever).vectors(vectors).dedup(exact, exact).build();
      PackOptions d = PackOptions.defaults();
      // As the CLI's pack wires it: the feature reranker and the sentence vectors stored at ingest.
      DefaultContextPacker cli = DefaultContextPacker.builder().retriever(retriever).vectors(vectors)
          .reranker(dev.ctxpack.rerank.FeatureReranker.defaults())
          .sentenceVectors(new dev.ctxpack.compress.IndexSentenceVectors(index, queries)).build();
      List<Config> configs = set.equals("stages") ? List.of(
          new Config(BASELINE_STAGES, "as the CLI ships: dedup (both passes), rerank, MMR, compression, lost-in-the-middle", cli, d),
          new Config("- dedup", "withDedup(false)", cli, d.toBuilder().dedup(false).build()),
          new Config("- MMR", "withMmr(false): greedy by score", cli, d.toBuilder().mmr(false).build()),
          new Config("- compression", "withCompress(false): selected passages whole", cli, d.toBuilder().compress(false).build()),
          new Config("- reorder", "withReorder(false): selection order", cli, d.toBuilder().reorder(false).build()),
          new Config("- rerank", "withRerank(false)", cli, d.toBuilder().rerank(false).build()),
          new Config("all off", "no dedup, rerank, MMR, compression or reorder: top passages by score", cli,
              d.toBuilder().dedup(false).mmr(false).compress(false).reorder(false).rerank(false).build()))
          : List.of(
          new Config("full", "conservative + strict dedup (semantic level), refill, MMR", shipped, d),
          new Config("dedup off", "withDedup(false), MMR on", shipped, d.toBuilder().dedup(false).build()),
          new Config("MMR off", "dedup as full, withMmr(false): greedy by score", shipped, d.toBuilder().mmr(false).build()),
          new Config("exact-only", "Builder.dedup(exact, exact), refill, MMR on", exactOnly, d),
          new Config("dedup off, MMR off", "withDedup(false).toBuilder().mmr(false).build(): top passages by score", shipped,
              d.toBuilder().dedup(false).mmr(false).build()));

      WindowFacts facts = new WindowFacts(contexts, corpus);
      Map<String, Tally> tallies = new LinkedHashMap<>();
      for (int b : budgets) for (Config c : configs) tallies.put(c.name() + "@" + b, new Tally(c.name(), b));
      long t0 = System.nanoTime();
      int done = 0;
      for (int[] qi : questions) {
        SquadV2.Question q = contexts.get(qi[0]).questions().get(qi[1]);
        queries.embed(List.of(q.text())); // cached: no configuration pays for the query's vector
        for (int b : budgets) {
          for (Config c : configs) {
            long s = System.nanoTime();
            ContextPackage pkg = c.packer().pack(q.text(), c.options().toBuilder().budget(b).build());
            long ns = System.nanoTime() - s;
            tallies.get(c.name() + "@" + b).add(q.id(), facts.measure(pkg, qi[0], q), pkg, ns);
          }
        }
        if (++done % 250 == 0) {
          log.printf(Locale.ROOT, "[distinct-facts] %d / %d questions, %.0f s%n", done, questions.size(),
              (System.nanoTime() - t0) / 1e9);
        }
      }
      double packSeconds = (System.nanoTime() - t0) / 1e9;

      Map<String, Object> settings = new LinkedHashMap<>();
      settings.put("seed", seed);
      settings.put("contexts", contexts.size());
      settings.put("documents", corpus.copies().size());
      settings.put("copiesPerContext", Map.of("1", corpus.copiesPerContext(contexts.size())[1],
          "2", corpus.copiesPerContext(contexts.size())[2], "3", corpus.copiesPerContext(contexts.size())[3],
          "4", corpus.copiesPerContext(contexts.size())[4]));
      settings.put("documentKinds", corpus.kindCounts());
      settings.put("answerableQuestions", answerable);
      settings.put("questionsPacked", questions.size());
      settings.put("sample", maxQuestions > 0 && maxQuestions < answerable ? "fixed-seed sample (seed " + (seed + 2) + ")" : "all");
      settings.put("budgets", budgets);
      settings.put("retrieval", "hybrid k=40 (20 sparse + 20 dense), PackOptions.defaults() otherwise ("
          + (set.equals("stages") ? "lost-in-the-middle, feature reranker" : "lost-in-the-middle, no reranker") + ")");
      settings.put("mmrLambda", d.stages().mmrLambda());
      settings.put("chunker", "token(o200k_base, " + CtxpackPipeline.CHUNK_TOKENS + ", " + CtxpackPipeline.OVERLAP + ")");
      settings.put("embedder", embedder.id());
      settings.put("index", Map.of("documents", stats.documents(), "chunks", stats.chunks(), "vectors", stats.vectors()));
      if (ingest != null) settings.put("ingestSeconds", ingest.seconds());
      settings.put("packSeconds", packSeconds);
      Map<String, String> env = new LinkedHashMap<>();
      env.put("date", started);
      env.put("java", System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
      env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
      env.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
      env.put("loadAverageAtStart", loadStart);
      env.put("loadAverageAtEnd", loadAverage());
      String command = "java -cp ctxpack-bench/target/ctxpack-bench.jar " + DistinctFacts.class.getName()
          + Arrays.stream(args).map(a -> " " + a).collect(Collectors.joining());
      settings.put("baseline", baseline(set));
      String baseline = baseline(set);
      String md = markdown(command, env, settings, configs, tallies, baseline);
      System.out.println(md);
      Files.createDirectories(outDir);
      Files.writeString(outDir.resolve(reportName() + ".md"), md, StandardCharsets.UTF_8);
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("command", command);
      json.put("environment", env);
      json.put("settings", settings);
      Map<String, String> what = new LinkedHashMap<>();
      for (Config c : configs) what.put(c.name(), c.what());
      json.put("configurations", what);
      List<Object> results = new ArrayList<>();
      for (int b : budgets) {
        Tally off = tallies.get(baseline + "@" + b);
        for (Config c : configs) results.add(tallies.get(c.name() + "@" + b).json(off));
      }
      json.put("results", results);
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
          .writeValue(outDir.resolve(reportName() + ".json").toFile(), json);
      log.println("wrote " + outDir.resolve(reportName() + ".md") + " and " + outDir.resolve(reportName() + ".json"));
      return 0;
    } finally {
      index.close();
    }
  }

  static final String BASELINE_STAGES = "full";

  private String reportName() {
    return set.equals("stages") ? "ablation" : "distinct-facts";
  }

  /** The configuration the paired columns compare with: dedup off for the dedup set, the full pipeline for the stages. */
  static String baseline(String set) {
    return set.equals("stages") ? BASELINE_STAGES : "dedup off";
  }

  static String markdown(String command, Map<String, String> env, Map<String, Object> settings, List<Config> configs,
      Map<String, Tally> tallies, String baseline) {
    StringBuilder sb = new StringBuilder("# Distinct facts per window (SQuAD 2.0 dev, duplicated corpus)\n\n");
    sb.append("Command: `").append(command).append("`\n\n");
    env.forEach((k, v) -> sb.append(k).append(": ").append(v).append("; "));
    sb.append("\n\nSettings: ");
    settings.forEach((k, v) -> sb.append(k).append("=").append(v).append("; "));
    sb.append("\n\nConfigurations: ");
    for (Config c : configs) sb.append("**").append(c.name()).append("** = ").append(c.what()).append("; ");
    sb.append("\n");
    List<Integer> budgets = tallies.values().stream().map(t -> t.budget).distinct().toList();
    for (int b : budgets) {
      sb.append("\n## Budget ").append(b).append(" tokens\n\n");
      sb.append("| configuration | contexts | incl. prepended-only | gold answers | answer hit | own context | sources | tokens used"
          + " | contexts +/- vs " + baseline + " | gold +/- vs " + baseline + " | hit +/- vs " + baseline + " | pack ms |\n");
      sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      Tally off = tallies.get(baseline + "@" + b);
      for (Config c : configs) {
        Tally t = tallies.get(c.name() + "@" + b);
        String vs = "", gv = "", hv = "";
        if (t != off) {
          Map<String, Integer> p = t.paired(off);
          vs = p.get("contextsMore") + " / " + p.get("contextsFewer");
          gv = p.get("goldMore") + " / " + p.get("goldFewer");
          hv = p.get("hitGained") + " / " + p.get("hitLost");
        }
        sb.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.0f | %s | %s | %s | %.1f |%n",
            c.name(), t.mean(t.present), t.mean(t.anySentence), t.mean(t.gold), t.mean(t.hits), t.mean(t.own),
            t.mean(t.sources), t.mean(t.tokens), vs, gv, hv, t.mean(t.nanos) / 1e6));
      }
      TreeSet<String> keys = new TreeSet<>();
      for (Config c : configs) keys.addAll(tallies.get(c.name() + "@" + b).decisions.keySet());
      if (!keys.isEmpty()) {
        sb.append("\nDedup decisions in the final traces (both passes), total over ")
            .append(off.n).append(" questions:\n\n| decision |");
        for (Config c : configs) sb.append(' ').append(c.name()).append(" |");
        sb.append("\n|---|");
        for (int i = 0; i < configs.size(); i++) sb.append("---:|");
        sb.append('\n');
        for (String k : keys) {
          sb.append("| `").append(k).append("` |");
          for (Config c : configs) sb.append(' ').append(tallies.get(c.name() + "@" + b).decisions.getOrDefault(k, 0L)).append(" |");
          sb.append('\n');
        }
      }
    }
    return sb.toString();
  }

  static byte[] jsonl(DuplicatedCorpus corpus) throws IOException {
    ObjectMapper json = new ObjectMapper();
    StringBuilder sb = new StringBuilder();
    for (DuplicatedCorpus.Copy c : corpus.copies()) {
      Map<String, String> m = new LinkedHashMap<>();
      m.put("_id", c.docId());
      m.put("title", c.title());
      m.put("text", c.text());
      sb.append(json.writeValueAsString(m)).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  static Path projectRoot() {
    try {
      Path self = Path.of(DistinctFacts.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path target = self.getParent();
      if (target != null && target.getFileName() != null && target.getFileName().toString().equals("target")
          && target.getParent() != null && target.getParent().getFileName().toString().equals("ctxpack-bench")) {
        return target.getParent().getParent();
      }
    } catch (Exception e) {
      // not from a file: the working directory
    }
    return Path.of("").toAbsolutePath();
  }

  static Path defaultDataDir(Path root) {
    String env = System.getenv("CTXPACK_DATA");
    if (env != null && !env.isBlank()) return Path.of(env);
    return root.resolve("../shared/data").normalize();
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) return;
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
