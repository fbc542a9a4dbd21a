package dev.ctxpack.bench.relevance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.compress.CompressData;
import dev.ctxpack.bench.data.CranfieldLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The relevance line measured through the CLI, as a user runs it: every paragraph of SQuAD 2.0 dev
 * ingested as one corpus by {@code ctxpack ingest} (defaults), then {@code ctxpack pack --batch}
 * over answerable and unanswerable SQuAD questions and the Cranfield queries (aerodynamics: off the
 * corpus), once per configuration over the same index and the same questions:
 *
 * <ul>
 *   <li><b>stuffing</b>: {@code --no-compress --no-dedup --no-mmr --no-rerank}, whole chunks until the
 *       budget is full (what a framework retriever and a prompt template do);
 *   <li><b>fill</b>: {@code --min-relevance 0}, every stage, compression filling the budget (ctxpack
 *       before the line);
 *   <li><b>ctxpack</b>: the shipped default, the relevance line of the preset;
 *   <li>with {@code --sweep}, {@code --min-relevance P} for each P given; with {@code --sweep-coverage},
 *       {@code --min-coverage C} for each C given.
 * </ul>
 *
 * A question's evidence retains its answer when a gold answer string is in its sources' text (exact,
 * case-sensitive); its tokens are the budget's {@code sources} component; it is insufficient when the
 * package says {@code "evidence": {"status": "insufficient"}}. Questions are sampled per half
 * ({@link CompressData#split} by article title, as the compression evaluation; Cranfield queries by
 * the parity of their number): choose on FIT, report on REPORT.
 */
@Command(name = "relevance", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Tokens, answer retention and insufficient-evidence verdicts of pack's relevance line, beside stuffing.")
public final class RelevanceEval implements Callable<Integer> {
  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/relevance).")
  Path out;

  @Option(names = "--work", description = "Where the corpus and its index are kept and reused (default: <out>/work).")
  Path work;

  @Option(names = "--ctxpack", description = "The CLI jar (default: ctxpack-app/target/ctxpack.jar).")
  Path jar;

  @Option(names = "--seed", description = "Seed of the question samples (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(names = "--answerable", description = "Answerable questions sampled per half (default: ${DEFAULT-VALUE}).")
  int answerable = 300;

  @Option(names = "--unanswerable", description = "Unanswerable questions sampled per half (default: ${DEFAULT-VALUE}).")
  int unanswerable = 200;

  @Option(names = "--halves", split = ",", description = "fit, report or both (default: ${DEFAULT-VALUE}).")
  List<String> halves = List.of("report");

  @Option(names = "--preset", description = "The preset every configuration packs to (default: ${DEFAULT-VALUE}).")
  String preset = "medium";

  @Option(names = "--set", description = "squad: SQuAD 2.0 dev (en), with Cranfield off the corpus; faquad: FaQuAD (pt), with"
      + " ASSIN sentences (pt-BR, pt-PT news) off the corpus (default: ${DEFAULT-VALUE}).")
  String set = "squad";

  @Option(names = "--off-corpus", description = "Off-corpus queries sampled per half with --set faquad (default: ${DEFAULT-VALUE}).")
  int offCorpus = 113;

  @Option(names = "--sweep", split = ",", description = "Extra configurations: --min-relevance P for each P.")
  List<Double> sweep = List.of();

  @Option(names = "--sweep-coverage", split = ",",
      description = "Extra configurations: --min-coverage C for each C given (a number in [0, 1] or off).")
  List<String> sweepCoverage = List.of();

  private final PrintStream log = System.err;
  private static final ObjectMapper JSON = new ObjectMapper();

  public static int run(String[] args) {
    return RunSupport.execute(new RelevanceEval(), "relevance", args);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** One question of the evaluation: its kind (answerable, unanswerable, off-corpus) and gold answers. */
  record Question(String id, String kind, String text, List<String> answers) {}

  /** What one configuration did with one question. */
  record Outcome(boolean retained, int tokens, boolean insufficient, int sources) {}

  @Override
  public Integer call() throws Exception {
    Path dataDir = data != null ? data : Path.of(System.getenv().getOrDefault("CTXPACK_DATA", "../shared/data"));
    Path outDir = out != null ? out : Path.of("ctxpack-bench/target/relevance");
    Path workDir = work != null ? work : outDir.resolve("work");
    Path cli = jar != null ? jar : Path.of("ctxpack-app/target/ctxpack.jar");
    if (!Files.isRegularFile(cli)) throw new IllegalArgumentException("--ctxpack: no CLI jar at " + cli + " (mvn package)");
    Files.createDirectories(workDir);
    boolean pt = switch (set) {
      case "squad" -> false;
      case "faquad" -> true;
      default -> throw new IllegalArgumentException("--set must be squad or faquad, was '" + set + "'");
    };
    List<CompressData.Article> articles = CompressData.loadSquad(dataDir.resolve(pt ? "faquad/train.json" : "squad_v2_en/dev-v2.0.json"));
    Map<String, String> offCorpusQueries = pt ? assin(dataDir.resolve("assin")) : CranfieldLoader.load(dataDir.resolve("cranfield")).queries();
    if (pt) workDir = workDir.resolve("faquad");
    Files.createDirectories(workDir);
    Path index = ingest(cli, articles, workDir, pt ? "faquad" : "squad");

    Map<String, List<String>> configs = new LinkedHashMap<>();
    configs.put("stuffing", List.of("--no-compress", "--no-dedup", "--no-mmr", "--no-rerank"));
    configs.put("fill (--min-relevance 0)", List.of("--min-relevance", "0"));
    configs.put("ctxpack (default line)", List.of());
    for (double p : sweep) configs.put("--min-relevance " + p, List.of("--min-relevance", Double.toString(p)));
    for (String c : sweepCoverage) configs.put("--min-coverage " + c, List.of("--min-coverage", c));

    StringBuilder md = new StringBuilder("# Relevance line: tokens and retention beside stuffing (" + set + ")\n\n");
    ObjectNode json = JSON.createObjectNode();
    for (String h : halves.contains("both") ? List.of("fit", "report") : halves) {
      CompressData.Half half = CompressData.Half.valueOf(h.toUpperCase(Locale.ROOT));
      List<Question> qs = pt ? questionsPt(articles, offCorpusQueries, half) : questions(articles, offCorpusQueries, half);
      Path batch = workDir.resolve("batch-" + h + ".jsonl");
      writeBatch(qs, batch);
      Map<String, List<Outcome>> results = new LinkedHashMap<>();
      for (var c : configs.entrySet()) {
        long t0 = System.nanoTime();
        results.put(c.getKey(), pack(cli, index, batch, c.getValue(), qs));
        log.printf(Locale.ROOT, "%s half, %s: %.0f s%n", h, c.getKey(), (System.nanoTime() - t0) / 1e9);
      }
      md.append(RelevanceReport.table(half, qs, results));
      json.set(h, RelevanceReport.json(qs, results));
    }
    Files.createDirectories(outDir);
    Files.writeString(outDir.resolve("relevance-eval.md"), md.toString(), StandardCharsets.UTF_8);
    Files.writeString(outDir.resolve("relevance-eval.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json),
        StandardCharsets.UTF_8);
    System.out.print(md);
    return 0;
  }

  /** Every paragraph of the set as one JSON Lines corpus, ingested once into {@code work/index}. */
  private Path ingest(Path cli, List<CompressData.Article> articles, Path workDir, String name)
      throws IOException, InterruptedException {
    Path index = workDir.resolve("index");
    if (Files.isDirectory(index)) return index;
    Path corpus = workDir.resolve(name.equals("squad") ? "squad-dev-paragraphs.jsonl" : name + "-paragraphs.jsonl");
    StringBuilder sb = new StringBuilder();
    for (int a = 0; a < articles.size(); a++) {
      CompressData.Article art = articles.get(a);
      for (int p = 0; p < art.paragraphs().size(); p++) {
        ObjectNode d = JSON.createObjectNode().put("id", String.format(Locale.ROOT, "%s-%02d-%03d", name, a, p))
            .put("title", art.title().replace('_', ' ')).put("text", art.paragraphs().get(p).text());
        sb.append(JSON.writeValueAsString(d)).append('\n');
      }
    }
    Files.writeString(corpus, sb.toString(), StandardCharsets.UTF_8);
    Path scratch = workDir.resolve("index.partial");
    run(cli, List.of("ingest", "--index", scratch.toString(), "--progress", "never", corpus.toString()), null);
    Files.move(scratch, index);
    return index;
  }

  /** The half's questions: a seeded sample of answerable and unanswerable SQuAD questions, then its Cranfield queries. */
  List<Question> questions(List<CompressData.Article> articles, Map<String, String> cranfield, CompressData.Half half) {
    List<Question> yes = new ArrayList<>();
    List<Question> no = new ArrayList<>();
    for (CompressData.Article a : articles) {
      if (CompressData.split(a.title()) != half) continue;
      for (CompressData.Paragraph p : a.paragraphs()) {
        for (CompressData.Qa qa : p.questions()) {
          if (qa.impossible()) no.add(new Question(qa.id(), "unanswerable", qa.question(), List.of()));
          else yes.add(new Question(qa.id(), "answerable", qa.question(), qa.answers()));
        }
      }
    }
    List<Question> out = new ArrayList<>(sample(yes, answerable, seed));
    out.addAll(sample(no, unanswerable, seed + 1));
    cranfield.forEach((id, q) -> {
      boolean even = Integer.parseInt(id.replaceAll("\\D", "")) % 2 == 0;
      if (even == (half == CompressData.Half.FIT)) out.add(new Question("cran-" + id, "off-corpus", q, List.of()));
    });
    return out;
  }

  /**
   * The half's Portuguese questions: a seeded sample of FaQuAD's (all answerable), then a seeded
   * sample of ASSIN sentences as off-corpus queries (news against a corpus of university rules and
   * computing), halved by the parity of their id's hash as the articles are.
   */
  List<Question> questionsPt(List<CompressData.Article> articles, Map<String, String> assin, CompressData.Half half) {
    List<Question> yes = new ArrayList<>();
    for (CompressData.Article a : articles) {
      if (CompressData.split(a.title()) != half) continue;
      for (CompressData.Paragraph p : a.paragraphs()) {
        for (CompressData.Qa qa : p.questions()) yes.add(new Question(qa.id(), "answerable", qa.question(), qa.answers()));
      }
    }
    List<Question> off = new ArrayList<>();
    assin.forEach((id, text) -> {
      if (CompressData.split(id) == half) off.add(new Question("assin-" + id, "off-corpus", text, List.of()));
    });
    List<Question> out = new ArrayList<>(sample(yes, answerable, seed));
    out.addAll(sample(off, offCorpus, seed + 2));
    return out;
  }

  /** ASSIN's hypotheses (the second sentence of each pair) by pair id, in file order, each sentence once. */
  static Map<String, String> assin(Path dir) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (dev.ctxpack.bench.data.TextPair p : dev.ctxpack.bench.data.AssinLoader.loadAll(dir)) {
      if (seen.add(p.b().strip())) out.put(p.id(), p.b().strip());
    }
    return out;
  }

  static List<Question> sample(List<Question> all, int n, long seed) {
    List<Question> copy = new ArrayList<>(all);
    Collections.shuffle(copy, new Random(seed));
    return copy.subList(0, Math.min(n, copy.size()));
  }

  private void writeBatch(List<Question> qs, Path batch) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (Question q : qs) {
      sb.append(JSON.writeValueAsString(JSON.createObjectNode().put("id", q.id()).put("query", q.text()).put("preset", preset)))
          .append('\n');
    }
    Files.writeString(batch, sb.toString(), StandardCharsets.UTF_8);
  }

  /** {@code ctxpack pack --batch} over the questions with {@code flags}; one outcome per question, in order. */
  private List<Outcome> pack(Path cli, Path index, Path batch, List<String> flags, List<Question> qs)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("pack", "--index", index.toString(), "--batch", batch.toString()));
    args.addAll(flags);
    String stdout = run(cli, args, batch);
    String[] lines = stdout.split("\n");
    if (lines.length != qs.size()) throw new IOException("pack --batch gave " + lines.length + " lines for " + qs.size() + " questions");
    List<Outcome> out = new ArrayList<>(qs.size());
    for (int i = 0; i < lines.length; i++) {
      JsonNode p = JSON.readTree(lines[i]);
      if (p.has("error")) throw new IOException("question " + qs.get(i).id() + ": " + p.get("error"));
      StringBuilder text = new StringBuilder();
      for (JsonNode s : p.path("sources")) text.append(s.path("text").asText()).append('\n');
      boolean retained = qs.get(i).answers().stream().anyMatch(a -> text.indexOf(a) >= 0);
      out.add(new Outcome(retained, p.path("budget").path("byComponent").path("sources").asInt(),
          p.path("evidence").path("status").asText().equals("insufficient"), p.path("sources").size()));
    }
    return out;
  }

  /** Runs the CLI jar with {@code args}; its standard output, or an exception naming the exit code and stderr. */
  private static String run(Path cli, List<String> args, Path label) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        cli.toString()));
    cmd.addAll(args);
    Path err = Files.createTempFile("ctxpack-relevance", ".err");
    Path outFile = Files.createTempFile("ctxpack-relevance", ".out");
    try {
      Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).redirectOutput(outFile.toFile()).start();
      int code = p.waitFor();
      if (code != 0) {
        throw new IOException(String.join(" ", args) + " exited " + code + ": " + Files.readString(err).strip());
      }
      return Files.readString(outFile, StandardCharsets.UTF_8);
    } finally {
      Files.deleteIfExists(err);
      Files.deleteIfExists(outFile);
    }
  }
}
