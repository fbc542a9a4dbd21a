package dev.ctxpack.bench.clean;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.clean.BoilerplateCorpus.Doc;
import dev.ctxpack.bench.clean.BoilerplateCorpus.Item;
import dev.ctxpack.bench.clean.BoilerplateCorpus.Kind;
import dev.ctxpack.bench.clean.BoilerplateCorpus.Line;
import dev.ctxpack.bench.clean.BoilerplateCorpus.Style;
import dev.ctxpack.bench.data.BeirLoader;
import dev.ctxpack.bench.data.CorpusDoc;
import dev.ctxpack.bench.data.SquadLoader;
import dev.ctxpack.ingest.LoadedDocument;
import dev.ctxpack.ingest.clean.CleanOptions;
import dev.ctxpack.ingest.clean.Cleaned;
import dev.ctxpack.ingest.clean.Cleaner;
import dev.ctxpack.ingest.clean.CorpusLines;
import dev.ctxpack.ingest.clean.Removal;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Evaluates cleaning: which lines are removed from real prose with injected page heads and feet
 * and corpus boilerplate ({@link BoilerplateCorpus}), for ctxpack's {@link Cleaner} beside the
 * Haystack DocumentCleaner baseline ({@link HaystackCleaner}), in the same run on the same text.
 *
 * <p>Sets: SciFact abstracts (English; {@code --en-docs} documents of six abstracts) and FaQuAD
 * paragraphs (Portuguese; documents of three paragraphs), each paged (page starts given, as a PDF
 * loader gives them) and unpaged (the same text without them). Systems: the baseline; ctxpack with
 * page edges only; plus lines repeated in one document; plus lines repeated across the corpus (the
 * default). A line counts as removed when all its visible characters are; as touched when any is.
 * Precision: injected lines among the touched ones; recall: injected lines removed; prose damage:
 * prose lines touched. Writes {@code results.md}, {@code results.json} and {@code run.json} to
 * {@code --out}. On demand only: {@code ./ctxpack eval clean}.
 */
@Command(name = "eval clean", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Evaluates cleaning (running heads and feet, corpus boilerplate lines) on SciFact and FaQuAD text with injected boilerplate, ctxpack beside a Haystack DocumentCleaner baseline.")
public final class CleanEval implements Callable<Integer> {
  static final List<String> SYSTEMS = List.of("haystack", "ctxpack-pages", "ctxpack-pages+document", "ctxpack");

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/clean).")
  Path out;

  @Option(names = "--en-docs", description = "English documents (six SciFact abstracts each; default: ${DEFAULT-VALUE}).")
  int enDocs = 400;

  @Option(names = "--repeats-in-document", description = "ctxpack's CleanOptions.repeatsInDocument (default: ${DEFAULT-VALUE}).")
  int repeatsInDocument = CleanOptions.DEFAULT_REPEATS_IN_DOCUMENT;

  @Option(names = "--seed", description = "Seed of the injections (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  private final PrintStream log = System.err;
  private String[] args = new String[0];

  public static void main(String[] args) {
    System.exit(run(args));
  }

  public static int run(String[] args) {
    CleanEval e = new CleanEval();
    e.args = args.clone();
    return RunSupport.execute(e, "clean", args);
  }

  /** Line counts of one system on one set. */
  static final class Score {
    int injected;
    int prose;
    int removedInjected;
    int touchedInjected;
    int touchedProse;
    final Map<Kind, int[]> byKind = new LinkedHashMap<>();

    Score() {
      for (Kind k : List.of(Kind.HEADER, Kind.FOOTER, Kind.BOILERPLATE)) byKind.put(k, new int[2]);
    }

    double precision() {
      int touched = touchedInjected + touchedProse;
      return touched == 0 ? 1 : (double) touchedInjected / touched;
    }

    double recall() {
      return injected == 0 ? 1 : (double) removedInjected / injected;
    }

    double damage() {
      return prose == 0 ? 0 : (double) touchedProse / prose;
    }

    double recall(Kind k) {
      int[] c = byKind.get(k);
      return c[1] == 0 ? Double.NaN : (double) c[0] / c[1];
    }
  }

  /** One set: language, paged or not, documents, and each system's score. */
  record SetResult(String name, String language, boolean paged, int docs, int lines, Map<String, Score> scores) {}

  @Override
  public Integer call() throws Exception {
    if (enDocs < 20) throw new IllegalArgumentException("--en-docs must be >= 20, was " + enDocs);
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path scifact = dataDir.resolve("scifact/beir_test/corpus.jsonl");
    Path faquad = dataDir.resolve("faquad/train.json");
    for (Path p : List.of(scifact, faquad)) {
      if (!Files.isRegularFile(p)) throw new IllegalArgumentException("missing " + p + " (--data names the shared data folder)");
    }
    long t0 = System.nanoTime();
    List<Item> en = new ArrayList<>();
    try (Reader r = Files.newBufferedReader(scifact, StandardCharsets.UTF_8)) {
      for (CorpusDoc d : BeirLoader.readCorpus(r, scifact.toString())) {
        if (!d.text().isBlank()) en.add(new Item(d.title(), d.text()));
        if (en.size() >= enDocs * 6) break;
      }
    }
    List<Item> pt = new ArrayList<>();
    for (CorpusDoc d : SquadLoader.load("faquad", faquad).corpus()) if (!d.text().isBlank()) pt.add(new Item("", d.text()));

    List<SetResult> results = new ArrayList<>();
    for (boolean paged : new boolean[] {true, false}) {
      CleanOptions options = CleanOptions.defaults().withRepeatsInDocument(repeatsInDocument);
      results.add(evaluate("scifact-en", BoilerplateCorpus.build(en, 6, BoilerplateCorpus.EN, paged, seed), BoilerplateCorpus.EN,
          paged, options));
      results.add(evaluate("faquad-pt", BoilerplateCorpus.build(pt, 3, BoilerplateCorpus.PT, paged, seed), BoilerplateCorpus.PT,
          paged, options));
    }
    String command = "./ctxpack eval clean" + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining());
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/clean");
    Files.createDirectories(outDir);
    String md = markdown(results, command);
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    Files.writeString(outDir.resolve("results.md"), md, StandardCharsets.UTF_8);
    Files.writeString(outDir.resolve("results.json"), mapper.writeValueAsString(json(results, command)) + "\n", StandardCharsets.UTF_8);
    Map<String, Object> run = new LinkedHashMap<>(Environment.describe());
    run.put("loadAverageAtEnd", Environment.loadAverage());
    run.put("seconds", Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
    run.put("command", command);
    Files.writeString(outDir.resolve("run.json"), mapper.writeValueAsString(run) + "\n", StandardCharsets.UTF_8);
    log.printf(Locale.ROOT, "[clean] wrote %s/results.md, results.json, run.json%n", outDir);
    System.out.print(md);
    return 0;
  }

  static SetResult evaluate(String name, List<Doc> docs, Style style, boolean paged, CleanOptions defaults) {
    Map<String, Score> scores = new LinkedHashMap<>();
    List<LoadedDocument> loaded = docs.stream()
        .map(d -> new LoadedDocument(d.id(), "", "", d.text(), Map.of(), List.of(), d.pageStarts(), 0)).toList();
    CorpusLines corpus = new CorpusLines(defaults);
    loaded.forEach(corpus::add);
    for (String system : SYSTEMS) {
      Score s = new Score();
      for (int i = 0; i < docs.size(); i++) {
        Doc d = docs.get(i);
        boolean[] removed = switch (system) {
          case "haystack" -> HaystackCleaner.removed(d.text(), d.pageStarts());
          case "ctxpack-pages" -> mask(d.text(), new Cleaner(defaults.withRepeatsInDocument(0)).clean(loaded.get(i), null));
          case "ctxpack-pages+document" -> mask(d.text(), new Cleaner(defaults).clean(loaded.get(i), null));
          default -> mask(d.text(), new Cleaner(defaults).clean(loaded.get(i), corpus));
        };
        score(d, removed, s);
      }
      scores.put(system, s);
    }
    int lines = docs.stream().mapToInt(d -> d.lines().size()).sum();
    return new SetResult(name, style.language(), paged, docs.size(), lines, scores);
  }

  private static boolean[] mask(String text, Cleaned c) {
    boolean[] removed = new boolean[text.length()];
    for (Removal r : c.removals()) Arrays.fill(removed, r.start(), r.end(), true);
    return removed;
  }

  private static void score(Doc d, boolean[] removed, Score s) {
    for (Line l : d.lines()) {
      if (l.kind() == Kind.BLANK) continue;
      int visible = 0;
      int gone = 0;
      for (int i = l.start(); i < l.end(); i++) {
        if (Character.isWhitespace(d.text().charAt(i))) continue;
        visible++;
        if (removed[i]) gone++;
      }
      if (visible == 0) continue;
      if (l.injected()) {
        s.injected++;
        s.byKind.get(l.kind())[1]++;
        if (gone == visible) {
          s.removedInjected++;
          s.byKind.get(l.kind())[0]++;
        }
        if (gone > 0) s.touchedInjected++;
      } else {
        s.prose++;
        if (gone > 0) s.touchedProse++;
      }
    }
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", 100 * v);
  }

  private static String markdown(List<SetResult> results, String command) {
    StringBuilder md = new StringBuilder("# ctxpack cleaning: injected boilerplate in real prose\n\n");
    md.append("Command: `").append(command).append("`\n\n");
    md.append("Precision: injected lines among the lines a system touched (removed any visible character of); ")
        .append("recall: injected lines wholly removed; prose damaged: prose lines touched. Heads/feet/boilerplate: recall by kind.\n\n");
    md.append("| set | pages | docs | lines | system | precision | recall | heads | feet | boilerplate | prose damaged |\n");
    md.append("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
    for (SetResult r : results) {
      for (Map.Entry<String, Score> e : r.scores().entrySet()) {
        Score s = e.getValue();
        md.append("| ").append(r.name()).append(" | ").append(r.paged() ? "given" : "none").append(" | ").append(r.docs())
            .append(" | ").append(r.lines()).append(" | ").append(e.getKey()).append(" | ").append(pct(s.precision()))
            .append(" | ").append(pct(s.recall())).append(" | ").append(pct(s.recall(Kind.HEADER))).append(" | ")
            .append(pct(s.recall(Kind.FOOTER))).append(" | ").append(pct(s.recall(Kind.BOILERPLATE))).append(" | ")
            .append(s.touchedProse).append(" (").append(pct(s.damage())).append(" %) |\n");
      }
    }
    return md.toString();
  }

  private static Map<String, Object> json(List<SetResult> results, String command) {
    Map<String, Object> j = new LinkedHashMap<>();
    j.put("command", command);
    List<Object> sets = new ArrayList<>();
    for (SetResult r : results) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("set", r.name());
      m.put("paged", r.paged());
      m.put("docs", r.docs());
      m.put("lines", r.lines());
      Map<String, Object> systems = new LinkedHashMap<>();
      for (Map.Entry<String, Score> e : r.scores().entrySet()) {
        Score s = e.getValue();
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("injectedLines", s.injected);
        x.put("proseLines", s.prose);
        x.put("injectedRemoved", s.removedInjected);
        x.put("injectedTouched", s.touchedInjected);
        x.put("proseTouched", s.touchedProse);
        x.put("precision", round(s.precision()));
        x.put("recall", round(s.recall()));
        for (Kind k : s.byKind.keySet()) x.put("recall" + k.name().charAt(0) + k.name().substring(1).toLowerCase(Locale.ROOT), round(s.recall(k)));
        x.put("proseDamaged", round(s.damage()));
        systems.put(e.getKey(), x);
      }
      m.put("systems", systems);
      sets.add(m);
    }
    j.put("sets", sets);
    return j;
  }

  private static Object round(double v) {
    return Double.isNaN(v) ? null : Math.round(v * 10000) / 10000.0;
  }
}
