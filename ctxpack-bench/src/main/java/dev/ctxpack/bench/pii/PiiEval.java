package dev.ctxpack.bench.pii;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.data.BeirLoader;
import dev.ctxpack.bench.data.CorpusDoc;
import dev.ctxpack.bench.data.SquadLoader;
import dev.ctxpack.pii.PiiMatch;
import dev.ctxpack.pii.PiiRedactor;
import dev.ctxpack.pii.PiiSamples;
import dev.ctxpack.pii.PiiType;
import dev.ctxpack.pii.RedactionOptions;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Evaluates PII redaction ({@link PiiRedactor}):
 *
 * <ol>
 *   <li>recall: {@code --samples} generated valid numbers per kind (cards of several issuers and
 *       lengths, IBANs of several countries, CPF, CNPJ; {@link PiiSamples}) embedded in Portuguese
 *       and English sentences; found = the exact span is redacted;
 *   <li>one digit off: the same numbers with one digit changed so the check fails; counted when the
 *       kind's own recogniser takes them (target 0), and when any recogniser takes any part of them
 *       (then only as a valid number of another kind);
 *   <li>clean real text: SciFact abstracts, SQuAD 2.0 dev contexts, FaQuAD paragraphs, which should
 *       hold no PII; every redaction there is counted by kind and shown for inspection;
 *   <li>throughput of the whole redactor (all kinds) over that real text, MB/s of UTF-8;
 *   <li>hostile input: per recogniser, the time on 1 MiB strings of repeated units (digits, dots,
 *       {@code @}, hex and colons...), the slowest unit reported (target under a second).
 * </ol>
 *
 * Writes {@code results.md}, {@code results.json} and {@code run.json} to {@code --out}. On demand
 * only: {@code ./ctxpack eval pii}.
 */
@Command(name = "eval pii", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Evaluates PII redaction: recall on generated valid numbers, false positives on one-digit-off numbers and on clean"
        + " real text (SciFact, SQuAD, FaQuAD), throughput, and time on 1 MiB hostile strings per recogniser.")
public final class PiiEval implements Callable<Integer> {
  /** The hostile units, each repeated to 1 MiB. */
  static final List<String> HOSTILE = List.of("1", "1.", "1-", "1 ", "1,", "@", "a@", "a.", "a@a.", "f:", ":", "::1:",
      "1.1.1.", "(1", "+1 ", "(11) ", "DE89", "DE89 ", "4111 ", "ff:ff", "-", ".");
  static final int MIB = 1 << 20;

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/pii).")
  Path out;

  @Option(names = "--samples", description = "Generated numbers per kind (default: ${DEFAULT-VALUE}).")
  int samples = 10_000;

  @Option(names = "--seed", description = "Seed of the generated numbers (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(names = "--repeats", description = "Timed passes over the real text for throughput (median reported; default: ${DEFAULT-VALUE}).")
  int repeats = 5;

  private final PrintStream log = System.err;
  private String[] args = new String[0];

  public static void main(String[] args) {
    System.exit(run(args));
  }

  public static int run(String[] args) {
    PiiEval e = new PiiEval();
    e.args = args.clone();
    return RunSupport.execute(e, "pii", args);
  }

  record Recall(String type, int samples, int found, int typedRight, int offOwn, int offAny, List<String> offAnyExamples) {}

  record CleanSet(String name, int texts, long chars, Map<String, Integer> byType, List<String> examples) {}

  record Hostile(String type, double worstMs, String worstUnit, double allUnitsMs) {}

  @Override
  public Integer call() throws Exception {
    if (samples < 1) throw new IllegalArgumentException("--samples must be >= 1, was " + samples);
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/pii");
    String command = "./ctxpack eval pii" + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).reduce("", String::concat);
    Map<String, Object> run = new LinkedHashMap<>(Environment.describe());
    PiiRedactor all = new PiiRedactor(RedactionOptions.all());

    List<Recall> recall = new ArrayList<>();
    for (PiiType t : PiiSamples.GENERATED) {
      recall.add(recall(t, all));
      log.printf(Locale.ROOT, "[pii] %s: %s%n", t.key(), recall.get(recall.size() - 1));
    }

    List<CleanSet> clean = new ArrayList<>();
    List<String> realText = new ArrayList<>();
    for (var set : realSets(dataDir).entrySet()) {
      clean.add(clean(set.getKey(), set.getValue(), all));
      realText.addAll(set.getValue());
      log.printf(Locale.ROOT, "[pii] %s: %s%n", set.getKey(), clean.get(clean.size() - 1).byType());
    }

    long bytes = 0;
    for (String t : realText) bytes += t.getBytes(StandardCharsets.UTF_8).length;
    for (int w = 0; w < 2; w++) for (String t : realText) all.find(t);
    double[] secs = new double[repeats];
    for (int r = 0; r < repeats; r++) {
      long t0 = System.nanoTime();
      int n = 0;
      for (String t : realText) n += all.find(t).size();
      secs[r] = (System.nanoTime() - t0) / 1e9;
      if (n < 0) throw new IllegalStateException();
    }
    Arrays.sort(secs);
    double mbps = bytes / 1e6 / secs[repeats / 2];
    log.printf(Locale.ROOT, "[pii] throughput %.1f MB/s over %.1f MB%n", mbps, bytes / 1e6);

    List<Hostile> hostile = new ArrayList<>();
    for (PiiType t : PiiType.values()) hostile.add(hostile(new PiiRedactor(new RedactionOptions(EnumSet.of(t))), t.key()));
    hostile.add(hostile(all, "all"));
    for (Hostile h : hostile) log.printf(Locale.ROOT, "[pii] hostile %s%n", h);

    Files.createDirectories(outDir);
    String md = markdown(recall, clean, mbps, bytes, hostile, command);
    Files.writeString(outDir.resolve("results.md"), md, StandardCharsets.UTF_8);
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("command", command);
    json.put("recall", recall);
    json.put("clean", clean);
    json.put("throughputMBps", mbps);
    json.put("throughputBytes", bytes);
    json.put("hostile", hostile);
    Files.writeString(outDir.resolve("results.json"), mapper.writeValueAsString(json) + "\n", StandardCharsets.UTF_8);
    run.put("loadAverageAtEnd", Environment.loadAverage());
    run.put("command", command);
    Files.writeString(outDir.resolve("run.json"), mapper.writeValueAsString(run) + "\n", StandardCharsets.UTF_8);
    System.out.print(md);
    log.printf(Locale.ROOT, "[pii] wrote %s/results.md, results.json, run.json%n", outDir);
    return 0;
  }

  private Recall recall(PiiType t, PiiRedactor all) {
    Random r = new Random(seed ^ t.ordinal());
    PiiRedactor own = new PiiRedactor(new RedactionOptions(EnumSet.of(t)));
    int found = 0;
    int typed = 0;
    int offOwn = 0;
    int offAny = 0;
    List<String> examples = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      PiiSamples.Sample s = PiiSamples.valid(t, r);
      String text = PiiSamples.embed(s.text(), r);
      int at = text.indexOf(s.text());
      for (PiiMatch m : all.find(text)) {
        if (m.start() == at && m.end() == at + s.text().length()) {
          found++;
          if (m.type() == t) typed++;
        }
      }
      PiiSamples.Sample off = PiiSamples.oneDigitOff(s, r);
      String offText = PiiSamples.embed(off.text(), r);
      int oat = offText.indexOf(off.text());
      if (!own.find(offText).isEmpty()) offOwn++;
      for (PiiMatch m : all.find(offText)) {
        if (m.end() > oat && m.start() < oat + off.text().length()) {
          offAny++;
          if (examples.size() < 5) examples.add(off.text() + " -> " + m.type().key() + " " + offText.substring(m.start(), m.end()));
          break;
        }
      }
    }
    return new Recall(t.key(), samples, found, typed, offOwn, offAny, examples);
  }

  private static Map<String, List<String>> realSets(Path dataDir) throws Exception {
    Map<String, List<String>> sets = new LinkedHashMap<>();
    Path scifact = dataDir.resolve("scifact/beir_test/corpus.jsonl");
    Path squad = dataDir.resolve("squad_v2_en/dev-v2.0.json");
    Path faquad = dataDir.resolve("faquad/train.json");
    for (Path p : List.of(scifact, squad, faquad)) {
      if (!Files.isRegularFile(p)) throw new IllegalArgumentException("missing data file " + p + ": give --data");
    }
    List<String> sci = new ArrayList<>();
    try (Reader r = Files.newBufferedReader(scifact, StandardCharsets.UTF_8)) {
      for (CorpusDoc d : BeirLoader.readCorpus(r, scifact.toString())) sci.add(d.title() + "\n" + d.text());
    }
    sets.put("scifact (en)", sci);
    sets.put("squad v2 dev (en)", texts(SquadLoader.load("squad", squad).corpus()));
    sets.put("faquad (pt)", texts(SquadLoader.load("faquad", faquad).corpus()));
    return sets;
  }

  private static List<String> texts(List<CorpusDoc> docs) {
    List<String> out = new ArrayList<>();
    for (CorpusDoc d : docs) if (!d.text().isBlank()) out.add(d.text());
    return out;
  }

  private static CleanSet clean(String name, List<String> texts, PiiRedactor all) {
    Map<String, Integer> by = new TreeMap<>();
    for (PiiType t : PiiType.values()) by.put(t.key(), 0);
    List<String> examples = new ArrayList<>();
    long chars = 0;
    for (String t : texts) {
      chars += t.length();
      for (PiiMatch m : all.find(t)) {
        by.merge(m.type().key(), 1, Integer::sum);
        if (examples.size() < 20) {
          int a = Math.max(0, m.start() - 30);
          int b = Math.min(t.length(), m.end() + 30);
          examples.add(m.type().key() + ": …" + t.substring(a, b).replace('\n', ' ') + "…");
        }
      }
    }
    return new CleanSet(name, texts.size(), chars, by, examples);
  }

  private static Hostile hostile(PiiRedactor redactor, String type) {
    double worst = 0;
    String worstUnit = "";
    double total = 0;
    for (String unit : HOSTILE) {
      String s = unit.repeat(MIB / unit.length() + 1).substring(0, MIB);
      redactor.find(s.substring(0, 4096)); // warm the scanner
      long t0 = System.nanoTime();
      redactor.find(s);
      double ms = (System.nanoTime() - t0) / 1e6;
      total += ms;
      if (ms > worst) {
        worst = ms;
        worstUnit = unit;
      }
    }
    return new Hostile(type, worst, worstUnit, total);
  }

  private String markdown(List<Recall> recall, List<CleanSet> clean, double mbps, long bytes, List<Hostile> hostile, String command) {
    StringBuilder sb = new StringBuilder();
    sb.append("Command: `").append(command).append("` (seed ").append(seed).append(", ").append(samples).append(" numbers per kind)\n\n");
    sb.append("| kind | valid numbers | found (exact span) | typed as the kind | one digit off: taken by its recogniser | one digit off: any redaction |\n");
    sb.append("|---|---:|---:|---:|---:|---:|\n");
    for (Recall r : recall) {
      sb.append(String.format(Locale.ROOT, "| %s | %,d | %,d (%.2f %%) | %,d | %,d | %,d |%n", r.type(), r.samples(), r.found(),
          100.0 * r.found() / r.samples(), r.typedRight(), r.offOwn(), r.offAny()));
    }
    for (Recall r : recall) for (String e : r.offAnyExamples()) sb.append("- ").append(r.type()).append(" off: `").append(e).append("`\n");
    sb.append("\n| clean real text | texts | MB | ");
    for (PiiType t : PiiType.values()) sb.append(t.key()).append(" | ");
    sb.append("\n|---|---:|---:|");
    for (int i = 0; i < PiiType.values().length; i++) sb.append("---:|");
    sb.append('\n');
    for (CleanSet c : clean) {
      sb.append(String.format(Locale.ROOT, "| %s | %,d | %.2f | ", c.name(), c.texts(), c.chars() / 1e6));
      for (PiiType t : PiiType.values()) sb.append(c.byType().get(t.key())).append(" | ");
      sb.append('\n');
    }
    for (CleanSet c : clean) for (String e : c.examples()) sb.append("- ").append(c.name()).append(": `").append(e.replace("`", "'")).append("`\n");
    sb.append(String.format(Locale.ROOT, "%nThroughput, all kinds, over the real text above (%.1f MB UTF-8, median of %d): **%.1f MB/s**%n%n",
        bytes / 1e6, repeats, mbps));
    sb.append("| recogniser | slowest 1 MiB hostile string (ms) | its unit | all ").append(HOSTILE.size()).append(" units (ms) |\n|---|---:|---|---:|\n");
    for (Hostile h : hostile) {
      sb.append(String.format(Locale.ROOT, "| %s | %.1f | `%s` | %.1f |%n", h.type(), h.worstMs(), h.worstUnit().replace("|", "\\|"), h.allUnitsMs()));
    }
    return sb.toString();
  }
}
