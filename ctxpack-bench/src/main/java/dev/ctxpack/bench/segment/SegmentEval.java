package dev.ctxpack.bench.segment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.compress.CompressData;
import dev.ctxpack.bench.segment.Boundaries.Score;
import dev.ctxpack.bench.segment.ErrorKinds.Kind;
import dev.ctxpack.bench.segment.UdParagraphs.Paragraph;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.SentenceSegmenter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Evaluates sentence segmentation on Universal Dependencies: ctxpack's {@link SentenceSegmenter}
 * beside {@code java.text.BreakIterator.getSentenceInstance}, in the same run on the same text.
 *
 * <p>Text: per paragraph of each CoNLL-U file ({@link UdParagraphs}), the {@code # text} sentences
 * joined with single spaces. Gold boundaries: each sentence's end, normalised past the following
 * whitespace ({@link Boundaries}); the paragraph's final end is excluded (the main figures) and
 * included (a second table), the same way for both systems. A predicted boundary is correct when it
 * equals a gold one. Every figure is given for the REPORT and FIT halves of the documents ({@link
 * #half}) and for the full file; the error analysis and examples are of the FIT half only, the half
 * the segmenter's rules are tuned on. A speed table ({@link SegmentSpeed}) times both systems on the
 * same texts. Error analysis by {@link ErrorKinds}, with examples of ctxpack's errors in
 * {@code cases.md}. Writes {@code results.md}, {@code results.json} and {@code cases.md}
 * (deterministic) and {@code run.json} (date, machine, JDK, seconds) to {@code --out}. On demand
 * only: {@code ./ctxpack eval segment}.
 */
@Command(name = "eval segment", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Evaluates sentence segmentation (boundary precision/recall/F1 on UD English-EWT dev and Portuguese-Bosque dev) for ctxpack's SentenceSegmenter beside java.text.BreakIterator.")
public final class SegmentEval implements Callable<Integer> {
  static final String CTXPACK = "ctxpack";
  static final String BREAK_ITERATOR = "BreakIterator";
  static final List<String> SYSTEMS = List.of(CTXPACK, BREAK_ITERATOR);
  static final List<String> MISSED_KINDS = List.of(ErrorKinds.NO_TERMINAL, ErrorKinds.TERMINAL, ErrorKinds.QUOTE_BRACKET);
  static final List<String> FALSE_KINDS = List.of(ErrorKinds.ABBREVIATION, ErrorKinds.NUMBER, ErrorKinds.ELLIPSIS, ErrorKinds.OTHER);

  static final String FULL = "full";
  static final String FIT = "fit";
  static final String REPORT = "report";
  static final List<String> HALVES = List.of(REPORT, FIT, FULL);

  /**
   * The half a paragraph belongs to, by its document: the compression eval's split
   * ({@link CompressData#split}, the SHA-256 of the key), so whole documents fall on one side. Rules
   * and the boundary model are tuned and fitted on FIT only; REPORT is what is reported.
   */
  static String half(Paragraph p) {
    return CompressData.split(p.document()) == CompressData.Half.FIT ? FIT : REPORT;
  }

  /** A treebank: its key, label, file under the data folder, and the language given to each system. */
  record Treebank(String key, String label, String file, Language language, Locale locale) {}

  static final List<Treebank> TREEBANKS = List.of(
      new Treebank("en_ewt", "UD English-EWT dev", "ud/en_ewt-ud-dev.conllu", Language.EN, Locale.ENGLISH),
      new Treebank("pt_bosque", "UD Portuguese-Bosque dev", "ud/pt_bosque-ud-dev.conllu", Language.PT, new Locale("pt", "BR")));

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/segment).")
  Path out;

  @Option(names = "--speed-seconds", description = "Seconds of timing per system and text for the speed table; 0 skips it (default: ${DEFAULT-VALUE}).")
  double speedSeconds = 2;

  @Option(names = "--examples", description = "Examples of ctxpack's errors per kind in cases.md (default: ${DEFAULT-VALUE}).")
  int examples = 10;

  private final PrintStream log = System.err;
  private String[] args = new String[0];

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs with {@code args} and returns the exit code (0 ok, 1 failure, 2 bad input). */
  public static int run(String[] args) {
    SegmentEval e = new SegmentEval();
    e.args = args.clone();
    return RunSupport.execute(e, "segment", args);
  }

  /** One error, for the cases file. */
  record Example(String paragraph, int offset, String sub, String context) {}

  /** Everything measured on one treebank. */
  static final class Result {
    final Treebank bank;
    /** {@link #FULL}, {@link #FIT} or {@link #REPORT}. */
    final String half;
    UdParagraphs.Markers markers;
    int paragraphs;
    int sentences;
    final Map<String, Score> excl = new LinkedHashMap<>();
    final Map<String, Score> incl = new LinkedHashMap<>();
    Score goldExcl = Score.ZERO;
    /** system -> "missed"/"false" -> kind -> sub-kind -> count. */
    final Map<String, Map<String, Map<String, Map<String, Integer>>>> errors = new LinkedHashMap<>();
    /** ctxpack: rule name -> what it would change. */
    final Map<String, WhatIf.Effect> whatIf = new LinkedHashMap<>();
    /** ctxpack: "missed"/"false" -> kind -> examples (all, in text order). */
    final Map<String, Map<String, List<Example>>> cases = new LinkedHashMap<>();

    Result(Treebank bank, String half) {
      this.bank = bank;
      this.half = half;
      for (String s : SYSTEMS) {
        excl.put(s, Score.ZERO);
        incl.put(s, Score.ZERO);
        Map<String, Map<String, Map<String, Integer>>> m = new LinkedHashMap<>();
        m.put("missed", kinds(MISSED_KINDS));
        m.put("false", kinds(FALSE_KINDS));
        errors.put(s, m);
      }
      for (WhatIf.Rule rule : WhatIf.RULES) whatIf.put(rule.name(), new WhatIf.Effect(0, 0));
      cases.put("missed", new LinkedHashMap<>());
      cases.put("false", new LinkedHashMap<>());
      for (String k : MISSED_KINDS) cases.get("missed").put(k, new ArrayList<>());
      for (String k : FALSE_KINDS) cases.get("false").put(k, new ArrayList<>());
    }

    private static Map<String, Map<String, Integer>> kinds(List<String> ks) {
      Map<String, Map<String, Integer>> m = new LinkedHashMap<>();
      for (String k : ks) m.put(k, new TreeMap<>());
      return m;
    }

    int count(String system, String what, String kind) {
      return errors.get(system).get(what).get(kind).values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  @Override
  public Integer call() throws Exception {
    if (examples < 0) throw new IllegalArgumentException("--examples must be >= 0, was " + examples);
    if (!(speedSeconds >= 0)) throw new IllegalArgumentException("--speed-seconds must be >= 0, was " + speedSeconds);
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/segment");
    for (Treebank b : TREEBANKS) {
      if (!Files.isRegularFile(dataDir.resolve(b.file()))) {
        throw new IllegalArgumentException("missing " + dataDir.resolve(b.file()) + " (--data names the shared data folder)");
      }
    }
    long t0 = System.nanoTime();
    Map<String, String> env = Environment.describe();
    SentenceSegmenter segmenter = new SentenceSegmenter();
    Map<String, List<Result>> byHalf = new LinkedHashMap<>();
    for (String h : HALVES) byHalf.put(h, new ArrayList<>());
    Map<Treebank, List<String>> speedTexts = new LinkedHashMap<>();
    for (Treebank b : TREEBANKS) {
      Path file = dataDir.resolve(b.file());
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      UdParagraphs.Markers markers = UdParagraphs.markers(lines);
      List<Paragraph> all = UdParagraphs.parse(lines);
      speedTexts.put(b, all.stream().map(Paragraph::text).toList());
      for (String h : HALVES) {
        List<Paragraph> ps = h.equals(FULL) ? all : all.stream().filter(p -> half(p).equals(h)).toList();
        Result r = evaluate(b, h, markers, ps, segmenter);
        log.printf(Locale.ROOT, "[segment] %s %s: %d paragraphs, %d sentences; F1 ctxpack %.4f, BreakIterator %.4f%n", b.key(), h,
            r.paragraphs, r.sentences, r.excl.get(CTXPACK).f1(), r.excl.get(BREAK_ITERATOR).f1());
        byHalf.get(h).add(r);
      }
    }
    List<String> sciFact = SegmentSpeed.sciFactTexts(dataDir);
    List<SegmentSpeed.Speed> speeds = new ArrayList<>();
    if (speedSeconds > 0) {
      for (Map.Entry<Treebank, List<String>> e : speedTexts.entrySet()) {
        speeds.add(SegmentSpeed.measure(e.getKey().label() + " paragraphs", e.getValue(), e.getKey().language(), e.getKey().locale(),
            segmenter, speedSeconds));
      }
      if (!sciFact.isEmpty()) {
        speeds.add(SegmentSpeed.measure("SciFact corpus (title, blank line, abstract)", sciFact, Language.EN, Locale.ENGLISH,
            segmenter, speedSeconds));
      }
      for (SegmentSpeed.Speed sp : speeds) {
        log.printf(Locale.ROOT, "[segment] speed on %s: ctxpack %.1f MB/s, BreakIterator %.1f MB/s%n", sp.text(),
            sp.ctxpackCharsPerSecond() / 1e6, sp.breakIteratorCharsPerSecond() / 1e6);
      }
    }
    String command = "./ctxpack eval segment" + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining());
    String commit = git("rev-parse", "--short", "HEAD");
    String dirty = git("status", "--porcelain", "--untracked-files=no");
    String commitNote = commit + (dirty.isBlank() ? "" : " (with uncommitted changes)");

    Files.createDirectories(outDir);
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    String md = markdown(byHalf, speeds, command, commitNote);
    Files.writeString(outDir.resolve("results.md"), md, StandardCharsets.UTF_8);
    Files.writeString(outDir.resolve("results.json"), mapper.writeValueAsString(json(byHalf, speeds, command, commitNote)) + "\n", StandardCharsets.UTF_8);
    Files.writeString(outDir.resolve("cases.md"), casesMarkdown(byHalf.get(FIT)), StandardCharsets.UTF_8);
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Object> run = new LinkedHashMap<>(env);
    run.put("loadAverageAtEnd", Environment.loadAverage());
    run.put("seconds", Math.round(seconds * 100) / 100.0);
    run.put("command", command);
    run.put("commit", commitNote);
    Files.writeString(outDir.resolve("run.json"), mapper.writeValueAsString(run) + "\n", StandardCharsets.UTF_8);
    log.printf(Locale.ROOT, "[segment] done in %.2f s; wrote %s/results.md, results.json, cases.md, run.json%n", seconds, outDir);
    System.out.print(md);
    return 0;
  }

  /** Scores both systems on every paragraph and classifies their errors. */
  static Result evaluate(Treebank bank, String half, UdParagraphs.Markers markers, List<Paragraph> paragraphs, SentenceSegmenter segmenter) {
    Result r = new Result(bank, half);
    r.markers = markers;
    for (Paragraph p : paragraphs) {
      String text = p.text();
      r.paragraphs++;
      r.sentences += p.sentences();
      TreeSet<Integer> goldExcl = Boundaries.of(text, p.sentenceEnds(), false);
      TreeSet<Integer> goldIncl = Boundaries.of(text, p.sentenceEnds(), true);
      r.goldExcl = r.goldExcl.plus(new Score(0, 0, goldExcl.size()));
      Map<String, TreeSet<Integer>> predExcl = new LinkedHashMap<>();
      predExcl.put(CTXPACK, Boundaries.ctxpack(segmenter, text, bank.language(), false));
      predExcl.put(BREAK_ITERATOR, Boundaries.breakIterator(text, bank.locale(), false));
      Map<String, TreeSet<Integer>> predIncl = new LinkedHashMap<>();
      predIncl.put(CTXPACK, Boundaries.ctxpack(segmenter, text, bank.language(), true));
      predIncl.put(BREAK_ITERATOR, Boundaries.breakIterator(text, bank.locale(), true));
      // Where each gold sentence starts, by its normalised end.
      Map<Integer, Integer> sentenceStart = new TreeMap<>();
      int start = 0;
      for (int e : p.sentenceEnds()) {
        int b = Boundaries.normalize(text, e);
        sentenceStart.put(b, start);
        start = b;
      }
      for (WhatIf.Rule rule : WhatIf.RULES) {
        r.whatIf.merge(rule.name(), WhatIf.effect(rule, text, goldExcl, predExcl.get(CTXPACK)), WhatIf.Effect::plus);
      }
      for (String s : SYSTEMS) {
        TreeSet<Integer> pred = predExcl.get(s);
        r.excl.merge(s, Score.of(goldExcl, pred), Score::plus);
        r.incl.merge(s, Score.of(goldIncl, predIncl.get(s)), Score::plus);
        for (int b : goldExcl) {
          if (pred.contains(b)) continue;
          Kind k = ErrorKinds.missed(text, sentenceStart.get(b), b);
          r.errors.get(s).get("missed").get(k.kind()).merge(k.sub(), 1, Integer::sum);
          if (s.equals(CTXPACK)) r.cases.get("missed").get(k.kind()).add(new Example(p.id(), b, k.sub(), context(text, b)));
        }
        for (int b : pred) {
          if (goldExcl.contains(b)) continue;
          Kind k = ErrorKinds.falseBoundary(text, b);
          r.errors.get(s).get("false").get(k.kind()).merge(k.sub(), 1, Integer::sum);
          if (s.equals(CTXPACK)) r.cases.get("false").get(k.kind()).add(new Example(p.id(), b, k.sub(), context(text, b)));
        }
      }
    }
    return r;
  }

  /** Up to 60 chars either side of boundary {@code b}, the boundary shown as ⟂. */
  static String context(String text, int b) {
    int e = ErrorKinds.rawEnd(text, b);
    int from = Math.max(0, e - 60);
    int to = Math.min(text.length(), b + 60);
    return (from > 0 ? "…" : "") + text.substring(from, e) + " ⟂ " + text.substring(b, to) + (to < text.length() ? "…" : "");
  }

  /** {@code n} items spread evenly over {@code all} (all of them when there are fewer), in order. */
  static <T> List<T> spread(List<T> all, int n) {
    if (all.size() <= n) return all;
    List<T> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add(all.get((int) ((long) i * all.size() / n)));
    return out;
  }

  // ---- reports ----

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%.1f", 100 * v);
  }

  private static String f4(double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }

  private String markdown(Map<String, List<Result>> byHalf, List<SegmentSpeed.Speed> speeds, String command, String commitNote) {
    List<Result> results = byHalf.get(FIT);
    StringBuilder md = new StringBuilder();
    md.append("# ctxpack sentence segmentation (UD)\n\n");
    md.append("Command: `").append(command).append("`\n\n");
    md.append("Commit: ").append(commitNote).append(".\n\n");
    md.append("Text: per paragraph (`# newpar`, else `# newdoc`), the `# text` sentences joined with single spaces. ")
        .append("Gold boundaries: each sentence's end; a boundary is the offset after it past any whitespace, so a span end ")
        .append("and a BreakIterator boundary match when they are equal after skipping whitespace. Systems: `new SentenceSegmenter()")
        .append(".split(text, EN|PT)` (span ends) and `BreakIterator.getSentenceInstance(Locale.ENGLISH | pt-BR)`.\n\n");
    md.append("Halves: each document (`# newdoc`) goes to FIT or REPORT by the SHA-256 of its id (the compression eval's ")
        .append("split). The segmenter's rules and boundary model are tuned and fitted on FIT only; REPORT is the held-out ")
        .append("figure; full = both. The error analysis and candidate rules below are on FIT only.\n\n");
    md.append("## Boundaries between sentences (the paragraph's final end not scored)\n\n");
    table(md, byHalf, false);
    md.append("\n## The paragraph's final end scored too (one trivially correct boundary per paragraph for both systems)\n\n");
    table(md, byHalf, true);
    if (!speeds.isEmpty()) {
      md.append("\n## Speed (same run, same texts; one thread; best of the timed rounds after warm-up)\n\n");
      md.append("| text | chars | ctxpack chars/s | BreakIterator chars/s |\n|---|---:|---:|---:|\n");
      for (SegmentSpeed.Speed sp : speeds) {
        md.append("| ").append(sp.text()).append(" | ").append(sp.chars()).append(" | ")
            .append(String.format(Locale.ROOT, "%,.0f", sp.ctxpackCharsPerSecond())).append(" | ")
            .append(String.format(Locale.ROOT, "%,.0f", sp.breakIteratorCharsPerSecond())).append(" |\n");
      }
    }
    md.append("\n## Error analysis (FIT half, final end not scored)\n\n");
    md.append("Missed gold boundaries: `no-terminal` = the gold sentence does not end with . ! ? … (after closing quotes/brackets); ")
        .append("`quote/bracket` = it does, with a closer after the terminator, an opening quote/bracket next, or inside an unclosed ")
        .append("bracket/quotation; `terminal` = the rest. False boundaries: by the text before them (ellipsis; after a period: ")
        .append("number, abbreviation-like word, other; `other` also holds ! ? and boundaries after no punctuation).\n\n");
    md.append("| set | system | missed | no-terminal | terminal | quote/bracket | false | abbreviation | number | ellipsis | other |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Result r : results) {
      for (String s : SYSTEMS) {
        md.append("| ").append(r.bank.key()).append(" | ").append(s).append(" | ").append(r.excl.get(s).fn());
        for (String k : MISSED_KINDS) md.append(" | ").append(r.count(s, "missed", k));
        md.append(" | ").append(r.excl.get(s).fp());
        for (String k : FALSE_KINDS) md.append(" | ").append(r.count(s, "false", k));
        md.append(" |\n");
      }
    }
    md.append("\nSub-kinds:\n\n");
    for (Result r : results) {
      for (String s : SYSTEMS) {
        md.append("- ").append(r.bank.key()).append(", ").append(s).append(": ");
        List<String> parts = new ArrayList<>();
        for (String what : List.of("missed", "false")) {
          for (Map.Entry<String, Map<String, Integer>> k : r.errors.get(s).get(what).entrySet()) {
            for (Map.Entry<String, Integer> sub : k.getValue().entrySet()) {
              parts.add(what + " " + k.getKey() + "/" + sub.getKey() + " " + sub.getValue());
            }
          }
        }
        md.append(String.join("; ", parts)).append("\n");
      }
    }
    md.append("\n## Candidate rules for ctxpack, measured without changing it (FIT half, final end not scored)\n\n");
    md.append("Each rule alone, applied to ctxpack's boundaries: the positions it would add (or remove) that ctxpack does ")
        .append("not already have (or has), split into gold and not gold, and ctxpack's resulting F1. Estimates: a real ")
        .append("change can interact with the segmenter's other rules.\n\n");
    md.append("| set | rule | changed gold | changed not gold | F1 now | F1 with the rule | Δ (points) |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|\n");
    for (Result r : results) {
      Score now = r.excl.get(CTXPACK);
      for (WhatIf.Rule rule : WhatIf.RULES) {
        WhatIf.Effect e = r.whatIf.get(rule.name());
        Score with = WhatIf.apply(rule, now, e);
        md.append("| ").append(r.bank.key()).append(" | ").append(rule.name()).append(" | ").append(e.gold()).append(" | ")
            .append(e.notGold()).append(" | ").append(pct(now.f1())).append(" | ").append(pct(with.f1())).append(" | ")
            .append(String.format(Locale.ROOT, "%+.1f", 100 * (with.f1() - now.f1()))).append(" |\n");
      }
    }
    md.append("\nRules: ");
    List<String> rules = new ArrayList<>();
    for (WhatIf.Rule rule : WhatIf.RULES) rules.add("**" + rule.name() + "**: " + rule.description());
    md.append(String.join("; ", rules)).append(".\n");
    md.append("\nExamples of ctxpack's errors (").append(examples).append(" per kind, spread over the file): `cases.md`.\n");
    return md.toString();
  }

  private static void table(StringBuilder md, Map<String, List<Result>> byHalf, boolean includeFinal) {
    md.append("| set | half | paragraphs | gold sentences | gold boundaries | ctxpack P | R | F1 | BreakIterator P | R | F1 | ΔF1 (points) |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    List<Result> rows = new ArrayList<>();
    for (int i = 0; i < TREEBANKS.size(); i++) for (String h : HALVES) rows.add(byHalf.get(h).get(i));
    for (Result r : rows) {
      Map<String, Score> sc = includeFinal ? r.incl : r.excl;
      Score c = sc.get(CTXPACK);
      Score b = sc.get(BREAK_ITERATOR);
      md.append("| ").append(r.bank.label()).append(" | ").append(r.half.toUpperCase(Locale.ROOT).replace("FULL", "full"))
          .append(" | ").append(r.paragraphs).append(" | ").append(r.sentences)
          .append(" | ").append(c.tp() + c.fn())
          .append(" | ").append(pct(c.precision())).append(" | ").append(pct(c.recall())).append(" | ").append(pct(c.f1()))
          .append(" | ").append(pct(b.precision())).append(" | ").append(pct(b.recall())).append(" | ").append(pct(b.f1()))
          .append(" | ").append(String.format(Locale.ROOT, "%+.1f", 100 * (c.f1() - b.f1()))).append(" |\n");
    }
  }

  private static Map<String, Object> json(Map<String, List<Result>> byHalf, List<SegmentSpeed.Speed> speeds, String command, String commitNote) {
    Map<String, Object> j = new LinkedHashMap<>();
    j.put("command", command);
    j.put("commit", commitNote);
    for (String h : HALVES) j.put(h.equals(FULL) ? "sets" : h, sets(byHalf.get(h)));
    List<Map<String, Object>> sp = new ArrayList<>();
    for (SegmentSpeed.Speed s : speeds) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("text", s.text());
      x.put("chars", s.chars());
      x.put("ctxpackCharsPerSecond", Math.round(s.ctxpackCharsPerSecond()));
      x.put("breakIteratorCharsPerSecond", Math.round(s.breakIteratorCharsPerSecond()));
      sp.add(x);
    }
    j.put("speed", sp);
    return j;
  }

  private static Map<String, Object> sets(List<Result> results) {
    Map<String, Object> sets = new LinkedHashMap<>();
    for (Result r : results) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("label", r.bank.label());
      m.put("file", r.bank.file());
      m.put("paragraphsFrom", r.markers.name().toLowerCase(Locale.ROOT));
      m.put("paragraphs", r.paragraphs);
      m.put("goldSentences", r.sentences);
      m.put("goldBoundariesExcludingFinal", r.goldExcl.fn());
      for (String conv : List.of("excludingFinal", "includingFinal")) {
        Map<String, Object> c = new LinkedHashMap<>();
        for (String s : SYSTEMS) {
          Score sc = (conv.equals("excludingFinal") ? r.excl : r.incl).get(s);
          Map<String, Object> x = new LinkedHashMap<>();
          x.put("tp", sc.tp());
          x.put("fp", sc.fp());
          x.put("fn", sc.fn());
          x.put("precision", Double.valueOf(f4(sc.precision())));
          x.put("recall", Double.valueOf(f4(sc.recall())));
          x.put("f1", Double.valueOf(f4(sc.f1())));
          c.put(s, x);
        }
        c.put("f1DifferencePoints", Double.valueOf(String.format(Locale.ROOT, "%.2f",
            100 * ((conv.equals("excludingFinal") ? r.excl : r.incl).get(CTXPACK).f1()
                - (conv.equals("excludingFinal") ? r.excl : r.incl).get(BREAK_ITERATOR).f1()))));
        m.put(conv, c);
      }
      m.put("errors", r.errors);
      Map<String, Object> wi = new LinkedHashMap<>();
      for (WhatIf.Rule rule : WhatIf.RULES) {
        WhatIf.Effect e = r.whatIf.get(rule.name());
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("adds", rule.adds());
        x.put("changedGold", e.gold());
        x.put("changedNotGold", e.notGold());
        x.put("ctxpackF1With", Double.valueOf(f4(WhatIf.apply(rule, r.excl.get(CTXPACK), e).f1())));
        wi.put(rule.name(), x);
      }
      m.put("ctxpackWhatIf", wi);
      sets.put(r.bank.key(), m);
    }
    return sets;
  }

  private String casesMarkdown(List<Result> results) {
    StringBuilder md = new StringBuilder("# ctxpack sentence segmentation: examples of errors (FIT half)\n\n");
    md.append("ctxpack's `SentenceSegmenter` only, FIT documents only; up to ").append(examples).append(" examples per kind, spread evenly over ")
        .append("each file's errors of that kind. ⟂ marks the boundary (gold for missed ones, ctxpack's for false ones).\n");
    for (Result r : results) {
      for (String what : List.of("missed", "false")) {
        for (Map.Entry<String, List<Example>> k : r.cases.get(what).entrySet()) {
          md.append("\n## ").append(r.bank.key()).append(": ").append(what).append(" boundaries, ").append(k.getKey())
              .append(" (").append(k.getValue().size()).append(")\n\n");
          for (Example e : spread(k.getValue(), examples)) {
            md.append("- `").append(e.paragraph()).append("` @").append(e.offset()).append(" [").append(e.sub()).append("] ")
                .append(e.context().replace("\n", " ")).append("\n");
          }
        }
      }
    }
    return md.toString();
  }

  private static String git(String... cmd) {
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
