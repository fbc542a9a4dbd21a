package dev.ctxpack.bench.compress;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Case;
import dev.ctxpack.bench.compress.CompressData.Half;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.FeatureSentenceScorer;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.text.LanguageDetector;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Whether the sentence probabilities of {@link FeatureSentenceScorer} mean what they say. For each
 * shipped model that applies ({@code en} with MiniLM sentence vectors, {@code en.tokens} with
 * MiniLM's token states, and {@code en.lexical} on SQuAD 2.0 dev, {@code pt.lexical} and {@code
 * pt.lexical.tokens} on FaQuAD) and each half of {@link CompressData#split}, the requests are
 * built as {@link CompressEval} builds them ({@link CompressData#cases}, same seed and sample size),
 * segmented as the compressor segments them, and every sentence gets the scorer's probability and a
 * label (it holds a gold answer string). Reported: a reliability table of equal-width bins, the
 * ECE with a 95 % interval from resampling questions, the Brier score, the signed gap in [0.2,
 * 0.8). {@code --baseline FILE} scores the same sentences with other models (a properties file in
 * the resource's format) in the same run, as "before". Writes {@code calibration-eval.md}, {@code
 * calibration-eval.json} and {@code calibration-<set>-<lang>.svg}. {@code ./ctxpack eval calibration}.
 */
@Command(name = "eval calibration", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Reliability of the compressor's sentence probabilities: reliability bins, ECE and Brier per model and half.")
public final class CalibrationEval implements Callable<Integer> {
  static final int ROUNDS = 1000;

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/calibration).")
  Path out;

  @Option(names = "--questions", description = "Answerable questions sampled per set and half (default: ${DEFAULT-VALUE}, as the compress eval).")
  int questions = 1000;

  @Option(names = "--seed", description = "Seed of the question sample and of each request's paragraphs (default: ${DEFAULT-VALUE}, as the compress eval).")
  long seed = 42;

  @Option(names = "--bins", description = "Equal-width bins of [0, 1] (default: ${DEFAULT-VALUE}).")
  int bins = 10;

  @Option(names = "--baseline", description = "Models (FeatureSentenceScorer properties) scored beside the shipped ones, labelled 'before'.")
  Path baseline;

  @Option(names = "--predictions", description = "Also write every sentence's probability and label here (TSV: set, model, models, half, question, p, label).")
  Path predictions;

  @Option(names = "--progress", description = "Progress on stderr.")
  boolean progress;

  private String[] args = new String[0];
  private PrintStream log = new PrintStream(java.io.OutputStream.nullOutputStream());

  public static void main(String[] args) {
    System.exit(run(args));
  }

  public static int run(String[] args) {
    CalibrationEval e = new CalibrationEval();
    e.args = args.clone();
    return RunSupport.execute(e, "calibration", args);
  }

  /** One evaluated model on one half: its figures and the sentences' predictions. */
  record Row(String set, String model, String models, Half half, int questions, int questionsWithoutAnswerSentence,
      int queriesOtherLanguage, Calibration.Result result, double[] eceInterval) {}

  /** Sentences of one half's requests with their labels; the scorer fills in the probabilities. */
  record Sentences(List<Case> cases, List<List<Sentence>> sentences, boolean[] label, int[] question, int withoutAnswer) {}

  @Override
  public Integer call() throws Exception {
    if (progress) log = System.err;
    if (questions < 1) throw new IllegalArgumentException("--questions must be >= 1, was " + questions);
    if (bins < 2) throw new IllegalArgumentException("--bins must be >= 2, was " + bins);
    Map<String, Map<FeatureSentenceScorer.Key, FeatureSentenceScorer.Model>> modelSets = new LinkedHashMap<>();
    if (baseline != null) modelSets.put("before", load(baseline));
    modelSets.put("shipped", shippedModels());
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/calibration");
    String command = "./ctxpack eval calibration" + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining());
    Map<String, String> env = Environment.describe();
    long t0 = System.nanoTime();
    CachingEmbedder embedder = new CachingEmbedder(new MiniLmEmbedder(), 1_000_000);
    ExtractiveCompressor segmenter = ExtractiveCompressor.builder().scorer(FeatureSentenceScorer.defaults(SentenceVectors.none())).build();
    List<Row> rows = new ArrayList<>();
    Map<String, List<CalibrationChart.Series>> charts = new LinkedHashMap<>();
    String[][] plan = {
        {"squad", "squad_v2_en/dev-v2.0.json", "SQuAD 2.0 dev (en)", "en", "en"},
        {"squad", "squad_v2_en/dev-v2.0.json", "SQuAD 2.0 dev (en)", "en", "en.tokens"},
        {"squad", "squad_v2_en/dev-v2.0.json", "SQuAD 2.0 dev (en)", "en", "en.lexical"},
        {"faquad", "faquad/train.json", "FaQuAD (pt-BR)", "pt", "pt.lexical"},
        {"faquad", "faquad/train.json", "FaQuAD (pt-BR)", "pt", "pt.lexical.tokens"}};
    Map<String, List<Article>> loaded = new LinkedHashMap<>();
    Map<String, Sentences> built = new LinkedHashMap<>();
    int color = 0;
    StringBuilder tsv = new StringBuilder("set\tmodel\tmodels\thalf\tquestion\tp\tlabel\n");
    for (String[] p : plan) {
      List<Article> articles = loaded.computeIfAbsent(p[1], f -> {
        try {
          return CompressData.loadSquad(dataDir.resolve(f));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      String chartKey = p[0] + "-" + p[3];
      for (Half half : new Half[] {Half.REPORT, Half.FIT}) {
        Sentences s = built.computeIfAbsent(p[0] + half, k -> sentences(articles, half, segmenter));
        boolean vectors = !p[4].endsWith("lexical");
        boolean tokens = p[4].endsWith("tokens");
        if (vectors && !tokens) warm(embedder, s);
        for (Map.Entry<String, Map<FeatureSentenceScorer.Key, FeatureSentenceScorer.Model>> m : modelSets.entrySet()) {
          // en: the sentence vectors alone (as an index stores them); en.tokens: the token states' pass.
          SentenceVectors source = !vectors ? SentenceVectors.none()
              : tokens ? SentenceVectors.embedder(embedder) : SentenceVectors.embedder(embedder).withoutTokens();
          FeatureSentenceScorer scorer = new FeatureSentenceScorer(m.getValue(), source);
          log.printf("[%s] %s %s (%s models) ...%n", p[0], p[4], half, m.getKey());
          double[] prob = new double[s.label().length];
          int k = 0;
          int other = 0;
          Language want = p[3].equals("pt") ? Language.PT : Language.EN;
          LanguageDetector detector = new LanguageDetector();
          for (int c = 0; c < s.cases().size(); c++) {
            Case cs = s.cases().get(c);
            if (detector.detect(cs.question()) != want) other++;
            double[] sp = scorer.score(cs.question(), cs.inputs(), s.sentences().get(c));
            System.arraycopy(sp, 0, prob, k, sp.length);
            k += sp.length;
          }
          if (predictions != null) {
            for (int i = 0; i < prob.length; i++) {
              tsv.append(p[0]).append('\t').append(p[4]).append('\t').append(m.getKey()).append('\t').append(half).append('\t')
                  .append(s.question()[i]).append('\t').append(String.format(Locale.ROOT, "%.9f", prob[i])).append('\t')
                  .append(s.label()[i] ? 1 : 0).append('\n');
            }
          }
          Calibration.Result r = Calibration.of(prob, s.label(), bins);
          double[] ci = Calibration.eceInterval(prob, s.label(), s.question(), bins, ROUNDS, seed);
          rows.add(new Row(p[0], p[4], m.getKey(), half, s.cases().size(), s.withoutAnswer(), other, r, ci));
          if (m.getKey().equals("shipped")) {
            charts.computeIfAbsent(chartKey, x -> new ArrayList<>())
                .add(new CalibrationChart.Series(p[4] + ", " + half.name() + " half", r, half == Half.FIT, color));
          }
        }
      }
      color++;
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    String commit = CompressEval.git("rev-parse", "--short", "HEAD");
    String dirty = CompressEval.git("status", "--porcelain", "--untracked-files=no");
    String commitNote = commit + (dirty.isBlank() ? "" : " (with uncommitted changes)");
    Files.createDirectories(outDir);
    if (predictions != null) Files.writeString(predictions, tsv, StandardCharsets.UTF_8);
    Map<String, String> titles = Map.of("squad-en", "SQuAD 2.0 dev (en)", "faquad-pt", "FaQuAD (pt-BR)");
    for (Map.Entry<String, List<CalibrationChart.Series>> e : charts.entrySet()) {
      String svg = CalibrationChart.svg("Sentence probabilities against answer frequency: " + titles.get(e.getKey()), e.getValue());
      Files.writeString(outDir.resolve("calibration-" + e.getKey() + ".svg"), svg, StandardCharsets.UTF_8);
    }
    String md = markdown(rows, command, commitNote, env, secs, embedder.id());
    Files.writeString(outDir.resolve("calibration-eval.md"), md, StandardCharsets.UTF_8);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("command", command);
    json.put("commit", commitNote);
    json.put("environment", env);
    json.put("embedder", embedder.id());
    json.put("seed", seed);
    json.put("questionsPerHalf", questions);
    json.put("bins", bins);
    json.put("rows", rows.stream().map(CalibrationEval::json).toList());
    json.put("seconds", secs);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(outDir.resolve("calibration-eval.json").toFile(), json);
    System.out.println(md);
    System.err.println("wrote " + outDir.resolve("calibration-eval.md") + ", calibration-eval.json and the calibration SVGs");
    return 0;
  }

  /** The requests of {@code half} as the compress eval builds them, segmented as the compressor does, labelled. */
  private Sentences sentences(List<Article> articles, Half half, ExtractiveCompressor segmenter) {
    List<Case> cases = CompressData.cases(articles, half, true, questions, seed);
    List<List<Sentence>> all = new ArrayList<>();
    List<Boolean> labels = new ArrayList<>();
    List<Integer> question = new ArrayList<>();
    int without = 0;
    for (int c = 0; c < cases.size(); c++) {
      List<Sentence> ss = segmenter.sentences(cases.get(c).inputs());
      all.add(ss);
      boolean any = false;
      for (Sentence s : ss) {
        boolean pos = holdsAnswer(s.text(), cases.get(c).answers());
        any |= pos;
        labels.add(pos);
        question.add(c);
      }
      if (!any) without++;
    }
    boolean[] y = new boolean[labels.size()];
    for (int i = 0; i < y.length; i++) y[i] = labels.get(i);
    return new Sentences(cases, all, y, question.stream().mapToInt(Integer::intValue).toArray(), without);
  }

  /** A sentence's label: it holds one of the gold answer strings (exact, case-sensitive, as the compress eval's retention). */
  static boolean holdsAnswer(String sentence, List<String> answers) {
    for (String a : answers) if (sentence.contains(a)) return true;
    return false;
  }

  private void warm(CachingEmbedder embedder, Sentences s) {
    List<String> texts = new ArrayList<>();
    for (int c = 0; c < s.cases().size(); c++) {
      texts.add(s.cases().get(c).question());
      for (Sentence x : s.sentences().get(c)) texts.add(x.text());
    }
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(texts));
    for (int i = 0; i < distinct.size(); i += 512) {
      embedder.embed(distinct.subList(i, Math.min(distinct.size(), i + 512)));
      log.printf("embedded %,d of %,d distinct texts%n", Math.min(distinct.size(), i + 512), distinct.size());
    }
  }

  static Map<FeatureSentenceScorer.Key, FeatureSentenceScorer.Model> shippedModels() throws IOException {
    try (InputStream in = FeatureSentenceScorer.class.getResourceAsStream(FeatureSentenceScorer.RESOURCE)) {
      if (in == null) throw new IllegalStateException("missing resource " + FeatureSentenceScorer.RESOURCE);
      Properties p = new Properties();
      p.load(in);
      return FeatureSentenceScorer.parse(p);
    }
  }

  static Map<FeatureSentenceScorer.Key, FeatureSentenceScorer.Model> load(Path file) throws IOException {
    if (!Files.isRegularFile(file)) throw new IllegalArgumentException("--baseline " + file + ": no such file");
    Properties p = new Properties();
    try (var r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
      p.load(r);
    }
    try {
      var m = FeatureSentenceScorer.parse(p);
      if (!m.containsKey(new FeatureSentenceScorer.Key(Language.EN, false))) {
        throw new IllegalArgumentException("has no en.lexical model");
      }
      return m;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--baseline " + file + ": " + e.getMessage(), e);
    }
  }

  private String markdown(List<Row> rows, String command, String commit, Map<String, String> env, double secs, String embedderId) {
    StringBuilder md = new StringBuilder("# Calibration of the compressor's sentence probabilities\n\n");
    md.append("Command: `").append(command).append("`\n\n");
    md.append("Commit: ").append(commit).append("; ").append(env.get("cores")).append(" cores, JDK ").append(env.get("java.version"))
        .append("; load average at start ").append(env.get("loadAverageAtStart")).append("; ").append(String.format(Locale.ROOT, "%.0f s", secs))
        .append(".\n\n");
    md.append(String.format(Locale.ROOT, "Requests as `CompressEval` builds them (`CompressData.cases`, answerable questions, at most %,d "
        + "per half, seed %d), segmented as `ExtractiveCompressor` segments them; a sentence is positive when it holds a gold answer "
        + "string. Vectors (model `en`): %s on the fly. %d equal-width bins; ECE = sum over bins of count / n × |observed − "
        + "predicted|, 95 %% interval from %,d resamples of whole questions; Brier = mean (p − label)²; gap 0.2–0.8 = observed − "
        + "predicted frequency over the sentences with p in [0.2, 0.8) (positive: the model is under-confident there).%n%n",
        questions, seed, embedderId, bins, ROUNDS));
    md.append("| set | model | models | half | questions | sentences | positives | mean p | ECE [95 % CI] | max bin gap | Brier | gap 0.2–0.8 (sentences) |\n");
    md.append("|---|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|\n");
    for (Row r : rows) {
      Calibration.Result c = r.result();
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %,d | %,d | %,d (%.2f %%) | %.4f | %.4f [%.4f, %.4f] | %.3f | %.4f | %s (%,d) |%n",
          r.set(), r.model(), r.models(), r.half(), r.questions(), c.n(), c.positives(), 100 * c.baseRate(), c.meanPredicted(), c.ece(),
          r.eceInterval()[0], r.eceInterval()[1], c.maxGap(), c.brier(), Double.isNaN(c.midGap()) ? "n/a" : String.format(Locale.ROOT, "%+.3f", c.midGap()),
          c.midCount()));
    }
    md.append('\n');
    java.util.Set<String> told = new java.util.HashSet<>();
    for (Row r : rows) {
      if (!r.models().equals("shipped") || !told.add(r.set() + r.half())) continue;
      md.append(String.format(Locale.ROOT, "- %s, %s half: %d of %d questions have no sentence holding the answer (it crosses a "
          + "sentence boundary; all their sentences count as negatives); %d queries are detected as another language than the "
          + "set's and are scored by that language's model, as the compressor would.%n", r.set(), r.half(),
          r.questionsWithoutAnswerSentence(), r.questions(), r.queriesOtherLanguage()));
    }
    md.append("\nReliability bins (REPORT half):\n\n");
    for (Row r : rows) {
      if (r.half() != Half.REPORT) continue;
      md.append("\n**").append(r.set()).append(", ").append(r.model()).append(", ").append(r.models()).append(" models**\n\n");
      md.append("| bin | sentences | predicted | observed | observed − predicted |\n|---|---:|---:|---:|---:|\n");
      for (Calibration.Bin b : r.result().bins()) {
        md.append(String.format(Locale.ROOT, "| %.1f–%.1f | %,d | %s | %s | %s |%n", b.lo(), b.hi(), b.count(), num(b.predicted()),
            num(b.observed()), b.count() == 0 ? "" : String.format(Locale.ROOT, "%+.3f", b.observed() - b.predicted())));
      }
    }
    return md.toString();
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static Map<String, Object> json(Row r) {
    Map<String, Object> j = new LinkedHashMap<>();
    Calibration.Result c = r.result();
    j.put("set", r.set());
    j.put("model", r.model());
    j.put("models", r.models());
    j.put("half", r.half().name());
    j.put("questions", r.questions());
    j.put("questionsWithoutAnswerSentence", r.questionsWithoutAnswerSentence());
    j.put("queriesDetectedAsAnotherLanguage", r.queriesOtherLanguage());
    j.put("sentences", c.n());
    j.put("positives", c.positives());
    j.put("meanPredicted", c.meanPredicted());
    j.put("baseRate", c.baseRate());
    j.put("ece", c.ece());
    j.put("ece95", r.eceInterval());
    j.put("maxBinGap", c.maxGap());
    j.put("brier", c.brier());
    j.put("midGap", Double.isNaN(c.midGap()) ? null : c.midGap());
    j.put("midCount", c.midCount());
    List<Map<String, Object>> bs = new ArrayList<>();
    for (Calibration.Bin b : c.bins()) {
      Map<String, Object> jb = new LinkedHashMap<>();
      jb.put("lo", b.lo());
      jb.put("hi", b.hi());
      jb.put("count", b.count());
      jb.put("positives", b.positives());
      jb.put("predicted", Double.isNaN(b.predicted()) ? null : b.predicted());
      jb.put("observed", Double.isNaN(b.observed()) ? null : b.observed());
      bs.add(jb);
    }
    j.put("bins", bs);
    return j;
  }
}
