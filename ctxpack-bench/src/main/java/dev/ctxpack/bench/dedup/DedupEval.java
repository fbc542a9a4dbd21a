package dev.ctxpack.bench.dedup;

import dev.ctxpack.model.Action;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.data.AssinLoader;
import dev.ctxpack.bench.data.BeirLoader;
import dev.ctxpack.bench.data.CorpusDoc;
import dev.ctxpack.bench.data.MrpcLoader;
import dev.ctxpack.bench.data.SquadLoader;
import dev.ctxpack.bench.data.TextPair;
import dev.ctxpack.dedup.CascadeDeduplicator;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.dedup.DedupLevel;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.similarity.Guard;
import dev.ctxpack.similarity.Words;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Measures ctxpack's dedup cascade ({@link CascadeDeduplicator}, called through {@code
 * dedupCandidates} exactly as the packer calls it) on real and constructed pairs of passages, next
 * to two baselines measured in the same run: exact string match and "cosine ≥ 0.95 with MiniLM"
 * (LangChain's {@code EmbeddingsRedundantFilter} default, no guard).
 *
 * <ol>
 *   <li><b>real</b>: MRPC (en) and ASSIN (pt-BR + pt-PT, all splits); each pair is two passages of
 *       different documents; merged = the cascade returns one passage. Precision, recall, F1 and
 *       false merges per configuration, and a sweep of the semantic threshold on MRPC only;
 *   <li><b>negation</b>: the ASSIN pairs where exactly one sentence has a negation cue ({@link
 *       NegationCues}): the share each configuration merges;
 *   <li><b>constructed</b>: variants of real passages (SciFact abstracts, SQuAD dev contexts,
 *       FaQuAD paragraphs; fixed seed) run through the strict cascade with MiniLM vectors: copies to
 *       merge, windows to stitch, rule/exception pairs to keep apart ({@link Variants}).
 * </ol>
 *
 * Writes {@code dedup-eval.md} and {@code dedup-eval.json} to {@code --out}. Runs on demand only.
 */
@Command(name = "dedup-eval", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Evaluates the dedup cascade on real paraphrase pairs and constructed cases, beside baselines.")
public final class DedupEval implements Callable<Integer> {
  static final double BASELINE_COSINE = 0.95;
  /**
   * The threshold is chosen as the lowest one whose false-merge rate among MRPC's non-duplicate
   * pairs is at most this. F1 and F0.5 rise steadily as the threshold falls (two thirds of MRPC's
   * pairs are duplicates), so maximising them picks the bottom of the sweep; the false-merge rate
   * does not depend on how many duplicates a set holds.
   */
  static final double FALSE_MERGE_BUDGET = 0.05;
  /** The default semantic threshold, as the tables print it. */
  static final String DEF = String.format(java.util.Locale.ROOT, "%.2f", DedupOptions.DEFAULT_SEMANTIC_COSINE);

  static final double[] SWEEP = {0.80, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87, 0.88, 0.89, 0.90, 0.91, 0.92, 0.93,
      0.94, 0.95, 0.96, 0.97, 0.98};

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/dedup-eval).")
  Path out;

  @Option(names = "--parts", split = ",", description = "Parts to run: real, negation, constructed (default: all).")
  List<String> parts = new ArrayList<>(List.of("real", "negation", "constructed"));

  @Option(names = "--seed", description = "Seed of the constructed cases' sampling and edits (default: ${DEFAULT-VALUE}).")
  long seed = 20240601L;

  @Option(names = "--per-source", description = "Passages sampled per source for the constructed cases (default: ${DEFAULT-VALUE}).")
  int perSource = 500;

  @Option(names = "--max-pairs", description = "Only the first N pairs of each real set (0 = all; smoke tests).")
  int maxPairs = 0;

  @Option(names = "--progress", description = "Progress on stderr even when it is not a terminal.")
  boolean progress;

  private PrintStream log = System.err;
  private String[] args = new String[0];
  private final Tokenizer tokenizer = Tokenizers.defaultTokenizer();
  private TextVectors vectors;
  private final Map<String, Object> json = new LinkedHashMap<>();
  private final StringBuilder md = new StringBuilder();
  /** The semantic threshold chosen on MRPC (NaN until the sweep ran). */
  private double chosen = Double.NaN;

  public static void main(String[] args) {
    DedupEval e = new DedupEval();
    e.args = args.clone();
    CommandLine cli = new CommandLine(e);
    cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      cmd.getErr().println("dedup-eval: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
      return ex instanceof IllegalArgumentException ? 2 : 1;
    });
    System.exit(cli.execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (!progress && System.console() == null) log = new PrintStream(java.io.OutputStream.nullOutputStream());
    for (String p : parts) {
      if (!List.of("real", "negation", "constructed").contains(p)) throw new IllegalArgumentException("unknown part '" + p + "'");
    }
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/dedup-eval");
    String command = "java -cp ctxpack-bench/target/ctxpack-bench.jar " + DedupEval.class.getName()
        + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining());
    Map<String, String> env = Environment.describe();
    String commit = git("rev-parse", "--short", "HEAD");
    String dirty = git("status", "--porcelain", "--untracked-files=no");
    String commitNote = commit + (dirty.isBlank() ? "" : " (with uncommitted changes)");
    long t0 = System.nanoTime();
    vectors = new TextVectors(new MiniLmEmbedder(), log);

    md.append("# ctxpack dedup cascade: real pairs and constructed cases\n\n");
    md.append("Command: `").append(command).append("`\n\n");
    md.append("Commit: ").append(commitNote).append("; ").append(env.get("cores")).append(" cores (").append(env.get("cpu"))
        .append("), JDK ").append(env.get("java.version")).append("; load average at start ").append(env.get("loadAverageAtStart"))
        .append("; ").append(env.get("date")).append("\n\n");
    md.append("Cascade: `CascadeDeduplicator` through `dedupCandidates`, `DedupOptions.strict()` = ")
        .append(DedupOptions.strict().describe()).append("; tokenizer ").append(Tokenizers.DEFAULT)
        .append("; vectors: ").append(vectors.embedderId()).append(" (`MiniLmEmbedder`) for every text, Portuguese included.\n");
    json.put("command", command);
    json.put("commit", commitNote);
    json.put("environment", env);
    json.put("strict", DedupOptions.strict().describe());

    List<TextPair> assin = null;
    if (parts.contains("real") || parts.contains("negation")) {
      assin = AssinLoader.loadAll(dataDir.resolve("assin"));
      if (maxPairs > 0 && assin.size() > maxPairs) assin = assin.subList(0, maxPairs);
    }
    if (parts.contains("real")) real(dataDir, assin);
    if (parts.contains("negation")) negation(assin);
    if (parts.contains("constructed")) constructed(dataDir);

    double secs = (System.nanoTime() - t0) / 1e9;
    md.append(String.format(Locale.ROOT, "%nRun time %.0f s (embedding %.0f s for %,d texts); load average at the end %s.%n",
        secs, vectors.seconds(), vectors.embedded(), Environment.loadAverage()));
    json.put("seconds", secs);
    json.put("loadAverageAtEnd", Environment.loadAverage());
    Files.createDirectories(outDir);
    Files.writeString(outDir.resolve("dedup-eval.md"), md.toString(), StandardCharsets.UTF_8);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(outDir.resolve("dedup-eval.json").toFile(), json);
    System.out.println(md);
    log.println("wrote " + outDir.resolve("dedup-eval.md") + " and " + outDir.resolve("dedup-eval.json"));
    return 0;
  }

  // ---- cascade plumbing ----

  /** The cascade with {@code o}, counting with this run's tokenizer and comparing its vectors. */
  private Cascade cascade(DedupOptions o) {
    return new Cascade(new CascadeDeduplicator(o), tokenizer, vectors.passageVectors());
  }

  /** A cascade bound to what it counts and compares with. */
  record Cascade(CascadeDeduplicator dedup, Tokenizer tokenizer, PassageVectors vectors) {
    List<Passage> dedupCandidates(List<Candidate> in, Trace t) throws IOException {
      return dedup.dedupCandidates(in, tokenizer, vectors, t).passages();
    }
  }

  private static DedupOptions only(DedupLevel... levels) {
    return DedupOptions.strict().withLevels(EnumSet.copyOf(Arrays.asList(levels)));
  }

  static Candidate candidate(String chunkId, String docId, int start, String text, Language lang, double score) {
    return new Candidate(new Chunk(chunkId, docId, new Span(start, start + text.length()), text, "", 0, 0),
        new DocInfo(docId, "", "", lang, Map.of()), Scores.of(Signal.FUSED, score));
  }

  /** What the cascade did with two candidates. */
  record Run(List<Passage> out, List<Decision> decisions) {
    boolean merged() {
      return out.size() == 1;
    }

    /** The level of the first decision that joined the two (exact, near, overlap, semantic), or "". */
    String level() {
      return decisions.stream().filter(d -> d.action() != Action.KEEP).map(Decision::level).findFirst().orElse("");
    }

    List<Decision> keeps() {
      return decisions.stream().filter(d -> d.action() == Action.KEEP).toList();
    }
  }

  private static Run run(Cascade d, Candidate a, Candidate b) throws IOException {
    Trace t = new Trace();
    List<Passage> out = d.dedupCandidates(List.of(a, b), t);
    return new Run(out, t.decisions());
  }

  private static Run runPair(Cascade d, TextPair p, Language lang) throws IOException {
    return run(d, candidate(p.id() + "/a", p.id() + "#a", 0, p.a(), lang, 0.9),
        candidate(p.id() + "/b", p.id() + "#b", 0, p.b(), lang, 0.8));
  }

  private interface Judge {
    boolean merged(TextPair p) throws IOException;
  }

  private Judge cascadeJudge(DedupOptions o, Language lang) {
    Cascade d = cascade(o);
    return p -> runPair(d, p, lang).merged();
  }

  private PairCounts count(List<TextPair> pairs, Judge j) throws IOException {
    PairCounts c = new PairCounts();
    for (TextPair p : pairs) c.add(j.merged(p), p.paraphrase());
    return c;
  }

  // ---- part 1: real pairs ----

  private void real(Path dataDir, List<TextPair> assin) throws IOException {
    List<TextPair> mrpc = MrpcLoader.load(dataDir.resolve("mrpc/msr_paraphrase_train.txt"));
    if (maxPairs > 0 && mrpc.size() > maxPairs) mrpc = mrpc.subList(0, maxPairs);
    log.printf("[real] %,d MRPC pairs, %,d ASSIN pairs%n", mrpc.size(), assin.size());
    List<String> texts = new ArrayList<>();
    for (TextPair p : mrpc) texts.addAll(List.of(p.a(), p.b()));
    for (TextPair p : assin) texts.addAll(List.of(p.a(), p.b()));
    vectors.embedAll(texts, "MRPC and ASSIN sentences");

    // Sweep on MRPC only: choose the threshold there, check it on ASSIN.
    log.println("[real] semantic threshold sweep on MRPC");
    List<Map<String, Object>> sweepJson = new ArrayList<>();
    StringBuilder sweepMd = new StringBuilder();
    sweepMd.append("| cosine ≥ | guarded P | R | F1 | F0.5 | false merges | no guard P | R | F1 | F0.5 | false merges |\n");
    sweepMd.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (double t : SWEEP) {
      PairCounts g = count(mrpc, cascadeJudge(only(DedupLevel.SEMANTIC).withSemanticCosine(t), Language.EN));
      PairCounts u = count(mrpc, p -> vectors.cosine(p.a(), p.b()) >= t);
      if (Double.isNaN(chosen) && g.falseMergeRate() <= FALSE_MERGE_BUDGET) chosen = t;
      sweepMd.append(String.format(Locale.ROOT, "| %.2f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", t,
          f3(g.precision()), f3(g.recall()), f3(g.f1()), f3(g.fHalf()), fm(g), f3(u.precision()), f3(u.recall()), f3(u.f1()),
          f3(u.fHalf()), fm(u)));
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("threshold", t);
      row.put("guarded", g.json());
      row.put("noGuard", u.json());
      sweepJson.add(row);
    }

    Map<String, Object> realJson = new LinkedHashMap<>();
    md.append("\n## 1. Real pairs\n\n");
    md.append("Each pair is two passages of different documents (no offsets); merged = `dedupCandidates` returns one passage. "
        + "Gold duplicate: MRPC quality 1; ASSIN entailment = Paraphrase. False merges = merged non-duplicate pairs "
        + "(count, and share of the non-duplicate pairs). The MiniLM baseline is the cosine of the two sentences' vectors, "
        + "no guard. T* = the threshold chosen on MRPC below.\n");
    for (Object[] set : new Object[][] {{"MRPC (en, train file)", mrpc, Language.EN}, {"ASSIN (pt-BR + pt-PT, all splits)", assin, Language.PT}}) {
      String name = (String) set[0];
      @SuppressWarnings("unchecked")
      List<TextPair> pairs = (List<TextPair>) set[1];
      Language lang = (Language) set[2];
      log.println("[real] " + name);
      Map<String, PairCounts> rows = new LinkedHashMap<>();
      rows.put("baseline: exact string match", count(pairs, p -> p.a().equals(p.b())));
      rows.put("baseline: cosine ≥ 0.95, MiniLM, no guard", count(pairs, p -> vectors.cosine(p.a(), p.b()) >= BASELINE_COSINE));
      rows.put("ctxpack exact", count(pairs, cascadeJudge(only(DedupLevel.EXACT), lang)));
      rows.put("ctxpack near (jaccard ≥ 0.85), guarded", count(pairs, cascadeJudge(only(DedupLevel.NEAR), lang)));
      rows.put("ctxpack semantic ≥ " + DEF + ", guarded", count(pairs, cascadeJudge(only(DedupLevel.SEMANTIC), lang)));
      rows.put("ctxpack semantic ≥ " + DEF + ", guard off (ablation)",
          count(pairs, cascadeJudge(only(DedupLevel.SEMANTIC).withGuard(false), lang)));
      rows.put("ctxpack strict cascade (semantic ≥ " + DEF + ")", count(pairs, cascadeJudge(DedupOptions.strict(), lang)));
      if (!Double.isNaN(chosen) && chosen != DedupOptions.DEFAULT_SEMANTIC_COSINE) {
        rows.put("ctxpack semantic ≥ T* = " + f2(chosen) + ", guarded",
            count(pairs, cascadeJudge(only(DedupLevel.SEMANTIC).withSemanticCosine(chosen), lang)));
        rows.put("ctxpack strict cascade, semantic ≥ T* = " + f2(chosen),
            count(pairs, cascadeJudge(DedupOptions.strict().withSemanticCosine(chosen), lang)));
      }
      PairCounts any = rows.values().iterator().next();
      md.append(String.format(Locale.ROOT, "%n**%s**: %,d pairs, %,d duplicates (%s).%n%n", name, any.pairs(), any.gold(),
          pct(any.gold(), any.pairs())));
      md.append("| configuration | merged | precision | recall | F1 | false merges |\n|---|---:|---:|---:|---:|---:|\n");
      Map<String, Object> setJson = new LinkedHashMap<>();
      rows.forEach((k, c) -> {
        md.append(String.format(Locale.ROOT, "| %s | %,d | %s | %s | %s | %s |%n", k, c.merged(), f3(c.precision()),
            f3(c.recall()), f3(c.f1()), fm(c)));
        setJson.put(k, c.json());
      });
      realJson.put(name, setJson);
    }
    md.append("\n### Semantic threshold sweep (MRPC only; guarded = ctxpack semantic level alone, no guard = cosine alone)\n\n");
    md.append(sweepMd);
    md.append(String.format(Locale.ROOT, "%nChosen: **T* = %.2f**, the lowest threshold at which the guarded semantic level "
        + "merges at most %.0f %% of MRPC's non-duplicate pairs (hard negatives: sentences about the same news event). "
        + "F1 and F0.5 are no guide here: two thirds of MRPC's pairs are duplicates, so both keep rising as the threshold "
        + "falls and would pick the bottom of the sweep. ASSIN is the held-out check (rows above with T*). MiniLM was "
        + "trained on English only: for Portuguese its cosines carry less meaning, so a threshold chosen on English text "
        + "need not hold there. Here every text gets a MiniLM vector, Portuguese included, to measure what the "
        + "vectors do there; by the `PassageVectors` contract a passage in a language the embedder was not trained for (`MiniLmEmbedder.languages()` "
        + "is {en}) gets none, and the semantic level then leaves Portuguese passages alone.%n", chosen, 100 * FALSE_MERGE_BUDGET));
    realJson.put("sweepMrpc", sweepJson);
    realJson.put("chosenThreshold", chosen);
    json.put("real", realJson);
  }

  // ---- part 2: negation pairs in ASSIN ----

  private void negation(List<TextPair> assin) throws IOException {
    List<TextPair> neg = assin.stream().filter(NegationCues::isNegationPair).toList();
    long ws = assin.stream().filter(NegationCues::isNegationPairByWhitespaceTokens).count();
    long sets = assin.stream().filter(NegationCues::cueSetsDiffer).count();
    Map<String, Long> byLabel = neg.stream().collect(Collectors.groupingBy(TextPair::label, TreeMap::new, Collectors.counting()));
    log.printf("[negation] %,d pairs%n", neg.size());
    List<String> texts = new ArrayList<>();
    for (TextPair p : neg) texts.addAll(List.of(p.a(), p.b()));
    vectors.embedAll(texts, "ASSIN negation pairs");

    Map<String, Judge> configs = new LinkedHashMap<>();
    configs.put("baseline: cosine ≥ 0.95, MiniLM, no guard", p -> vectors.cosine(p.a(), p.b()) >= BASELINE_COSINE);
    configs.put("ctxpack exact", cascadeJudge(only(DedupLevel.EXACT), Language.PT));
    configs.put("ctxpack near, guarded", cascadeJudge(only(DedupLevel.NEAR), Language.PT));
    configs.put("ctxpack semantic ≥ " + DEF + ", guarded", cascadeJudge(only(DedupLevel.SEMANTIC), Language.PT));
    configs.put("ctxpack semantic ≥ 0.95, guarded", cascadeJudge(only(DedupLevel.SEMANTIC).withSemanticCosine(0.95), Language.PT));
    if (!Double.isNaN(chosen) && chosen != DedupOptions.DEFAULT_SEMANTIC_COSINE && chosen != 0.95) {
      configs.put("ctxpack semantic ≥ T* = " + f2(chosen) + ", guarded",
          cascadeJudge(only(DedupLevel.SEMANTIC).withSemanticCosine(chosen), Language.PT));
    }
    configs.put("ctxpack strict cascade (semantic ≥ " + DEF + ")", cascadeJudge(DedupOptions.strict(), Language.PT));
    configs.put("ctxpack semantic ≥ " + DEF + ", guard off (ablation)", cascadeJudge(only(DedupLevel.SEMANTIC).withGuard(false), Language.PT));

    md.append("\n## 2. Negation pairs in ASSIN (Portuguese)\n\n");
    md.append(String.format(Locale.ROOT, "Definition: a pair is a negation pair when exactly one of its two sentences contains a "
        + "negation cue (não, nunca, nenhum, nenhuma, nem, jamais, ninguém, nada, sem) as a word, words being ctxpack's "
        + "`Words.of` (NFKC, lower case, runs of letters and digits). All 10,000 ASSIN pairs (pt-BR + pt-PT, train/dev/test): "
        + "**%,d pairs** (by label: %s). Other definitions, for comparison: whitespace tokens with punctuation attached "
        + "%,d; the two sentences' cue sets differ %,d.%n%n", neg.size(), byLabel, ws, sets));
    md.append("| configuration | merged | share | None | Entailment | Paraphrase |\n|---|---:|---:|---:|---:|---:|\n");
    Map<String, Object> negJson = new LinkedHashMap<>();
    negJson.put("definition", "exactly one sentence has a cue of " + NegationCues.CUES + " among Words.of(text)");
    negJson.put("pairs", neg.size());
    negJson.put("byLabel", byLabel);
    negJson.put("whitespaceTokenDefinition", ws);
    negJson.put("cueSetsDiffer", sets);
    Map<String, Object> rowsJson = new LinkedHashMap<>();
    Map<String, List<TextPair>> mergedBy = new LinkedHashMap<>();
    for (Map.Entry<String, Judge> e : configs.entrySet()) {
      List<TextPair> merged = new ArrayList<>();
      for (TextPair p : neg) if (e.getValue().merged(p)) merged.add(p);
      mergedBy.put(e.getKey(), merged);
      Map<String, Long> ml = merged.stream().collect(Collectors.groupingBy(TextPair::label, TreeMap::new, Collectors.counting()));
      md.append(String.format(Locale.ROOT, "| %s | %,d | %s | %d | %d | %d |%n", e.getKey(), merged.size(),
          pct(merged.size(), neg.size()), ml.getOrDefault("None", 0L), ml.getOrDefault("Entailment", 0L),
          ml.getOrDefault("Paraphrase", 0L)));
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("merged", merged.size());
      r.put("share", merged.size() / (double) neg.size());
      r.put("mergedByLabel", ml);
      rowsJson.put(e.getKey(), r);
    }
    negJson.put("configurations", rowsJson);
    // Why the guarded levels merged what they merged.
    List<Map<String, Object>> examples = new ArrayList<>();
    Guard semanticGuard = new Guard(DedupOptions.DEFAULT_SEMANTIC_ALIGN_MIN, true);
    Set<String> seen = new java.util.HashSet<>();
    StringBuilder ex = new StringBuilder();
    int shown = 0;
    for (String k : List.of("ctxpack near, guarded", "ctxpack semantic ≥ " + DEF + ", guarded")) {
      for (TextPair p : mergedBy.get(k)) {
        if (!seen.add(p.id())) continue;
        Run r = runPair(cascade(DedupOptions.strict()), p, Language.PT);
        double jw = Words.jaccard(Set.copyOf(Words.of(p.a())), Set.copyOf(Words.of(p.b())));
        String why = whyNotGuarded(semanticGuard, p.a(), p.b(), Language.PT);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", p.id());
        m.put("label", p.label());
        m.put("a", p.a());
        m.put("b", p.b());
        m.put("cosine", vectors.cosine(p.a(), p.b()));
        m.put("wordJaccard", jw);
        m.put("strictDecision", r.decisions().stream().map(d -> d.rule() + ": " + d.reason()).toList());
        m.put("whyTheGuardDidNotFire", why);
        examples.add(m);
        if (shown++ < 6) {
          ex.append(String.format(Locale.ROOT, "- `%s` (%s, cosine %.3f, word Jaccard %.2f): \"%s\" / \"%s\" — %s%n", p.id(),
              p.label(), vectors.cosine(p.a(), p.b()), jw, p.a(), p.b(), why));
        }
      }
    }
    negJson.put("mergedByGuardedLevels", examples);
    json.put("negation", negJson);
    if (!examples.isEmpty()) {
      md.append(String.format(Locale.ROOT, "%nPairs the guarded near or semantic level merged (%d; all in the JSON):%n%n", examples.size()));
      md.append(ex);
    }
  }

  /** Why the guard finds no conflict between two single-statement texts. */
  static String whyNotGuarded(Guard g, String a, String b, Language lang) {
    List<Guard.Sentence> sa = g.sentences(a, lang);
    List<Guard.Sentence> sb = g.sentences(b, lang);
    double best = 0;
    Guard.Sentence ba = null;
    Guard.Sentence bb = null;
    for (Guard.Sentence x : sa) {
      for (Guard.Sentence y : sb) {
        double j = Words.jaccard(x.wordSet(), y.wordSet());
        if (j > best) {
          best = j;
          ba = x;
          bb = y;
        }
      }
    }
    if (ba == null) return "no sentence pair shares a word";
    if (best < g.alignMin()) {
      return String.format(Locale.ROOT, "no sentence pair aligns: best word-set Jaccard %.2f < %.2f, so no features are compared",
          best, g.alignMin());
    }
    if (Guard.joined(sb).contains(ba.joined()) || Guard.joined(sa).contains(bb.joined())) {
      return "one text's sentence runs contiguously inside the other (taken as the same statement)";
    }
    return "aligned (word-set Jaccard " + String.format(Locale.ROOT, "%.2f", best) + ") but features equal: " + ba.features()
        + " vs " + bb.features();
  }

  // ---- part 3: constructed cases ----

  enum Expect { MERGE, STITCH, APART, INFO }

  enum Category {
    EXACT("exact copy (whole text lower/upper-cased, whitespace runs changed)", Expect.MERGE, 1.0),
    PUNCT("near: punctuation changed", Expect.MERGE, 0.98),
    CASE("near: case changed", Expect.MERGE, 0.98),
    WHITESPACE("near: whitespace changed (not folded by the exact hash)", Expect.MERGE, 0.98),
    ADDED("near: one sentence added (from another passage)", Expect.MERGE, 0.98),
    REMOVED("near: one sentence removed", Expect.MERGE, 0.98),
    EDIT("near: light edit (1–2 words, no number/negation/cue)", Expect.MERGE, 0.98),
    OVERLAP("windows of one document overlapping 10–30 %", Expect.STITCH, 1.0),
    TOUCH("windows of one document touching", Expect.STITCH, 1.0),
    GAP("windows separated by whitespace only (informative, no target)", Expect.INFO, Double.NaN),
    NEG_EN("rule/exception: negation inserted, English (is → is not)", Expect.APART, 0),
    NEG_PT("rule/exception: negation inserted, Portuguese (é → não é)", Expect.APART, 0),
    NUMBER("rule/exception: a number changed", Expect.APART, 0),
    DATE("rule/exception: a month or year changed", Expect.APART, 0),
    CONDITION("rule/exception: condition clause appended (\"unless stated otherwise\" / \"exceto em casos especiais\")",
        Expect.APART, 0);

    final String label;
    final Expect expect;
    final double target;

    Category(String label, Expect expect, double target) {
      this.label = label;
      this.expect = expect;
      this.target = target;
    }
  }

  /** One constructed pair: the original passage and its variant, or two windows of it. */
  record Case(Category category, String source, String docId, Language lang, String original, String variant,
      Variants.Windows windows, String note) {}

  record Source(String name, Language lang, List<CorpusDoc> docs) {}

  private List<Source> sources(Path dataDir) throws IOException {
    List<CorpusDoc> scifact;
    try (Reader r = Files.newBufferedReader(dataDir.resolve("scifact/beir_test/corpus.jsonl"), StandardCharsets.UTF_8)) {
      scifact = BeirLoader.readCorpus(r, "scifact corpus.jsonl");
    }
    List<CorpusDoc> squad = SquadLoader.load("squad", dataDir.resolve("squad_v2_en/dev-v2.0.json")).corpus();
    List<CorpusDoc> faquad = SquadLoader.load("faquad", dataDir.resolve("faquad/train.json")).corpus();
    return List.of(new Source("scifact", Language.EN, sample(scifact, Language.EN, "scifact")),
        new Source("squad", Language.EN, sample(squad, Language.EN, "squad")),
        new Source("faquad", Language.PT, sample(faquad, Language.PT, "faquad")));
  }

  /** Passages with at least 3 sentences and 40 words, shuffled with the seed, the first {@code perSource}. */
  private List<CorpusDoc> sample(List<CorpusDoc> docs, Language lang, String name) {
    List<CorpusDoc> ok = new ArrayList<>();
    for (CorpusDoc d : docs) {
      if (Variants.sentences(d.text(), lang).size() >= 3 && Words.of(d.text()).size() >= 40) ok.add(d);
    }
    Collections.shuffle(ok, new Random(seed ^ name.hashCode()));
    log.printf("[constructed] %s: %,d of %,d passages eligible, %d sampled%n", name, ok.size(), docs.size(),
        Math.min(perSource, ok.size()));
    return List.copyOf(ok.subList(0, Math.min(perSource, ok.size())));
  }

  private List<Case> build(Source s) {
    List<Case> cases = new ArrayList<>();
    List<CorpusDoc> docs = s.docs();
    Language lang = s.lang();
    for (int i = 0; i < docs.size(); i++) {
      CorpusDoc d = docs.get(i);
      String t = d.text();
      String donor = docs.get((i + 1) % docs.size()).text();
      Random r = new Random(seed * 31 + (s.name() + ":" + d.id()).hashCode());
      int n = Variants.sentences(t, lang).size();
      Variants.Variant ex = Variants.exactCopy(t, r, i % 2 == 1);
      cases.add(new Case(Category.EXACT, s.name(), d.id(), lang, t, ex.text(), null, ex.note()));
      add(cases, Category.PUNCT, s, d, Variants.punctuationChanged(t, lang));
      add(cases, Category.CASE, s, d, Variants.caseChanged(t, lang, r));
      add(cases, Category.WHITESPACE, s, d, Variants.whitespaceChanged(t, lang));
      List<Span> ds = Variants.sentences(donor, lang).stream().filter(sp -> Words.of(sp.of(donor)).size() >= 6).toList();
      if (!ds.isEmpty()) {
        String added = ds.get(r.nextInt(ds.size())).of(donor);
        add(cases, Category.ADDED, s, d, Optional.of(Variants.sentenceAdded(t, lang, added, r.nextInt(n + 1))));
      }
      add(cases, Category.REMOVED, s, d, Optional.of(Variants.sentenceRemoved(t, lang, r.nextInt(n))));
      add(cases, Category.EDIT, s, d, Variants.lightEdit(t, r, Variants.vocabulary(donor)));
      addWindows(cases, Category.OVERLAP, s, d, Variants.overlapping(t, r));
      addWindows(cases, Category.TOUCH, s, d, Variants.touching(t, r));
      addWindows(cases, Category.GAP, s, d, Variants.whitespaceGap(t, r));
      if (lang == Language.PT) add(cases, Category.NEG_PT, s, d, Variants.negatedPt(t, lang, r));
      else add(cases, Category.NEG_EN, s, d, Variants.negatedEn(t, lang, r));
      add(cases, Category.NUMBER, s, d, Variants.numberChanged(t, r));
      add(cases, Category.DATE, s, d, Variants.dateChanged(t, lang, r));
      add(cases, Category.CONDITION, s, d, Variants.conditionAppended(t, lang, r));
    }
    return cases;
  }

  private static void add(List<Case> cases, Category c, Source s, CorpusDoc d, Optional<Variants.Variant> v) {
    v.ifPresent(x -> cases.add(new Case(c, s.name(), d.id(), s.lang(), d.text(), x.text(), null, x.note())));
  }

  private static void addWindows(List<Case> cases, Category c, Source s, CorpusDoc d, Optional<Variants.Windows> w) {
    w.ifPresent(x -> cases.add(new Case(c, s.name(), d.id(), s.lang(), d.text(), null, x,
        String.format(Locale.ROOT, "[%d, %d) + [%d, %d) of %d chars, overlap %.0f %% of the shorter", x.aStart(), x.aEnd(),
            x.bStart(), x.bEnd(), d.text().length(), 100 * x.overlapRatio()))));
  }

  /** The outcome of one constructed case. */
  record Outcome(Case c, boolean merged, boolean success, String level, boolean sourcesCited, boolean contentKept,
      double cosine, double jaccard, double containment, String reason) {}

  private void constructed(Path dataDir) throws IOException {
    List<Source> sources = sources(dataDir);
    List<Case> cases = new ArrayList<>();
    for (Source s : sources) cases.addAll(build(s));
    List<String> texts = new ArrayList<>();
    for (Case c : cases) {
      texts.add(c.original());
      if (c.variant() != null) texts.add(c.variant());
      else {
        texts.add(c.original().substring(c.windows().aStart(), c.windows().aEnd()));
        texts.add(c.original().substring(c.windows().bStart(), c.windows().bEnd()));
      }
    }
    log.printf("[constructed] %,d cases%n", cases.size());
    vectors.embedAll(texts, "constructed passages");
    Cascade strict = cascade(DedupOptions.strict());
    Guard guard = new Guard();
    List<Outcome> outcomes = new ArrayList<>();
    int k = 0;
    for (Case c : cases) outcomes.add(evaluate(strict, guard, c, k++));

    md.append("\n## 3. Constructed cases from real passages\n\n");
    md.append(String.format(Locale.ROOT, "Passages: %s; each with at least 3 sentences and 40 words, shuffled with seed %d. "
        + "Each case is two candidates (the original and its variant as different documents; windows as two chunks of one "
        + "document at their real offsets), scores 0.9 / 0.8 with the original first in even cases and the variant first in "
        + "odd ones, run through the strict cascade with MiniLM vectors. Success: copies merged into one passage citing both "
        + "sources; windows stitched into one piece equal to the document text over the union of their offsets, citing both; "
        + "rule/exception pairs kept apart. The baseline column is the cosine ≥ 0.95 MiniLM filter on the same two texts "
        + "(merged share).%n%n", sources.stream().map(s -> s.name() + " " + s.docs().size()).collect(Collectors.joining(", ")), seed));
    md.append("| category | cases | success | rate | target | | merged by level | baseline cos ≥ 0.95 merged | scifact | squad | faquad |\n");
    md.append("|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|\n");
    Map<String, Object> consJson = new LinkedHashMap<>();
    consJson.put("seed", seed);
    consJson.put("sources", sources.stream().map(s -> Map.of("name", s.name(), "passages", s.docs().size())).toList());
    Map<String, Object> catJson = new LinkedHashMap<>();
    StringBuilder failures = new StringBuilder();
    int notCited = 0;
    int lost = 0;
    int mergedTotal = 0;
    for (Category cat : Category.values()) {
      List<Outcome> os = outcomes.stream().filter(o -> o.c().category() == cat).toList();
      if (os.isEmpty()) continue;
      long ok = os.stream().filter(Outcome::success).count();
      Map<String, Long> levels = os.stream().filter(Outcome::merged)
          .collect(Collectors.groupingBy(Outcome::level, TreeMap::new, Collectors.counting()));
      long base = os.stream().filter(o -> o.cosine() >= BASELINE_COSINE).count();
      String target = switch (cat.expect) {
        case MERGE -> "≥ " + (cat.target == 1.0 ? "100 %" : f1pct(cat.target));
        case STITCH -> "100 %";
        case APART -> "0 merged";
        case INFO -> "—";
      };
      double rate = ok / (double) os.size();
      boolean met = switch (cat.expect) {
        case MERGE, STITCH -> rate >= cat.target - 1e-12;
        case APART -> ok == os.size();
        case INFO -> true;
      };
      String rateText = cat.expect == Expect.APART ? (os.size() - ok) + " merged" : pct(ok, os.size());
      Map<String, String> perSource = new LinkedHashMap<>();
      for (String src : List.of("scifact", "squad", "faquad")) {
        List<Outcome> so = os.stream().filter(o -> o.c().source().equals(src)).toList();
        perSource.put(src, so.isEmpty() ? "—" : cat.expect == Expect.APART
            ? so.stream().filter(o -> !o.success()).count() + "/" + so.size() + " merged"
            : pct(so.stream().filter(Outcome::success).count(), so.size()));
      }
      md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %s | %s | %s | %s | %s | %s | %s | %s |%n", cat.label, os.size(), ok,
          rateText, target, cat.expect == Expect.INFO ? "" : met ? "met" : "**missed**",
          levels.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")),
          pct(base, os.size()), perSource.get("scifact"), perSource.get("squad"), perSource.get("faquad")));
      for (Outcome o : os) {
        if (o.merged()) {
          mergedTotal++;
          if (!o.sourcesCited()) notCited++;
          if (!o.contentKept()) lost++;
        }
      }
      List<Outcome> failed = os.stream().filter(o -> !o.success()).toList();
      List<Map<String, Object>> failJson = new ArrayList<>();
      for (Outcome o : failed) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("source", o.c().source());
        f.put("doc", o.c().docId());
        f.put("note", o.c().note());
        f.put("merged", o.merged());
        f.put("level", o.level());
        f.put("cosine", o.cosine());
        f.put("jaccard5", o.jaccard());
        f.put("containment5", o.containment());
        f.put("reason", o.reason());
        failJson.add(f);
      }
      if (!failed.isEmpty() && cat.expect != Expect.INFO) {
        failures.append("\n**").append(cat.label).append("** — ").append(failed.size()).append(" failure(s); first ")
            .append(Math.min(4, failed.size())).append(":\n\n");
        for (Outcome o : failed.subList(0, Math.min(4, failed.size()))) {
          failures.append(String.format(Locale.ROOT, "- %s %s (%s): %s%n", o.c().source(), o.c().docId(), o.c().note(), o.reason()));
        }
        failures.append(reasonSummary(failed));
        if (cat.expect == Expect.MERGE && failed.size() > 4) {
          double[] j = failed.stream().mapToDouble(Outcome::jaccard).sorted().toArray();
          double[] ct = failed.stream().mapToDouble(Outcome::containment).sorted().toArray();
          double[] cs = failed.stream().mapToDouble(Outcome::cosine).sorted().toArray();
          failures.append(String.format(Locale.ROOT, "- the failed pairs: 5-shingle Jaccard %.2f–%.2f (median %.2f); "
              + "containment (shared 5-shingles over the smaller text's) %.2f–%.2f (median %.2f); cosine %.2f–%.2f (median %.2f)%n",
              j[0], j[j.length - 1], j[j.length / 2], ct[0], ct[ct.length - 1], ct[ct.length / 2], cs[0], cs[cs.length - 1],
              cs[cs.length / 2]));
        }
      }
      Map<String, Object> cj = new LinkedHashMap<>();
      cj.put("label", cat.label);
      cj.put("cases", os.size());
      cj.put("success", ok);
      cj.put("rate", rate);
      cj.put("target", target);
      cj.put("met", met);
      cj.put("mergedByLevel", levels);
      cj.put("baselineCosine095Merged", base);
      cj.put("perSource", perSource);
      cj.put("failures", failJson);
      catJson.put(cat.name(), cj);
    }
    md.append(String.format(Locale.ROOT, "%nEvery merged passage cites all its sources: %s (%d of %,d merged cases do not). "
        + "Every sentence of both inputs is still in the merged passage (words in order): %s (%d of %,d do not).%n",
        notCited == 0 ? "yes" : "**no**", notCited, mergedTotal, lost == 0 ? "yes" : "**no**", lost, mergedTotal));
    if (failures.length() > 0) md.append("\n### Failures, with the reason from the trace\n").append(failures);
    consJson.put("categories", catJson);
    consJson.put("mergedCases", mergedTotal);
    consJson.put("mergedWithoutAllSources", notCited);
    consJson.put("mergedLosingASentence", lost);
    json.put("constructed", consJson);
  }

  /** A count of the failures' reasons by their first word group. */
  private static String reasonSummary(List<Outcome> failed) {
    Map<String, Long> by = failed.stream().collect(Collectors.groupingBy(o -> o.reason().replaceAll("[(:;].*", "").strip(),
        TreeMap::new, Collectors.counting()));
    if (by.size() <= 1 && failed.size() <= 4) return "";
    return "- all failures by reason: " + by.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining("; ")) + "\n";
  }

  private Outcome evaluate(Cascade strict, Guard guard, Case c, int index) throws IOException {
    Candidate a;
    Candidate b;
    String ta;
    String tb;
    if (c.windows() != null) {
      Variants.Windows w = c.windows();
      String doc = c.source() + ":" + c.docId();
      ta = c.original().substring(w.aStart(), w.aEnd());
      tb = c.original().substring(w.bStart(), w.bEnd());
      a = candidate(doc + "@a", doc, w.aStart(), ta, c.lang(), index % 2 == 0 ? 0.9 : 0.8);
      b = candidate(doc + "@b", doc, w.bStart(), tb, c.lang(), index % 2 == 0 ? 0.8 : 0.9);
    } else {
      String doc = c.source() + ":" + c.docId();
      ta = c.original();
      tb = c.variant();
      a = candidate(doc + "/orig", doc, 0, ta, c.lang(), index % 2 == 0 ? 0.9 : 0.8);
      b = candidate(doc + "/" + c.category().name().toLowerCase(Locale.ROOT), doc + "#" + c.category().name(), 0, tb, c.lang(),
          index % 2 == 0 ? 0.8 : 0.9);
    }
    Run r = run(strict, a, b);
    boolean merged = r.merged();
    boolean cited = merged && r.out().get(0).sources().stream().map(x -> x.chunk().id()).collect(Collectors.toSet())
        .containsAll(Set.of(a.chunk().id(), b.chunk().id()));
    boolean kept = true;
    if (merged) {
      String have = Guard.joined(guard.sentences(r.out().get(0).text(), c.lang()));
      for (String t : List.of(ta, tb)) {
        for (Guard.Sentence s : guard.sentences(t, c.lang())) if (!have.contains(s.joined())) kept = false;
      }
    }
    double cos = vectors.cosine(ta, tb);
    double jac = Words.shingleJaccard(ta, tb, DedupOptions.DEFAULT_SHINGLE);
    double containment = containment(ta, tb);
    boolean success;
    String reason;
    switch (c.category().expect) {
      case MERGE -> {
        success = merged && cited;
        reason = merged ? (cited ? "" : "merged without citing both sources") : notMergedReason(r, jac, cos);
      }
      case STITCH, INFO -> {
        Variants.Windows w = c.windows();
        boolean edges = false;
        if (merged && r.out().get(0).pieces().size() == 1) {
          Passage.Piece p = r.out().get(0).pieces().get(0);
          edges = p.span().equals(new Span(w.aStart(), w.bEnd())) && p.text().equals(c.original().substring(w.aStart(), w.bEnd()));
        }
        success = merged && cited && edges;
        reason = !merged ? notMergedReason(r, jac, cos)
            : !edges ? "joined by " + r.level() + " into " + r.out().get(0).pieces().size() + " piece(s), not one piece over the union"
            : cited ? "" : "stitched without citing both sources";
      }
      case APART -> {
        success = !merged;
        Decision d = r.decisions().stream().filter(x -> x.action() != Action.KEEP).findFirst().orElse(null);
        reason = success ? "" : d.rule() + ": " + d.reason() + "; guard: "
            + whyNotGuarded(r.level().equals("semantic") ? new Guard(DedupOptions.DEFAULT_SEMANTIC_ALIGN_MIN, true) : new Guard(),
                ta, tb, c.lang());
      }
      default -> throw new IllegalStateException();
    }
    return new Outcome(c, merged, success, r.level(), cited, kept, cos, jac, containment, reason);
  }

  /** Shared shingles over the shingles of the smaller set: 1 when one text's shingles are all in the other. */
  /** Share of the smaller text's shingles found in the larger: the near level's containment. */
  static double containment(String a, String b) {
    long[] x = Words.shingleHashes(a, DedupOptions.DEFAULT_SHINGLE);
    long[] y = Words.shingleHashes(b, DedupOptions.DEFAULT_SHINGLE);
    if (x.length == 0 || y.length == 0) return 0;
    return Words.intersection(x, y) / (double) Math.min(x.length, y.length);
  }

  private static String notMergedReason(Run r, double jaccard, double cosine) {
    if (!r.keeps().isEmpty()) {
      Decision d = r.keeps().get(0);
      return d.rule() + ": " + d.reason();
    }
    return String.format(Locale.ROOT, "no level matched: 5-shingle jaccard %.3f (< %.2f), cosine %.3f (< %.2f)", jaccard,
        DedupOptions.DEFAULT_NEAR_JACCARD, cosine, DedupOptions.DEFAULT_SEMANTIC_COSINE);
  }

  // ---- formatting ----

  private String git(String... cmd) {
    try {
      List<String> c = new ArrayList<>(List.of("git", "-C", RunSupport.projectRoot().toString()));
      c.addAll(List.of(cmd));
      Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
      String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 ? s : "unknown";
    } catch (IOException | InterruptedException e) {
      return "unknown";
    }
  }

  static String f3(double d) {
    return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%.3f", d);
  }

  static String f2(double d) {
    return String.format(Locale.ROOT, "%.2f", d);
  }

  static String pct(long k, long n) {
    return n == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f %%", 100.0 * k / n);
  }

  static String f1pct(double d) {
    return String.format(Locale.ROOT, "%.0f %%", 100 * d);
  }

  private static String fm(PairCounts c) {
    return String.format(Locale.ROOT, "%,d (%s)", c.falseMerges(), c.falseMergeRate() >= 0 ? pct(c.falseMerges(), c.fp + c.tn) : "n/a");
  }
}
