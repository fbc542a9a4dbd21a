package dev.ctxpack.bench.compress;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.PairedTest;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Case;
import dev.ctxpack.bench.compress.CompressData.Half;
import dev.ctxpack.bench.compress.CompressData.WikiQuestion;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.Compressor;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceScorer;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Evaluates query-aware extractive compression: does the answer survive when a request of five
 * paragraphs is cut to 10, 25 or 50 % of its tokens? Every method runs in the same process on the
 * same requests with the same o200k_base counting:
 *
 * <ul>
 *   <li>truncation: the paragraphs in input order, joined by a blank line, cut at the budget;
 *   <li>stuffing: whole paragraphs by embedding cosine with the query, each added when it fits;
 *   <li>bm25 sentences, embedding sentences: every sentence scored ({@link Bm25SentenceScorer},
 *       {@link EmbeddingSentenceScorer}) and kept by {@link GreedySelector};
 *   <li>oracle: only sentences holding an answer, shortest first ({@link OracleSentenceScorer});
 *   <li>ctxpack: ctxpack's extractive compressor with its fitted scorer.
 * </ul>
 *
 * Data: SQuAD 2.0 dev (en) and FaQuAD (pt-BR), REPORT half of {@link CompressData#split} only;
 * WikiQA dev ranks candidate sentences (MAP, MRR). Writes {@code compress-eval.md}, {@code
 * compress-eval.json} and {@code frontier-<set>.svg} to {@code --out}. On demand only: {@code
 * ./ctxpack eval compress}.
 */
@Command(name = "eval compress", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Evaluates query-aware extractive compression (answer retention at token budgets) beside baselines.")
public final class CompressEval implements Callable<Integer> {
  /** The budgets, as shares of each request's input tokens. */
  static final double[] BUDGETS = {0.10, 0.25, 0.50};
  static final int QUICK_QUESTIONS = 200;
  static final int BOOTSTRAP_ROUNDS = 10_000;
  static final String CTXPACK = "ctxpack";
  static final String BM25 = "bm25 sentences";
  static final String BM25_CHECK = "bm25 sentences (ExtractiveCompressor)";

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/compress).")
  Path out;

  @Option(names = {"-s", "--sets"}, split = ",", description = "Data sets: squad, faquad, wikiqa (default: all).")
  List<String> sets = new ArrayList<>(List.of("squad", "faquad", "wikiqa"));

  @Option(names = "--questions", description = "Questions sampled per set and kind (answerable, unanswerable) from the REPORT half (default: ${DEFAULT-VALUE}).")
  int questions = 1000;

  @Option(names = "--quick", description = "Smoke run: " + QUICK_QUESTIONS + " questions per set and kind.")
  boolean quick;

  @Option(names = "--seed", description = "Seed of the question sample and of each request's paragraphs (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(names = "--progress", description = "Progress on stderr even when it is not a terminal.")
  boolean progress;

  private PrintStream log = System.err;
  private String[] args = new String[0];
  private final Tokenizer tokenizer = Tokenizers.defaultTokenizer();
  private final StringBuilder md = new StringBuilder();
  private final Map<String, Object> json = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  private CachingEmbedder embedder;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs with {@code args} and returns the exit code (0 ok, 1 failure, 2 bad input). */
  public static int run(String[] args) {
    CompressEval e = new CompressEval();
    e.args = args.clone();
    return RunSupport.execute(e, "compress", args);
  }

  // ---- methods ----

  /** What a method kept of one request: the text of each output passage. */
  record Output(List<String> texts) {
    Output {
      texts = List.copyOf(texts);
    }

    String joined() {
      return String.join("\n\n", texts);
    }
  }

  /** The role of a method in the comparisons. */
  enum Role {
    BASELINE,
    ORACLE,
    CTXPACK,
    /** The same scorer through ctxpack's selector: a check that both selectors agree. */
    CHECK
  }

  /** A compression method: its outputs for one request at each budget (in tokens). */
  interface Method {
    String name();

    Role role();

    Output[] run(Case c, Language language, int[] budgets) throws IOException;
  }

  static Method truncation(Tokenizer tokenizer) {
    return new Method() {
      public String name() {
        return "truncation";
      }

      public Role role() {
        return Role.BASELINE;
      }

      public Output[] run(Case c, Language language, int[] budgets) {
        String all = c.inputs().stream().map(i -> i.parts().get(0).text()).collect(Collectors.joining("\n\n"));
        Output[] out = new Output[budgets.length];
        for (int b = 0; b < budgets.length; b++) out[b] = new Output(List.of(tokenizer.truncate(all, budgets[b]).text()));
        return out;
      }
    };
  }

  /** Whole paragraphs by cosine with the query, each added while it fits (LangChain4j retriever + prompt). */
  static Method stuffing(Embedder embedder, Tokenizer tokenizer) {
    return new Method() {
      public String name() {
        return "stuffing";
      }

      public Role role() {
        return Role.BASELINE;
      }

      public Output[] run(Case c, Language language, int[] budgets) {
        List<String> texts = c.inputs().stream().map(i -> i.parts().get(0).text()).toList();
        float[] q = embedder.embed(c.question());
        List<float[]> v = embedder.embed(texts);
        Integer[] order = new Integer[texts.size()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> -Embedder.dot(q, v.get(i))).thenComparingInt(i -> i));
        int[] tokens = texts.stream().mapToInt(tokenizer::count).toArray();
        Output[] out = new Output[budgets.length];
        for (int b = 0; b < budgets.length; b++) {
          List<String> kept = new ArrayList<>();
          int used = 0;
          for (int i : order) {
            if (used + tokens[i] <= budgets[b]) {
              kept.add(texts.get(i));
              used += tokens[i];
            }
          }
          out[b] = new Output(kept);
        }
        return out;
      }
    };
  }

  /** Sentences scored by {@code scorer} (made per request), kept by the shared {@link GreedySelector}. */
  static Method sentences(String name, Role role, Function<Case, SentenceScorer> scorer, Tokenizer tokenizer) {
    return new Method() {
      public String name() {
        return name;
      }

      public Role role() {
        return role;
      }

      public Output[] run(Case c, Language language, int[] budgets) throws IOException {
        List<Sentence> sentences = GreedySelector.sentences(c.inputs(), language);
        double[] scores = scorer.apply(c).score(c.question(), c.inputs(), sentences);
        Output[] out = new Output[budgets.length];
        for (int b = 0; b < budgets.length; b++) {
          out[b] = texts(GreedySelector.select(c.inputs(), sentences, scores, budgets[b], tokenizer));
        }
        return out;
      }
    };
  }

  /** A {@link Compressor} called once per budget with {@code options.apply(budget)}. */
  static Method compressor(String name, Role role, Compressor compressor, IntFunction<CompressOptions> options) {
    return new Method() {
      public String name() {
        return name;
      }

      public Role role() {
        return role;
      }

      public Output[] run(Case c, Language language, int[] budgets) throws IOException {
        Output[] out = new Output[budgets.length];
        for (int b = 0; b < budgets.length; b++) out[b] = texts(compressor.compress(c.question(), c.inputs(), options.apply(budgets[b])));
        return out;
      }
    };
  }

  static Output texts(Compression c) {
    return new Output(c.passages().stream().map(Compression.Compressed::text).toList());
  }

  /** ctxpack's compressor with its fitted scorer, on sentence vectors from {@code embedder}, default options. */
  Method ctxpack(Embedder embedder) {
    return compressor(CTXPACK, Role.CTXPACK, ctxpackCompressor(embedder), CompressOptions::budget);
  }

  static ExtractiveCompressor ctxpackCompressor(Embedder embedder) {
    return ExtractiveCompressor.defaults(SentenceVectors.embedder(embedder));
  }

  /**
   * The BM25 scorer through ctxpack's selector, predecessors and clause cuts off: a check that it
   * and {@link GreedySelector} keep the same sentences (ExtractiveCompressor also never keeps
   * noise or repeated sentences and segments without a language).
   */
  static Method bm25ThroughCompressor(Tokenizer tokenizer) {
    ExtractiveCompressor c = ExtractiveCompressor.builder().scorer(new Bm25SentenceScorer()).tokenizer(tokenizer).build();
    return compressor(BM25_CHECK, Role.CHECK, c, b -> CompressOptions.budget(b).withKeepPredecessor(false).withClauses(false));
  }

  // ---- the run ----

  @Override
  public Integer call() throws Exception {
    if (!progress && System.console() == null) log = new PrintStream(java.io.OutputStream.nullOutputStream());
    for (String s : sets) {
      if (!List.of("squad", "faquad", "wikiqa").contains(s)) throw new IllegalArgumentException("unknown set '" + s + "': use squad, faquad, wikiqa");
    }
    if (questions < 1) throw new IllegalArgumentException("--questions must be >= 1, was " + questions);
    int n = quick ? Math.min(questions, QUICK_QUESTIONS) : questions;
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/compress");
    String command = "./ctxpack eval compress" + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining());
    Map<String, String> env = Environment.describe();
    String commit = git("rev-parse", "--short", "HEAD");
    String dirty = git("status", "--porcelain", "--untracked-files=no");
    String commitNote = commit + (dirty.isBlank() ? "" : " (with uncommitted changes)");
    long t0 = System.nanoTime();
    embedder = new CachingEmbedder(new MiniLmEmbedder(), 1_000_000);

    md.append("# ctxpack query-aware compression: answer retention at token budgets\n\n");
    md.append("Command: `").append(command).append("`\n\n");
    md.append("Commit: ").append(commitNote).append("; ").append(env.get("cores")).append(" cores (").append(env.get("cpu"))
        .append("), JDK ").append(env.get("java.version")).append("; load average at start ").append(env.get("loadAverageAtStart"))
        .append("; ").append(env.get("date")).append("\n\n");
    md.append("Tokens: ").append(tokenizer.name()).append(" for every method (a request's input = the sum of its paragraphs' counts; ")
        .append("budget = floor(share × input); output = the sum of each output passage's count). Vectors: ")
        .append(embedder.id()).append(" (`MiniLmEmbedder`, int8-quantised all-MiniLM-L6-v2, ctxpack's default embedder), ")
        .append("each distinct text embedded once. Figures on the REPORT half of `CompressData.split` only; seed ")
        .append(seed).append(".\n\n");
    md.append("Methods: **truncation** the paragraphs in input order joined by a blank line, cut at the budget on a token boundary; ")
        .append("**stuffing** whole paragraphs by cosine(query, paragraph) (the embedder reads a paragraph's first 128 word pieces), ")
        .append("each added when it fits (LangChain4j retriever + prompt); **bm25 sentences** BM25 (k1 1.2, b 0.75, the request's ")
        .append("sentences as the collection, `Terms` without stop words); **embedding sentences** cosine(query, sentence) ")
        .append("(LlamaIndex `SentenceEmbeddingOptimizer`; English model used on every language); both kept best first while the ")
        .append("output fits, in source order, joined by \" … \" (`GreedySelector`); **oracle** only sentences holding an answer, ")
        .append("shortest first (the best a sentence selector can do); **ctxpack** the extractive compressor with its fitted scorer ")
        .append("on sentence vectors from the same embedder. Sentences: `SentenceSegmenter` with the set's language.\n");
    json.put("command", command);
    json.put("commit", commitNote);
    json.put("environment", env);
    json.put("tokenizer", tokenizer.name());
    json.put("embedder", embedder.id());
    json.put("seed", seed);
    json.put("questionsPerKind", n);

    Method ctxpack = ctxpack(embedder);
    if (sets.contains("squad")) {
      List<Article> articles = CompressData.loadSquad(dataDir.resolve("squad_v2_en/dev-v2.0.json"));
      squadLike("squad", "SQuAD 2.0 dev (en)", articles, Language.EN, n, true, ctxpack, outDir);
    }
    if (sets.contains("faquad")) {
      List<Article> articles = CompressData.loadSquad(dataDir.resolve("faquad/train.json"));
      squadLike("faquad", "FaQuAD train (pt-BR)", articles, Language.PT, n, false, ctxpack, outDir);
    }
    if (sets.contains("wikiqa")) wikiQa(CompressData.loadWikiQa(dataDir.resolve("wikiqa/WikiQA-dev.tsv")));

    double secs = (System.nanoTime() - t0) / 1e9;
    if (!notes.isEmpty()) {
      md.append("\nNotes:\n\n");
      for (String s : notes) md.append("- ").append(s).append('\n');
    }
    md.append(String.format(Locale.ROOT, "%nRun time %.0f s; %,d distinct texts embedded; load average at the end %s.%n", secs,
        embedder.misses(), Environment.loadAverage()));
    json.put("notes", notes);
    json.put("seconds", secs);
    json.put("loadAverageAtEnd", Environment.loadAverage());
    Files.createDirectories(outDir);
    Files.writeString(outDir.resolve("compress-eval.md"), md.toString(), StandardCharsets.UTF_8);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(outDir.resolve("compress-eval.json").toFile(), json);
    System.out.println(md);
    System.err.println("wrote " + outDir.resolve("compress-eval.md") + ", compress-eval.json and the frontier SVGs");
    return 0;
  }

  /** Per method and budget: per-question retention and tokens, over-budget count, time. */
  static final class Tally {
    final Method method;
    final boolean[][] retained;
    final int[][] tokensOut;
    final int[] violations;
    /** Each request's output text at each budget (for comparing two methods' outputs). */
    final String[][] outputs;
    long nanos;

    Tally(Method method, int questions) {
      this.method = method;
      retained = new boolean[BUDGETS.length][questions];
      tokensOut = new int[BUDGETS.length][questions];
      violations = new int[BUDGETS.length];
      outputs = new String[BUDGETS.length][questions];
    }

    double retention(int b) {
      int k = 0;
      for (boolean r : retained[b]) if (r) k++;
      return retained[b].length == 0 ? Double.NaN : (double) k / retained[b].length;
    }

    double meanTokens(int b) {
      return Arrays.stream(tokensOut[b]).average().orElse(Double.NaN);
    }
  }

  private void squadLike(String key, String title, List<Article> articles, Language language, int n, boolean unanswerable,
      Method ctxpack, Path outDir) throws IOException {
    log.println("[" + key + "] " + articles.size() + " articles");
    Map<Half, Integer> articleHalves = CompressData.halves(articles.stream().map(Article::title).toList());
    Map<Half, Integer> questionHalves = new LinkedHashMap<>();
    for (Half h : Half.values()) questionHalves.put(h, 0);
    for (Article a : articles) {
      int q = a.paragraphs().stream().mapToInt(p -> (int) p.questions().stream().filter(x -> !x.impossible() && !x.answers().isEmpty()).count()).sum();
      questionHalves.merge(CompressData.split(a.title()), q, Integer::sum);
    }
    String halves = String.format(Locale.ROOT, "split by article title: %d articles FIT (%,d answerable questions), %d REPORT (%,d)",
        articleHalves.get(Half.FIT), questionHalves.get(Half.FIT), articleHalves.get(Half.REPORT), questionHalves.get(Half.REPORT));
    System.err.println("[" + key + "] " + halves);
    List<Case> cases = CompressData.cases(articles, Half.REPORT, true, n, seed);
    int reportQuestions = questionHalves.get(Half.REPORT);

    List<Method> methods = new ArrayList<>();
    methods.add(truncation(tokenizer));
    methods.add(stuffing(embedder, tokenizer));
    methods.add(sentences(BM25, Role.BASELINE, c -> new Bm25SentenceScorer(), tokenizer));
    methods.add(sentences("embedding sentences", Role.BASELINE, c -> new EmbeddingSentenceScorer(embedder), tokenizer));
    methods.add(sentences("oracle", Role.ORACLE, c -> new OracleSentenceScorer(c.answers()), tokenizer));
    methods.add(ctxpack);
    methods.add(bm25ThroughCompressor(tokenizer));

    warm(cases, language, key);
    int[] tokensIn = new int[cases.size()];
    int[][] budgets = new int[cases.size()][];
    for (int i = 0; i < cases.size(); i++) {
      tokensIn[i] = tokensIn(cases.get(i));
      budgets[i] = budgets(tokensIn[i]);
    }
    List<Tally> tallies = new ArrayList<>();
    for (Method m : methods) {
      log.println("[" + key + "] " + m.name() + " ...");
      Tally t = new Tally(m, cases.size());
      for (int i = 0; i < cases.size(); i++) {
        Case c = cases.get(i);
        long s = System.nanoTime();
        Output[] o = m.run(c, language, budgets[i]);
        t.nanos += System.nanoTime() - s;
        for (int b = 0; b < BUDGETS.length; b++) {
          int tokens = 0;
          for (String text : o[b].texts()) tokens += tokenizer.count(text);
          t.tokensOut[b][i] = tokens;
          if (tokens > budgets[i][b]) t.violations[b]++;
          String joined = o[b].joined();
          t.retained[b][i] = c.answers().stream().anyMatch(joined::contains);
          t.outputs[b][i] = joined;
        }
      }
      tallies.add(t);
      for (int b = 0; b < BUDGETS.length; b++) {
        if (t.violations[b] > 0) {
          System.err.println("FAILURE [" + key + "] " + m.name() + ": " + t.violations[b] + " outputs over the " + pct(BUDGETS[b]) + " budget");
        }
      }
      log.println(String.format(Locale.ROOT, "[%s] %-22s %s", key, m.name(),
          Arrays.stream(new int[] {0, 1, 2}).mapToObj(b -> pct(t.retention(b))).collect(Collectors.joining(" / "))));
    }

    Map<String, Object> check = selectorCheck(tallies);
    double meanIn = Arrays.stream(tokensIn).average().orElse(Double.NaN);
    double meanParagraphs = cases.stream().mapToInt(c -> c.inputs().size()).average().orElse(Double.NaN);
    md.append("\n## ").append(title).append("\n\n");
    md.append(String.format(Locale.ROOT, "%s; %,d answerable questions evaluated (%s of the REPORT half's %,d, seed %d); "
            + "%.2f paragraphs per request; mean input %.0f tokens (min %d, max %d).%n%n",
        halves, cases.size(), cases.size() < reportQuestions ? "sampled" : "all", reportQuestions, seed, meanParagraphs,
        meanIn, Arrays.stream(tokensIn).min().orElse(0), Arrays.stream(tokensIn).max().orElse(0)));
    md.append("Retained = a gold answer string (exact, case-sensitive) is in the output; tokens = mean tokens out; over budget = outputs ")
        .append("counting more than the budget (must be 0).\n\n");
    md.append("| method |");
    for (double b : BUDGETS) md.append(" retained ").append(pct0(b)).append(" |");
    for (double b : BUDGETS) md.append(" tokens ").append(pct0(b)).append(" |");
    md.append(" over budget | ms / request |\n|---|");
    for (int i = 0; i < 2 * BUDGETS.length + 2; i++) md.append("---:|");
    md.append('\n');
    Map<String, Object> jmethods = new LinkedHashMap<>();
    for (Tally t : tallies) {
      md.append("| ").append(t.method.name()).append(" |");
      for (int b = 0; b < BUDGETS.length; b++) md.append(' ').append(pct(t.retention(b))).append(" |");
      for (int b = 0; b < BUDGETS.length; b++) md.append(String.format(Locale.ROOT, " %.0f |", t.meanTokens(b)));
      int total = Arrays.stream(t.violations).sum();
      md.append(' ').append(total == 0 ? "0" : "**FAIL " + Arrays.stream(t.violations).mapToObj(Integer::toString).collect(Collectors.joining(" / ")) + "**")
          .append(String.format(Locale.ROOT, " | %.1f |%n", t.nanos / 1e6 / Math.max(1, cases.size())));
      Map<String, Object> jm = new LinkedHashMap<>();
      jm.put("role", t.method.role().name().toLowerCase(Locale.ROOT));
      for (int b = 0; b < BUDGETS.length; b++) {
        Map<String, Object> jb = new LinkedHashMap<>();
        jb.put("retention", t.retention(b));
        jb.put("meanTokensOut", t.meanTokens(b));
        jb.put("meanShareKept", share(t.tokensOut[b], tokensIn));
        jb.put("overBudget", t.violations[b]);
        jm.put(pct0(BUDGETS[b]), jb);
      }
      jm.put("msPerRequest", t.nanos / 1e6 / Math.max(1, cases.size()));
      jmethods.put(t.method.name(), jm);
    }
    md.append('\n').append(check.get("note")).append('\n');
    Map<String, Object> jset = new LinkedHashMap<>();
    jset.put("title", title);
    Map<String, Object> jsplit = new LinkedHashMap<>();
    jsplit.put("articles", articleHalves);
    jsplit.put("answerableQuestions", questionHalves);
    jset.put("split", jsplit);
    jset.put("questions", cases.size());
    jset.put("meanTokensIn", meanIn);
    jset.put("meanParagraphs", meanParagraphs);
    jset.put("methods", jmethods);
    jset.put("selectorCheck", check);
    jset.put("paired", paired(tallies));
    if (unanswerable) jset.put("unanswerable", unanswerable(key, articles, language, n, ctxpack, cases, tokensIn));
    json.put(key, jset);

    List<FrontierChart.Series> series = new ArrayList<>();
    for (Tally t : tallies) {
      List<FrontierChart.Point> pts = new ArrayList<>();
      for (int b = 0; b < BUDGETS.length; b++) pts.add(new FrontierChart.Point(share(t.tokensOut[b], tokensIn), t.retention(b)));
      series.add(new FrontierChart.Series(t.method.name(), pts));
    }
    Files.createDirectories(outDir);
    String svg = FrontierChart.svg(title + ": answer retained vs tokens kept (" + cases.size() + " questions)", series, BUDGETS);
    Files.writeString(outDir.resolve("frontier-" + key + ".svg"), svg, StandardCharsets.UTF_8);
    md.append("\nChart: `frontier-").append(key).append(".svg`.\n");
  }

  /**
   * Compares BM25 through {@link GreedySelector} with BM25 through ExtractiveCompressor's selector
   * (predecessors and clause cuts off), output by output; the second row is dropped from the table
   * and chart when every output is the same.
   */
  private Map<String, Object> selectorCheck(List<Tally> tallies) {
    Map<String, Object> j = new LinkedHashMap<>();
    Tally greedy = tallies.stream().filter(t -> t.method.name().equals(BM25)).findFirst().orElseThrow();
    Tally check = tallies.stream().filter(t -> t.method.name().equals(BM25_CHECK)).findFirst().orElseThrow();
    int[] differ = new int[BUDGETS.length];
    for (int b = 0; b < BUDGETS.length; b++) {
      for (int i = 0; i < greedy.outputs[b].length; i++) if (!greedy.outputs[b][i].equals(check.outputs[b][i])) differ[b]++;
    }
    boolean same = Arrays.stream(differ).sum() == 0;
    int n = greedy.outputs[0].length;
    String note;
    if (same) {
      tallies.remove(check);
      note = String.format(Locale.ROOT, "Selector check: BM25 through `ExtractiveCompressor` (predecessors and clause cuts off) "
          + "gives the same output as through `GreedySelector` for all %,d requests at every budget (row omitted).", n);
    } else {
      note = String.format(Locale.ROOT, "Selector check: BM25 through `ExtractiveCompressor` (predecessors and clause cuts off; "
          + "row \"%s\") differs from BM25 through `GreedySelector` on %s of %,d requests at %s. Both take sentences best "
          + "first, ties in source order; they differ in the fit test: the compressor estimates each sentence's cost (its "
          + "tokens, plus a gap \" … \" where one is written) and recounts exactly at the end, while `GreedySelector` "
          + "counts every candidate output exactly; the compressor also never keeps sentences it flags as noise, repeats "
          + "or unrelated to the query (no query term in it or its neighbours while its passage has some).", BM25_CHECK,
          Arrays.stream(differ).mapToObj(Integer::toString).collect(Collectors.joining(" / ")), n,
          Arrays.stream(BUDGETS).mapToObj(CompressEval::pct0).collect(Collectors.joining(" / ")));
    }
    j.put("identical", same);
    Map<String, Object> d = new LinkedHashMap<>();
    for (int b = 0; b < BUDGETS.length; b++) d.put(pct0(BUDGETS[b]), differ[b]);
    j.put("differingOutputs", d);
    j.put("note", note);
    return j;
  }

  /** ctxpack − the best baseline at each budget, per question (retained 1, else 0). */
  private List<Map<String, Object>> paired(List<Tally> tallies) {
    List<Map<String, Object>> out = new ArrayList<>();
    Tally ours = tallies.stream().filter(t -> t.method.role() == Role.CTXPACK).findFirst().orElseThrow();
    md.append("\nctxpack − best baseline (the baseline retaining most at that budget; oracle excluded), per question: ")
        .append("difference of retention with a 95 % bootstrap CI (").append(String.format(Locale.ROOT, "%,d", BOOTSTRAP_ROUNDS)).append(" resamples) and the p of a ")
        .append("paired randomization test (`PairedTest`, ").append(String.format(Locale.ROOT, "%,d", PairedTest.ROUNDS)).append(" sign flips); ")
        .append("wins / losses = questions only ctxpack / only the baseline retains.\n\n");
    md.append("| budget | best baseline | ctxpack | baseline | difference | 95 % CI | p | wins / losses |\n|---|---|---:|---:|---:|---|---:|---:|\n");
    for (int b = 0; b < BUDGETS.length; b++) {
      final int bb = b;
      Tally best = tallies.stream().filter(t -> t.method.role() == Role.BASELINE)
          .max(Comparator.comparingDouble(t -> t.retention(bb))).orElseThrow();
      int q = ours.retained[b].length;
      double[] diff = new double[q];
      int wins = 0;
      int losses = 0;
      for (int i = 0; i < q; i++) {
        diff[i] = (ours.retained[b][i] ? 1 : 0) - (best.retained[b][i] ? 1 : 0);
        if (diff[i] > 0) wins++;
        if (diff[i] < 0) losses++;
      }
      double mean = Arrays.stream(diff).average().orElse(0);
      double[] ci = bootstrapCi(diff, BOOTSTRAP_ROUNDS, seed);
      double p = PairedTest.pValue(diff, PairedTest.ROUNDS, PairedTest.SEED);
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %+.1f pt | [%+.1f, %+.1f] | %.4f | %d / %d |%n", pct0(BUDGETS[b]),
          best.method.name(), pct(ours.retention(b)), pct(best.retention(b)), 100 * mean, 100 * ci[0], 100 * ci[1], p, wins, losses));
      Map<String, Object> j = new LinkedHashMap<>();
      j.put("budget", pct0(BUDGETS[b]));
      j.put("baseline", best.method.name());
      j.put("difference", mean);
      j.put("ci95", ci);
      j.put("p", p);
      j.put("wins", wins);
      j.put("losses", losses);
      out.add(j);
    }
    return out;
  }

  /**
   * Tokens the ctxpack compressor keeps in threshold mode (no budget, its scorer's on-topic line)
   * for unanswerable questions beside answerable ones: a compressor that knows when nothing is on
   * topic keeps less for the former.
   */
  private Map<String, Object> unanswerable(String key, List<Article> articles, Language language, int n, Method ctxpack,
      List<Case> answerable, int[] answerableIn) throws IOException {
    Map<String, Object> j = new LinkedHashMap<>();
    List<Case> cases = CompressData.cases(articles, Half.REPORT, false, n, seed);
    long total = articles.stream().filter(a -> CompressData.split(a.title()) == Half.REPORT)
        .flatMap(a -> a.paragraphs().stream()).flatMap(p -> p.questions().stream()).filter(CompressData.Qa::impossible).count();
    md.append(String.format(Locale.ROOT, "%nUnanswerable questions (`is_impossible`, REPORT half: %,d %s of %,d, seed %d, same "
        + "construction with the question's own paragraph): ", cases.size(), cases.size() < total ? "sampled" : "all", total, seed));
    j.put("reportHalfQuestions", total);
    ExtractiveCompressor mode = ctxpackCompressor(embedder);
    if (Double.isNaN(mode.scorer().onTopic())) {
      String why = "the ctxpack scorer has no on-topic line (onTopic() is NaN)";
      md.append("threshold mode not measured (").append(why).append(").\n");
      j.put("skipped", why);
      return j;
    }
    warm(cases, language, key + " unanswerable");
    java.util.TreeSet<Double> lines = new java.util.TreeSet<>();
    for (Case c : answerable) lines.add(mode.scorer().onTopic(c.question()));
    for (Case c : cases) lines.add(mode.scorer().onTopic(c.question()));
    md.append("mean tokens the ctxpack compressor keeps in threshold mode (`CompressOptions.threshold(x)`, no budget, x = the ")
        .append("scorer's on-topic line for the query, `onTopic(query)`: ")
        .append(lines.stream().map(x -> String.format(Locale.ROOT, "%.4f", x)).collect(Collectors.joining(", "))).append(").\n\n");
    md.append("| questions | requests | mean input | mean tokens kept | share kept | answer retained |\n|---|---:|---:|---:|---:|---:|\n");
    for (boolean ans : new boolean[] {true, false}) {
      List<Case> cs = ans ? answerable : cases;
      int[] in = new int[cs.size()];
      int[] kept = new int[cs.size()];
      int retained = 0;
      for (int i = 0; i < cs.size(); i++) {
        Case c = cs.get(i);
        in[i] = tokensIn(c);
        double line = mode.scorer().onTopic(c.question());
        Compression r = mode.compress(c.question(), c.inputs(), CompressOptions.threshold(line));
        String joined = texts(r).joined();
        for (Compression.Compressed p : r.passages()) kept[i] += tokenizer.count(p.text());
        if (ans && c.answers().stream().anyMatch(joined::contains)) retained++;
      }
      double meanIn = Arrays.stream(in).average().orElse(Double.NaN);
      double meanKept = Arrays.stream(kept).average().orElse(Double.NaN);
      md.append(String.format(Locale.ROOT, "| %s | %,d | %.0f | %.1f | %s | %s |%n", ans ? "answerable" : "unanswerable", cs.size(),
          meanIn, meanKept, pct(share(kept, in)), ans ? pct((double) retained / Math.max(1, cs.size())) : "n/a"));
      Map<String, Object> jj = new LinkedHashMap<>();
      jj.put("requests", cs.size());
      jj.put("meanTokensIn", meanIn);
      jj.put("meanTokensKept", meanKept);
      jj.put("meanShareKept", share(kept, in));
      if (ans) jj.put("retention", (double) retained / Math.max(1, cs.size()));
      j.put(ans ? "answerable" : "unanswerable", jj);
    }
    j.put("thresholds", List.copyOf(lines));
    return j;
  }

  /** Candidate-sentence ranking on WikiQA: MAP and MRR per scorer over questions with a positive. */
  private void wikiQa(List<WikiQuestion> all) throws IOException {
    Map<Half, Integer> halves = CompressData.halves(all.stream().map(WikiQuestion::id).toList());
    List<WikiQuestion> qs = all.stream().filter(q -> CompressData.split(q.id()) == Half.REPORT && q.hasPositive()).toList();
    long reportAll = all.stream().filter(q -> CompressData.split(q.id()) == Half.REPORT).count();
    System.err.println("[wikiqa] split by QuestionID: " + halves.get(Half.FIT) + " questions FIT, " + halves.get(Half.REPORT) + " REPORT");
    Map<String, SentenceScorer> scorers = new LinkedHashMap<>();
    scorers.put("bm25", new Bm25SentenceScorer());
    scorers.put("embedding", new EmbeddingSentenceScorer(embedder));
    scorers.put(CTXPACK, ctxpackScorer());
    List<String> texts = new ArrayList<>();
    for (WikiQuestion q : qs) {
      texts.add(q.question());
      texts.addAll(q.sentences());
    }
    embedAll(texts, "wikiqa");
    md.append("\n## WikiQA dev (en): ranking candidate sentences\n\n");
    md.append(String.format(Locale.ROOT, "Split by QuestionID: %d questions FIT, %d REPORT; %d REPORT questions with at least one "
        + "positive sentence evaluated (of %d), %d candidate sentences. Each candidate is its own input and its own sentence "
        + "(never re-segmented); ties keep file order. ctxpack = the compressor's own scorer (`ExtractiveCompressor.defaults(...).scorer()`, "
        + "the fitted `FeatureSentenceScorer` on the same vectors), so its passage-level features see one-sentence passages.%n%n", halves.get(Half.FIT), halves.get(Half.REPORT), qs.size(), reportAll,
        qs.stream().mapToInt(q -> q.sentences().size()).sum()));
    md.append("| scorer | MAP | MRR |\n|---|---:|---:|\n");
    Map<String, Object> j = new LinkedHashMap<>();
    j.put("split", halves);
    j.put("questions", qs.size());
    Map<String, Object> js = new LinkedHashMap<>();
    for (Map.Entry<String, SentenceScorer> e : scorers.entrySet()) {
      double ap = 0;
      double rr = 0;
      for (WikiQuestion q : qs) {
        List<CompressInput> inputs = new ArrayList<>();
        for (int i = 0; i < q.sentences().size(); i++) inputs.add(CompressInput.of("s" + i, q.sentences().get(i)));
        double[] scores = e.getValue().score(q.question(), inputs, GreedySelector.wholeInputs(inputs));
        ap += averagePrecision(scores, q.labels());
        rr += reciprocalRank(scores, q.labels());
      }
      double map = qs.isEmpty() ? Double.NaN : ap / qs.size();
      double mrr = qs.isEmpty() ? Double.NaN : rr / qs.size();
      md.append(String.format(Locale.ROOT, "| %s | %.4f | %.4f |%n", e.getKey(), map, mrr));
      Map<String, Object> jm = new LinkedHashMap<>();
      jm.put("MAP", map);
      jm.put("MRR", mrr);
      js.put(e.getKey(), jm);
    }
    j.put("scorers", js);
    json.put("wikiqa", j);
  }

  /** The sentence scorer of ctxpack's compressor. */
  SentenceScorer ctxpackScorer() {
    return ctxpackCompressor(embedder).scorer();
  }

  // ---- helpers ----

  private int tokensIn(Case c) {
    int t = 0;
    for (CompressInput i : c.inputs()) t += tokenizer.count(i.parts().get(0).text());
    return t;
  }

  /** floor(share × tokensIn) per budget, at least 1. */
  static int[] budgets(int tokensIn) {
    int[] b = new int[BUDGETS.length];
    for (int i = 0; i < b.length; i++) b[i] = Math.max(1, (int) Math.floor(BUDGETS[i] * tokensIn));
    return b;
  }

  /** Embeds the questions, paragraphs and sentences of {@code cases} in large batches, so later calls hit the cache. */
  private void warm(List<Case> cases, Language language, String what) {
    List<String> texts = new ArrayList<>();
    for (Case c : cases) {
      texts.add(c.question());
      for (CompressInput i : c.inputs()) texts.add(i.parts().get(0).text());
      for (Sentence s : GreedySelector.sentences(c.inputs(), language)) texts.add(s.text());
    }
    embedAll(texts, what);
  }

  private void embedAll(List<String> texts, String what) {
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(texts));
    long t0 = System.nanoTime();
    for (int i = 0; i < distinct.size(); i += 512) {
      embedder.embed(distinct.subList(i, Math.min(distinct.size(), i + 512)));
      log.printf("[%s] embedded %,d of %,d distinct texts%n", what, Math.min(distinct.size(), i + 512), distinct.size());
    }
    log.printf("[%s] embedding took %.1f s%n", what, (System.nanoTime() - t0) / 1e9);
  }

  static double share(int[] out, int[] in) {
    double s = 0;
    for (int i = 0; i < out.length; i++) s += in[i] == 0 ? 0 : (double) out[i] / in[i];
    return out.length == 0 ? Double.NaN : s / out.length;
  }

  /** Percentile 95 % CI of the mean of {@code diff} from {@code rounds} seeded resamples with replacement. */
  static double[] bootstrapCi(double[] diff, int rounds, long seed) {
    if (diff.length == 0) return new double[] {Double.NaN, Double.NaN};
    SplittableRandom random = new SplittableRandom(seed);
    double[] means = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      double s = 0;
      for (int i = 0; i < diff.length; i++) s += diff[random.nextInt(diff.length)];
      means[r] = s / diff.length;
    }
    Arrays.sort(means);
    return new double[] {means[(int) Math.floor(0.025 * (rounds - 1))], means[(int) Math.ceil(0.975 * (rounds - 1))]};
  }

  /** Candidates by score, best first; ties keep their order. */
  static int[] ranking(double[] scores) {
    Integer[] order = new Integer[scores.length];
    for (int i = 0; i < order.length; i++) order[i] = i;
    Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> Double.isNaN(scores[i]) ? Double.POSITIVE_INFINITY : -scores[i])
        .thenComparingInt(i -> i));
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  /** Mean over the positives of the precision at each positive's rank (0 without positives). */
  static double averagePrecision(double[] scores, List<Boolean> labels) {
    int[] order = ranking(scores);
    int hits = 0;
    double sum = 0;
    for (int r = 0; r < order.length; r++) {
      if (labels.get(order[r])) {
        hits++;
        sum += (double) hits / (r + 1);
      }
    }
    return hits == 0 ? 0 : sum / hits;
  }

  /** 1 / rank of the first positive (0 without positives). */
  static double reciprocalRank(double[] scores, List<Boolean> labels) {
    int[] order = ranking(scores);
    for (int r = 0; r < order.length; r++) {
      if (labels.get(order[r])) return 1.0 / (r + 1);
    }
    return 0;
  }

  static String pct(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", 100 * v);
  }

  static String pct0(double v) {
    return String.format(Locale.ROOT, "%.0f %%", 100 * v);
  }

  static String git(String... cmd) {
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
}
