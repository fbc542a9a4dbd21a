package dev.ctxpack.bench.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.compress.CompressData;
import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Half;
import dev.ctxpack.bench.compress.CompressData.Paragraph;
import dev.ctxpack.bench.compress.CompressData.Qa;
import dev.ctxpack.bench.data.CorpusDoc;
import dev.ctxpack.bench.verify.QaUnits.Located;
import dev.ctxpack.bench.verify.QaUnits.Unit;
import dev.ctxpack.bench.verify.Variants.Kind;
import dev.ctxpack.bench.verify.Variants.Variant;
import dev.ctxpack.bench.verify.VerifyData.Gold;
import dev.ctxpack.bench.verify.VerifyData.SciFactClaim;
import dev.ctxpack.bench.verify.VerifyData.SciFactUnit;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.Claim;
import dev.ctxpack.verify.ClaimVerdict;
import dev.ctxpack.verify.Evidence;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.Verifier;
import dev.ctxpack.verify.VerifySource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Evaluates answer verification: ctxpack's verifier beside two sentence baselines ({@link
 * Bm25Baseline}, {@link CosineBaseline}), all in the same run on the same cases.
 *
 * <ol>
 *   <li><b>SciFact claims</b>: each (claim, cited abstract) of {@code claims_train.jsonl}, the claim
 *       citing the abstract as its only source; gold SUPPORT / CONTRADICT / no evidence; confusion,
 *       three-class accuracy and evidence recall@1 against the rationale sentences;
 *   <li><b>citation errors</b> on SQuAD 2.0 dev (en) and FaQuAD (pt): a true sentence of a source,
 *       cited correctly and with each kind of error of {@link Variants}; caught and false-alarm rates;
 *   <li><b>abstention</b>: "The sources do not contain the answer." (and a non-abstaining answer)
 *       judged against the sources, ctxpack only.
 * </ol>
 *
 * FIT/REPORT halves as {@link CompressData#split} (claim id for SciFact, article title otherwise);
 * the baselines' thresholds were chosen on FIT (see {@link #THRESHOLDS}). Writes {@code
 * results.json} and {@code results.md} (deterministic: the same data, code and options give the same
 * bytes) and {@code run.json} (date, machine, load, seconds) to {@code --out}. On demand only:
 * {@code ./ctxpack eval verify}.
 */
@Command(name = "eval verify", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Evaluates answer verification (SciFact claims, citation errors on SQuAD/FaQuAD, abstention) for ctxpack's verifier beside BM25 and embedding sentence baselines.")
public final class VerifyEval implements Callable<Integer> {
  static final String ABSTAIN_EN = "The sources do not contain the answer.";
  static final String ABSTAIN_PT = "As fontes não contêm a resposta.";
  static final String CTXPACK = "ctxpack";
  static final String BM25 = "bm25 sentence";
  static final String COSINE = "embedding sentence";

  /**
   * The baselines' thresholds, per evaluation: each maximises the accuracy of "supported" against
   * "not supported" on the FIT half ({@code --split fit}, which reports the accuracy-maximising
   * threshold of every baseline in its "Baseline thresholds" table; the values there, rounded to
   * four decimals, are these). SciFact: gold SUPPORT against CONTRADICT and no evidence. Citation
   * errors: the correct and correct-clause variants against every error variant (invented-id is
   * caught at any threshold, so it moves no threshold).
   */
  static final Map<String, Double> THRESHOLDS = Map.of(
      // ./ctxpack eval verify --split fit (limit 1000, seed 42): best on FIT 0.32549 (67.1 % of 431) and 0.72425 (66.8 %)
      "scifact/" + BM25, 0.3255,
      "scifact/" + COSINE, 0.7243,
      // 0.99808 (87.9 % of 5,609 variants) and 0.99816 (87.9 %): every correct claim is a source sentence verbatim
      "squad/" + BM25, 0.9981,
      "squad/" + COSINE, 0.9982,
      // 0.97808 (90.1 % of 1,267) and 0.99730 (86.4 %)
      "faquad/" + BM25, 0.9781,
      "faquad/" + COSINE, 0.9973);

  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--split", description = "fit or report (default: ${DEFAULT-VALUE}).")
  String split = "report";

  @Option(names = "--limit", description = "Units per data set, a deterministic sample (default: ${DEFAULT-VALUE}; 0 = all).")
  int limit = 1000;

  @Option(names = "--embedder", description = "minilm or none: the embedder of ctxpack's verifier and of the embedding baseline (none: no embedding baseline; default: ${DEFAULT-VALUE}).")
  String embedderName = "minilm";

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/verify).")
  Path out;

  @Option(names = "--parts", split = ",", description = "Evaluations to run: scifact, citations, abstention (default: all).")
  List<String> parts = new ArrayList<>(List.of("scifact", "citations", "abstention"));

  @Option(names = "--seed", description = "Seed of the samples, the sources' order and the variants (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(names = "--cases", description = "Also write cases.jsonl: every case with each system's verdict, evidence and reason (for reading the failures).")
  boolean writeCases;

  private final PrintStream log = System.err;
  private final List<Map<String, Object>> caseLines = new ArrayList<>();
  private String[] args = new String[0];
  private final StringBuilder md = new StringBuilder();
  private final Map<String, Object> json = new LinkedHashMap<>();
  private CachingEmbedder embedder;
  private Half half;
  /** Per "set/baseline": the scores and labels the threshold is fitted on. */
  private final Map<String, List<double[]>> fitScores = new LinkedHashMap<>();

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs with {@code args} and returns the exit code (0 ok, 1 failure, 2 bad input). */
  public static int run(String[] args) {
    VerifyEval e = new VerifyEval();
    e.args = args.clone();
    return RunSupport.execute(e, "verify", args);
  }

  /**
   * ctxpack's verifier as {@code ctxpack verify} builds it without a judge: {@link EvidenceVerifier}
   * with its default thresholds and {@code embedderOrNull} for semantic support ({@code null}: {@link
   * EvidenceVerifier#lexical()}). The one place the harness (this evaluation and {@code
   * VerifyBenchmark}) gets it from.
   */
  public static Verifier ctxpackVerifier(Embedder embedderOrNull) {
    EvidenceVerifier.Builder b = EvidenceVerifier.builder().embedder(embedderOrNull);
    // Threshold overrides, for choosing the defaults on the FIT half (-Dctxpack.verify.support=0.6 ...).
    String v;
    if ((v = System.getProperty("ctxpack.verify.support")) != null) b.support(Double.parseDouble(v));
    if ((v = System.getProperty("ctxpack.verify.partial")) != null) b.partial(Double.parseDouble(v));
    if ((v = System.getProperty("ctxpack.verify.align")) != null) b.align(Double.parseDouble(v));
    if ((v = System.getProperty("ctxpack.verify.cosine")) != null) b.cosine(Double.parseDouble(v));
    if ((v = System.getProperty("ctxpack.verify.answerable")) != null) b.minRelevance(Double.parseDouble(v));
    if ((v = System.getProperty("ctxpack.verify.coverage")) != null) b.minCoverage(v.equals("off") ? dev.ctxpack.pack.PackOptions.Relevance.NO_COVER : Double.parseDouble(v));
    return b.build();
  }

  /** A system under evaluation: its name, the verifier, and the baseline behind it (null for ctxpack). */
  record Sys(String name, Verifier verifier, SentenceBaseline baseline) {}

  // ---- the run ----

  @Override
  public Integer call() throws Exception {
    half = switch (split.toLowerCase(Locale.ROOT)) {
      case "fit" -> Half.FIT;
      case "report" -> Half.REPORT;
      default -> throw new IllegalArgumentException("--split must be fit or report, was '" + split + "'");
    };
    if (limit < 0) throw new IllegalArgumentException("--limit must be >= 0, was " + limit);
    for (String p : parts) {
      if (!List.of("scifact", "citations", "abstention").contains(p)) {
        throw new IllegalArgumentException("unknown part '" + p + "': use scifact, citations, abstention");
      }
    }
    boolean dense = switch (embedderName.toLowerCase(Locale.ROOT)) {
      case "minilm" -> true;
      case "none" -> false;
      default -> throw new IllegalArgumentException("--embedder must be minilm or none, was '" + embedderName + "'");
    };
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/verify");
    long t0 = System.nanoTime();
    Map<String, String> env = Environment.describe();
    embedder = dense ? new CachingEmbedder(new MiniLmEmbedder(), 2_000_000) : null;

    Verifier ours = ctxpackVerifier(embedder);
    String ctxpackNote = "`" + ours.getClass().getName() + "`" + (embedder == null ? " without an embedder (lexical only)"
        : " with " + embedder.id() + " (semantic support)") + ", default thresholds";
    log.println("[verify] ctxpack verifier: " + ctxpackNote);

    String command = "./ctxpack eval verify" + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining());
    String commit = git("rev-parse", "--short", "HEAD");
    String dirty = git("status", "--porcelain", "--untracked-files=no");
    String commitNote = commit + (dirty.isBlank() ? "" : " (with uncommitted changes)");
    md.append("# ctxpack answer verification\n\n");
    md.append("Command: `").append(command).append("`\n\n");
    md.append("Commit: ").append(commitNote).append("; half: **").append(half).append("** (`CompressData.split`: SHA-256 of the claim id ")
        .append("for SciFact, of the article title for SQuAD and FaQuAD; REPORT = first byte even); limit ").append(limit)
        .append(" units per data set; seed ").append(seed).append(".\n\n");
    md.append("Systems, every one on the same cases in this run:\n\n");
    md.append("- **").append(CTXPACK).append("**: `VerifyEval.ctxpackVerifier(embedder)`: ").append(ctxpackNote).append(";\n");
    md.append("- **").append(BM25).append("**: `Bm25Baseline`: each cited source cut into sentences (`SentenceSegmenter`), the ")
        .append("best sentence by BM25 of the claim (k1 1.2, b 0.75, statistics over all the request's source sentences), scored as the ")
        .append("share of the BM25 that sentence would reach holding every claim term once; `supported` when ≥ the threshold, else ")
        .append("`unsupported` (never contradicted or partial); IDs naming no source reported invalid;\n");
    md.append("- **").append(COSINE).append("**: `CosineBaseline`: the same with the cosine of MiniLM vectors (all-MiniLM-L6-v2, ")
        .append("int8; English-only model used on both languages)").append(dense ? "" : " — **not run** (`--embedder none`)").append(".\n\n");
    md.append("Thresholds: chosen on the FIT half to maximise accuracy of supported against not supported, one per baseline and ")
        .append("evaluation, fixed in `VerifyEval.THRESHOLDS` (table at the end).\n");
    json.put("command", command);
    json.put("commit", commitNote);
    json.put("half", half.name());
    json.put("limit", limit);
    json.put("seed", seed);
    json.put("embedder", dense ? embedder.id() : "none");
    json.put("ctxpack", ctxpackNote);
    json.put("thresholds", new java.util.TreeMap<>(THRESHOLDS));

    if (parts.contains("scifact")) sciFact(dataDir, ours);
    if (parts.contains("citations")) {
      VerifyData.QaSet squad = VerifyData.loadQa(dataDir.resolve("squad_v2_en/dev-v2.0.json"));
      citations("squad", "SQuAD 2.0 dev (en)", squad, Language.EN, ours);
      VerifyData.QaSet faquad = VerifyData.loadQa(dataDir.resolve("faquad/train.json"));
      citations("faquad", "FaQuAD (pt-BR)", faquad, Language.PT, ours);
    }
    if (parts.contains("abstention")) abstention(dataDir, ours);
    thresholdsTable();

    Files.createDirectories(outDir);
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    Files.writeString(outDir.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
    Files.writeString(outDir.resolve("results.json"), mapper.writeValueAsString(json) + "\n", StandardCharsets.UTF_8);
    if (writeCases) {
      StringBuilder lines = new StringBuilder();
      ObjectMapper compact = new ObjectMapper();
      for (Map<String, Object> c : caseLines) lines.append(compact.writeValueAsString(c)).append('\n');
      Files.writeString(outDir.resolve("cases.jsonl"), lines, StandardCharsets.UTF_8);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Object> run = new LinkedHashMap<>(env);
    run.put("loadAverageAtEnd", Environment.loadAverage());
    run.put("seconds", Math.round(seconds * 10) / 10.0);
    run.put("command", command);
    run.put("commit", commitNote);
    if (embedder != null) {
      run.put("embedderCacheHits", embedder.hits());
      run.put("embedderCalls", embedder.misses());
    }
    Files.writeString(outDir.resolve("run.json"), mapper.writeValueAsString(run) + "\n", StandardCharsets.UTF_8);
    log.printf(Locale.ROOT, "[verify] done in %.1f s; wrote %s/results.md, results.json, run.json%n", seconds, outDir);
    System.out.print(md);
    return 0;
  }

  /** ctxpack (when available) and the baselines with the thresholds of {@code set}. */
  private List<Sys> systems(String set, Verifier ours) {
    List<Sys> out = new ArrayList<>();
    out.add(new Sys(CTXPACK, ours, null));
    Bm25Baseline bm25 = new Bm25Baseline(THRESHOLDS.get(set + "/" + BM25));
    out.add(new Sys(BM25, bm25, bm25));
    if (embedder != null) {
      CosineBaseline cos = new CosineBaseline(embedder, THRESHOLDS.get(set + "/" + COSINE));
      out.add(new Sys(COSINE, cos, cos));
    }
    return out;
  }

  // ---- 1. SciFact ----

  private void sciFact(Path dataDir, Verifier ours) throws IOException {
    List<SciFactClaim> claims = VerifyData.loadSciFactClaims(dataDir);
    Map<String, CorpusDoc> corpus = VerifyData.loadSciFactCorpus(dataDir);
    List<SciFactUnit> all = VerifyData.sciFactUnits(claims, corpus, half);
    List<SciFactUnit> units = VerifyData.sample(all, limit, seed);
    log.printf("[scifact] %d claims, %d (claim, cited abstract) units in the %s half, %d evaluated%n", claims.size(), all.size(), half, units.size());

    // How the gold sentences were rebuilt, over every abstract with a rationale in the file (both halves).
    Set<String> withRationale = new java.util.TreeSet<>();
    int beyondSegmenter = 0;
    int beyondGold = 0;
    int rationales = 0;
    for (SciFactClaim c : claims) {
      for (Map.Entry<String, List<Integer>> e : c.sentences().entrySet()) {
        String text = corpus.get(e.getKey()).text();
        withRationale.add(e.getKey());
        rationales++;
        int max = e.getValue().stream().mapToInt(Integer::intValue).max().orElse(-1);
        if (max >= SciFactSentences.segmenter(text).size()) beyondSegmenter++;
        if (max >= SciFactSentences.gold(text).size()) beyondGold++;
      }
    }
    int agree = 0;
    for (String d : withRationale) {
      String text = corpus.get(d).text();
      if (SciFactSentences.segmenter(text).equals(SciFactSentences.gold(text))) agree++;
    }
    // What lies between two rebuilt sentences: a single space, or the run structured abstracts hold after a section.
    Map<String, Integer> gaps = new LinkedHashMap<>();
    gaps.put("single space", 0);
    gaps.put("\"   \\n \"", 0);
    gaps.put("other white space", 0);
    for (String d : withRationale) {
      String text = corpus.get(d).text();
      List<Span> g = SciFactSentences.gold(text);
      for (int i = 1; i < g.size(); i++) {
        String gap = text.substring(g.get(i - 1).end(), g.get(i).start());
        gaps.merge(gap.equals(" ") ? "single space" : gap.equals("   \n ") ? "\"   \\n \"" : "other white space", 1, Integer::sum);
      }
    }

    List<Sys> systems = systems("scifact", ours);
    if (embedder != null) {
      List<String> texts = new ArrayList<>();
      for (SciFactUnit u : units) {
        texts.add(u.claim());
        for (SentenceBaseline.SourceSentence s : SentenceBaseline.sentences(List.of(new VerifySource("S1", u.abstractText())))) texts.add(s.text());
      }
      warm(texts, "scifact");
    }
    Map<String, Confusion> confusion = new LinkedHashMap<>();
    Map<String, Confusion> alignedOnly = new LinkedHashMap<>();
    for (Sys s : systems) {
      confusion.put(s.name(), new Confusion());
      alignedOnly.put(s.name(), new Confusion());
    }
    EnumMap<Gold, Integer> golds = new EnumMap<>(Gold.class);
    long t0 = System.nanoTime();
    for (int i = 0; i < units.size(); i++) {
      SciFactUnit u = units.get(i);
      golds.merge(u.gold(), 1, Integer::sum);
      List<VerifySource> sources = List.of(new VerifySource("S1", u.abstractText()));
      Claim claim = Claim.of(u.claim(), List.of("S1"));
      Answer answer = Answer.of("", List.of(claim));
      List<Span> gold = SciFactSentences.gold(u.abstractText());
      boolean aligned = gold.equals(SciFactSentences.segmenter(u.abstractText()));
      for (Sys s : systems) {
        Verification v = s.verifier().verify(null, sources, answer);
        ClaimVerdict cv = v.claims().get(0);
        if (writeCases) caseLines.add(caseJson("scifact", u.claimId() + "/" + u.docId(), u.gold().name(), s.name(), u.claim(), v));
        confusion.get(s.name()).add(u.gold(), cv.verdict());
        if (aligned) alignedOnly.get(s.name()).add(u.gold(), cv.verdict());
        if (u.gold() != Gold.NOEVIDENCE) {
          boolean hit = overlapsRationale(cv.evidence(), "S1", gold, u.rationale());
          confusion.get(s.name()).addEvidence(hit);
          if (aligned) alignedOnly.get(s.name()).addEvidence(hit);
        }
        if (s.baseline() != null) fit("scifact", s.name(), s.baseline().score(sources, claim), u.gold() == Gold.SUPPORT);
      }
      progress("scifact", i + 1, units.size(), t0);
    }

    md.append("\n## 1. SciFact claims against their cited abstracts\n\n");
    md.append(String.format(Locale.ROOT, "Data: `scifact/claims_train.jsonl` (%d claims) with the abstracts of `scifact/beir_test/corpus.jsonl`. "
        + "One unit per (claim, cited abstract): the answer is the claim citing the abstract as its only source "
        + "(`Answer.of(\"\", List.of(Claim.of(claim, List.of(\"S1\"))))`, S1 = the abstract's text without its title, no query). "
        + "Gold: SUPPORT → supported, CONTRADICT → contradicted, no rationale for that abstract → not supported (partial, "
        + "unsupported and uncited all count as not supported). %s half: %d units, %d evaluated (%s): SUPPORT %d, CONTRADICT %d, "
        + "NOEVIDENCE %d.%n%n", claims.size(), half, all.size(), units.size(), units.size() < all.size() ? "sampled" : "all",
        golds.getOrDefault(Gold.SUPPORT, 0), golds.getOrDefault(Gold.CONTRADICT, 0), golds.getOrDefault(Gold.NOEVIDENCE, 0)));
    md.append(String.format(Locale.ROOT, "Gold sentences: rationale indices number the abstract's sentences as SciFact's own corpus lists "
        + "them; the BEIR `text` is those sentences joined, with no marker of where one ends. Between two sentences as rebuilt "
        + "below, in the %d abstracts with a rationale: %s (the three spaces, line break and space follow the last sentence of a "
        + "section of a structured abstract, \"OBJECTIVE …\", \"RESULTS …\": a single-space join of sentences that carry their own "
        + "trailing white space would give exactly this). `SentenceSegmenter` "
        + "alone leaves %d of the file's %d annotated (claim, abstract) pairs citing a sentence index beyond its sentence count; it misses two kinds of boundary, which "
        + "`SciFactSentences.gold` adds (a sentence opening with a lower-case technical name such as \"miR-193a\" or \"iHepSCs\"; "
        + "a sentence ending in a one-letter word such as \"2,599 g.\" or \"vitamin D.\"), after which %d are. The two splits "
        + "agree exactly on %d of the %d abstracts with a rationale; evidence recall is given on all units and on those whose "
        + "abstract the two splits agree on. Evidence recall@1: for gold SUPPORT and CONTRADICT, the verdict's `evidence` span "
        + "overlaps a rationale sentence (any verdict; no evidence = miss).%n%n", withRationale.size(),
        gaps.entrySet().stream().map(e -> e.getValue() + " × " + e.getKey()).collect(Collectors.joining(", ")),
        beyondSegmenter, rationales, beyondGold, agree, withRationale.size()));
    md.append("| system | n | accuracy, 3 classes | accuracy, supported vs not | evidence recall@1 | evidence recall@1, agreeing abstracts |\n");
    md.append("|---|---:|---:|---:|---:|---:|\n");
    Map<String, Object> js = new LinkedHashMap<>();
    Map<String, Object> jsys = new LinkedHashMap<>();
    for (Sys s : systems) {
      Confusion c = confusion.get(s.name());
      Confusion a = alignedOnly.get(s.name());
      md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s (%d/%d) | %s (%d/%d) |%n", s.name(), c.total(), pct(c.accuracy3()),
          pct(c.accuracy2()), pct(c.evidenceRecall()), c.evidenceHits(), c.evidenceCases(), pct(a.evidenceRecall()), a.evidenceHits(),
          a.evidenceCases()));
      Map<String, Object> j = c.toJson();
      j.put("agreeingAbstracts", a.toJson());
      jsys.put(s.name(), j);
    }
    for (Sys s : systems) {
      Confusion c = confusion.get(s.name());
      md.append("\n").append(s.name()).append(": gold (rows) × verdict\n\n");
      md.append("| gold | n | supported | partial | unsupported | contradicted | uncited |\n|---|---:|---:|---:|---:|---:|---:|\n");
      for (Gold g : Gold.values()) {
        md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d |%n", g, c.total(g), c.count(g, Verdict.SUPPORTED),
            c.count(g, Verdict.PARTIAL), c.count(g, Verdict.UNSUPPORTED), c.count(g, Verdict.CONTRADICTED), c.count(g, Verdict.UNCITED)));
      }
    }
    js.put("claims", claims.size());
    js.put("unitsInHalf", all.size());
    js.put("units", units.size());
    js.put("gold", golds);
    Map<String, Object> align = new LinkedHashMap<>();
    align.put("abstractsWithRationale", withRationale.size());
    align.put("gapsBetweenRebuiltSentences", gaps);
    align.put("rationales", rationales);
    align.put("rationalesBeyondSegmenterCount", beyondSegmenter);
    align.put("rationalesBeyondRebuiltCount", beyondGold);
    align.put("abstractsWhereSegmenterEqualsRebuilt", agree);
    js.put("goldSentences", align);
    js.put("systems", jsys);
    json.put("scifact", js);
  }

  /** One line of cases.jsonl: the case, the system, and what it said about the (first) claim. */
  static Map<String, Object> caseJson(String set, String id, String kind, String system, String answer, Verification v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("set", set);
    m.put("id", id);
    m.put("kind", kind);
    m.put("system", system);
    m.put("answer", answer);
    if (!v.claims().isEmpty()) {
      ClaimVerdict cv = v.claims().get(0);
      m.put("verdict", cv.verdict().wireName());
      m.put("reason", cv.reason());
      m.put("missing", cv.missing());
      if (cv.evidence() != null) {
        m.put("evidence", cv.evidence().source() + " " + cv.evidence().start() + ".." + cv.evidence().end() + ": " + cv.evidence().text());
      }
    }
    m.put("invalidCitations", v.invalidCitations());
    m.put("abstained", v.abstained());
    m.put("abstentionCorrect", v.abstentionCorrect());
    return m;
  }

  /** Whether {@code e} is a span of {@code source} overlapping one of the {@code rationale} sentences of {@code gold}. */
  static boolean overlapsRationale(Evidence e, String source, List<Span> gold, List<Integer> rationale) {
    if (e == null || !source.equals(e.source())) return false;
    for (int i : rationale) {
      if (i >= gold.size()) continue;
      Span g = gold.get(i);
      if (e.start() < g.end() && g.start() < e.end()) return true;
    }
    return false;
  }

  // ---- 2. citation errors ----

  private void citations(String key, String name, VerifyData.QaSet set, Language language, Verifier ours) {
    List<Article> articles = VerifyData.half(set.articles(), half);
    QaUnits.Built built = QaUnits.build(articles, set.firstAnswerStart(), language, seed);
    List<Unit> units = VerifyData.sample(built.units(), limit, seed);
    log.printf("[%s] %d articles in the %s half, %d answerable questions, %d units, %d evaluated%n", key, articles.size(), half,
        built.questions(), built.units().size(), units.size());
    Map<String, List<Span>> segments = QaUnits.segmentCache();
    List<List<Variant>> variants = new ArrayList<>();
    for (Unit u : units) {
      String added = QaUnits.addedSentence(u, articles, language, VerifyData.random(seed, u.id() + "/added-sentence"), segments);
      variants.add(QaUnits.variants(u, added, language, seed));
    }
    List<Sys> systems = systems(key, ours);
    if (embedder != null) {
      List<String> texts = new ArrayList<>();
      Set<String> sourcesSeen = new HashSet<>();
      for (int i = 0; i < units.size(); i++) {
        for (VerifySource s : units.get(i).sources()) {
          if (sourcesSeen.add(s.text())) {
            for (SentenceBaseline.SourceSentence ss : SentenceBaseline.sentences(List.of(s))) texts.add(ss.text());
          }
        }
        for (Variant v : variants.get(i)) for (Claim c : Answer.parse(v.text()).claims()) texts.add(c.text());
        texts.add(units.get(i).question());
      }
      warm(texts, key);
    }
    Map<String, EnumMap<Kind, VerdictTally>> tallies = new LinkedHashMap<>();
    for (Sys s : systems) {
      EnumMap<Kind, VerdictTally> m = new EnumMap<>(Kind.class);
      for (Kind k : Kind.values()) m.put(k, new VerdictTally());
      tallies.put(s.name(), m);
    }
    EnumMap<Kind, Integer> skippedParse = new EnumMap<>(Kind.class);
    EnumMap<Kind, Variant> examples = new EnumMap<>(Kind.class);
    EnumMap<Kind, Unit> exampleUnits = new EnumMap<>(Kind.class);
    long t0 = System.nanoTime();
    for (int i = 0; i < units.size(); i++) {
      Unit u = units.get(i);
      for (Variant v : variants.get(i)) {
        Answer answer = Answer.parse(v.text());
        Claim claim = QaUnits.onlyClaim(answer, v.cited());
        if (claim == null) {
          skippedParse.merge(v.kind(), 1, Integer::sum);
          continue;
        }
        if (!examples.containsKey(v.kind())) {
          examples.put(v.kind(), v);
          exampleUnits.put(v.kind(), u);
        }
        for (Sys s : systems) {
          Verification result = verify(s, u.question(), u.sources(), answer);
          Verdict verdict = result.claims().get(0).verdict();
          if (writeCases) caseLines.add(caseJson(key, u.id(), v.kind().label, s.name(), v.text(), result));
          boolean caught = verdict != Verdict.SUPPORTED
              && (v.kind() != Kind.INVENTED_ID || result.invalidCitations().contains(v.cited()));
          tallies.get(s.name()).get(v.kind()).add(verdict, caught);
          if (s.baseline() != null) {
            fit(key, s.name(), s.baseline().score(u.sources(), claim), !v.kind().isError());
          }
        }
      }
      progress(key, i + 1, units.size(), t0);
    }
    report(key, name, language, articles.size(), built, units, systems, tallies, skippedParse, examples, exampleUnits);
  }


  private static Verification verify(Sys s, String query, List<VerifySource> sources, Answer answer) {
    try {
      return s.verifier().verify(query, sources, answer);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(s.name() + " failed to verify", e);
    }
  }

  private void report(String key, String name, Language language, int articleCount, QaUnits.Built built, List<Unit> units,
      List<Sys> systems, Map<String, EnumMap<Kind, VerdictTally>> tallies, EnumMap<Kind, Integer> skippedParse,
      EnumMap<Kind, Variant> examples, EnumMap<Kind, Unit> exampleUnits) {
    md.append("\n## 2. Citation errors: ").append(name).append("\n\n");
    md.append(String.format(Locale.ROOT, "%s half: %d articles, %d answerable questions → %d units (a question whose first answer lies "
        + "inside one sentence of its paragraph, one unit per distinct sentence), %d evaluated (%s, seed %d). Left out: %s. "
        + "Sources: the gold paragraph and up to four other paragraphs of its article, labelled S1..Sn in the order "
        + "`CompressData.construct` shuffles them (seed from the question id); mean %.2f sources. Each variant is its own "
        + "answer, parsed with `Answer.parse` and verified with the question as the query.%n%n", half, articleCount, built.questions(),
        built.units().size(), units.size(), units.size() < built.units().size() ? "sampled" : "all", seed,
        built.skipped().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")),
        units.stream().mapToInt(u -> u.sources().size()).average().orElse(Double.NaN)));
    md.append("Caught = the claim's verdict is not `supported` (invented-id: and the ID is in `invalidCitations`); false alarm = a ")
        .append("`correct` variant not `supported`; correct-clause (a correct, shorter claim) is reported as the share `supported`.\n\n");
    md.append("| system | false alarms (correct) |");
    for (Kind k : Kind.values()) if (k.isError()) md.append(" caught: ").append(k.label).append(" |");
    md.append(" correct-clause supported |\n|---|---:|");
    for (Kind k : Kind.values()) if (k.isError()) md.append("---:|");
    md.append("---:|\n");
    md.append("| n |");
    EnumMap<Kind, VerdictTally> any = tallies.values().iterator().next();
    md.append(' ').append(any.get(Kind.CORRECT).n()).append(" |");
    for (Kind k : Kind.values()) if (k.isError()) md.append(' ').append(any.get(k).n()).append(" |");
    md.append(' ').append(any.get(Kind.CORRECT_CLAUSE).n()).append(" |\n");
    for (Sys s : systems) {
      EnumMap<Kind, VerdictTally> t = tallies.get(s.name());
      md.append("| ").append(s.name()).append(" | ").append(pct(t.get(Kind.CORRECT).caughtRate())).append(" |");
      for (Kind k : Kind.values()) if (k.isError()) md.append(' ').append(pct(t.get(k).caughtRate())).append(" |");
      md.append(' ').append(pct(t.get(Kind.CORRECT_CLAUSE).rate(Verdict.SUPPORTED))).append(" |\n");
    }
    for (Sys s : systems) {
      EnumMap<Kind, VerdictTally> t = tallies.get(s.name());
      md.append("\n").append(s.name()).append(": verdicts per variant\n\n");
      md.append("| variant | n | supported | partial | unsupported | contradicted | uncited | caught / false alarm |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
      for (Kind k : Kind.values()) {
        VerdictTally x = t.get(k);
        md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %s |%n", k.label, x.n(), x.count(Verdict.SUPPORTED),
            x.count(Verdict.PARTIAL), x.count(Verdict.UNSUPPORTED), x.count(Verdict.CONTRADICTED), x.count(Verdict.UNCITED),
            k == Kind.CORRECT_CLAUSE ? "(not an error)" : pct(x.caughtRate())));
      }
    }
    Map<String, Object> j = new LinkedHashMap<>();
    {
      EnumMap<Kind, VerdictTally> t = tallies.get(CTXPACK);
      md.append("\nTargets (ctxpack): invented-id caught 100 %, every other error ≥ 90 %, false alarms ≤ 5 %.\n\n");
      md.append("| target | measured | |\n|---|---:|---|\n");
      List<Map<String, Object>> targets = new ArrayList<>();
      for (Kind k : Kind.values()) {
        if (k == Kind.CORRECT_CLAUSE) continue;
        double r = t.get(k).caughtRate();
        String target = k == Kind.CORRECT ? "false alarms ≤ 5 %" : k == Kind.INVENTED_ID ? "invented-id caught = 100 %" : k.label + " caught ≥ 90 %";
        boolean met = Double.isNaN(r) ? false : k == Kind.CORRECT ? r <= 0.05 : k == Kind.INVENTED_ID ? t.get(k).caught() == t.get(k).n() : r >= 0.90;
        md.append("| ").append(target).append(" | ").append(pct(r)).append(" | ").append(Double.isNaN(r) ? "no cases" : met ? "met" : "**missed**").append(" |\n");
        Map<String, Object> jt = new LinkedHashMap<>();
        jt.put("target", target);
        jt.put("measured", r);
        jt.put("met", met);
        targets.add(jt);
      }
      j.put("targets", targets);
    }
    md.append("\nExamples (the first evaluated unit that has each variant):\n\n");
    for (Map.Entry<Kind, Variant> e : examples.entrySet()) {
      Unit u = exampleUnits.get(e.getKey());
      md.append("- ").append(e.getKey().label).append(" (").append(u.id()).append(", gold ").append(u.goldLabel()).append(" of ")
          .append(u.sources().size()).append("): `").append(e.getValue().text().replace("`", "'")).append("`")
          .append(e.getValue().detail().isEmpty() || e.getKey() == Kind.CORRECT_CLAUSE || e.getKey() == Kind.ADDED_CLAUSE ? ""
              : " (" + e.getValue().detail() + ")").append("\n");
    }
    if (!skippedParse.isEmpty()) {
      md.append("\nVariants left out because they did not parse into one claim citing the intended label: ")
          .append(skippedParse.entrySet().stream().map(e -> e.getKey().label + " " + e.getValue()).collect(Collectors.joining(", "))).append(".\n");
    }
    j.put("articles", articleCount);
    j.put("answerableQuestions", built.questions());
    j.put("unitsInHalf", built.units().size());
    j.put("units", units.size());
    j.put("skippedQuestions", built.skipped());
    Map<String, Integer> sp = new LinkedHashMap<>();
    for (Map.Entry<Kind, Integer> e : skippedParse.entrySet()) sp.put(e.getKey().label, e.getValue());
    j.put("variantsNotParsed", sp);
    Map<String, Object> jsys = new LinkedHashMap<>();
    for (Sys s : systems) {
      Map<String, Object> jk = new LinkedHashMap<>();
      for (Kind k : Kind.values()) jk.put(k.label, tallies.get(s.name()).get(k).toJson());
      jsys.put(s.name(), jk);
    }
    j.put("systems", jsys);
    Map<String, String> ex = new LinkedHashMap<>();
    for (Map.Entry<Kind, Variant> e : examples.entrySet()) ex.put(e.getKey().label, e.getValue().text());
    j.put("examples", ex);
    json.put("citations-" + key, j);
  }

  // ---- 3. abstention ----

  /** One abstention case: the question, its one source, and whether abstaining is right there. */
  record AbstentionCase(String id, String question, String source, boolean abstainRight, String answerSentence) {}

  private void abstention(Path dataDir, Verifier ours) throws IOException {
    md.append("\n## 3. Abstention judged against the sources\n\n");
    Map<String, Object> j = new LinkedHashMap<>();
    VerifyData.QaSet squad = VerifyData.loadQa(dataDir.resolve("squad_v2_en/dev-v2.0.json"));
    VerifyData.QaSet faquad = VerifyData.loadQa(dataDir.resolve("faquad/train.json"));
    List<Article> en = VerifyData.half(squad.articles(), half);
    List<Article> pt = VerifyData.half(faquad.articles(), half);

    // en: answerable (first answer inside one sentence; that sentence is the non-abstaining answer) and impossible
    List<AbstentionCase> enAnswerable = new ArrayList<>();
    List<AbstentionCase> enImpossible = new ArrayList<>();
    for (Article a : en) {
      for (Paragraph p : a.paragraphs()) {
        for (Qa qa : p.questions()) {
          if (qa.impossible()) {
            enImpossible.add(new AbstentionCase(qa.id(), qa.question(), p.text(), true, bestSentence(qa.question(), p.text())));
          } else if (!qa.answers().isEmpty()) {
            Located at = QaUnits.locate(p.text(), qa, squad.firstAnswerStart().get(qa.id()), Language.EN);
            if (at != null) enAnswerable.add(new AbstentionCase(qa.id(), qa.question(), p.text(), false, at.sentence().of(p.text())));
          }
        }
      }
    }
    // pt: each answerable question with its own paragraph, and with a paragraph of another article
    List<AbstentionCase> ptOwn = new ArrayList<>();
    List<AbstentionCase> ptForeign = new ArrayList<>();
    for (int ai = 0; ai < pt.size(); ai++) {
      Article a = pt.get(ai);
      for (Paragraph p : a.paragraphs()) {
        for (Qa qa : p.questions()) {
          if (qa.impossible() || qa.answers().isEmpty()) continue;
          Located at = QaUnits.locate(p.text(), qa, faquad.firstAnswerStart().get(qa.id()), Language.PT);
          if (at == null) continue;
          String sentence = at.sentence().of(p.text());
          ptOwn.add(new AbstentionCase(qa.id(), qa.question(), p.text(), false, sentence));
          if (pt.size() > 1) {
            Random r = VerifyData.random(seed, qa.id() + "/foreign-paragraph");
            int other = r.nextInt(pt.size() - 1);
            if (other >= ai) other++;
            Article o = pt.get(other);
            String foreign = o.paragraphs().get(r.nextInt(o.paragraphs().size())).text();
            ptForeign.add(new AbstentionCase(qa.id(), qa.question(), foreign, true, sentence));
          }
        }
      }
    }
    List<List<AbstentionCase>> groups = List.of(VerifyData.sample(enAnswerable, limit, seed), VerifyData.sample(enImpossible, limit, seed),
        VerifyData.sample(ptOwn, limit, seed), VerifyData.sample(ptForeign, limit, seed));
    List<String> labels = List.of("en, answerable, own paragraph", "en, unanswerable (is_impossible), own paragraph",
        "pt, own paragraph", "pt, paragraph of another article");
    List<Language> langs = List.of(Language.EN, Language.EN, Language.PT, Language.PT);
    Answer abstainEn = Answer.parse(ABSTAIN_EN);
    Answer abstainPt = Answer.parse(ABSTAIN_PT);
    if (embedder != null) {
      List<String> texts = new ArrayList<>();
      for (List<AbstentionCase> g : groups) {
        for (AbstentionCase c : g) {
          texts.add(c.question());
          texts.add(c.answerSentence());
          for (SentenceBaseline.SourceSentence s : SentenceBaseline.sentences(List.of(new VerifySource("S1", c.source())))) texts.add(s.text());
        }
      }
      warm(texts, "abstention");
    }
    md.append("The answer \"").append(ABSTAIN_EN).append("\" (pt: \"").append(ABSTAIN_PT).append("\"), parsed with `Answer.parse` (abstained: ")
        .append(abstainEn.abstained()).append(" / ").append(abstainPt.abstained()).append("), verified with the question as the query and ")
        .append("one source S1; right when `abstentionCorrect` is true where the source lacks the answer and false where it holds it. ")
        .append("Sources: en, SQuAD 2.0 dev questions with their own paragraph (unanswerable: abstaining is right; answerable: wrong); ")
        .append("pt, FaQuAD questions with their own paragraph (abstaining wrong) and with a paragraph of another article of the same ")
        .append("half, drawn by a seed from the question id (abstaining right). Answerable questions are those whose first answer lies ")
        .append("inside one sentence. The same cases with a non-abstaining answer check the other direction: the answer sentence citing ")
        .append("S1 (unanswerable en: the paragraph's sentence with the highest BM25 share for the question, citing S1), where ")
        .append("`abstentionCorrect` should be the opposite. Baselines: not applicable (they do not judge abstention). ")
        .append(String.format(Locale.ROOT, "Up to %d cases per row (sample seed %d), %s half.%n%n", limit, seed, half));
    md.append("| sources | S1 holds the answer | answer | n | expected abstentionCorrect | got true | got false | got null | accuracy |\n")
        .append("|---|---|---|---:|---|---:|---:|---:|---:|\n");
    int[] overallRight = new int[2];
    int[] overallN = new int[2];
    List<Map<String, Object>> rows = new ArrayList<>();
    long t0 = System.nanoTime();
    int done = 0;
    int total = groups.stream().mapToInt(List::size).sum();
    for (int g = 0; g < groups.size(); g++) {
      for (boolean abstaining : new boolean[] {true, false}) {
        int[] got = new int[3]; // true, false, null
        int right = 0;
        List<AbstentionCase> cases = groups.get(g);
        for (AbstentionCase c : cases) {
          List<VerifySource> sources = List.of(new VerifySource("S1", c.source()));
          Answer answer = abstaining ? (langs.get(g) == Language.PT ? abstainPt : abstainEn) : Answer.parse(Variants.cite(c.answerSentence(), "S1"));
          Verification v = ours.verify(c.question(), sources, answer);
          if (writeCases) {
            Map<String, Object> cj = caseJson("abstention", c.id(), labels.get(g) + (abstaining ? ", abstains" : ", answers"), CTXPACK,
                answer.text(), v);
            cj.put("query", c.question());
            caseLines.add(cj);
          }
          Boolean ac = v.abstentionCorrect();
          boolean expected = abstaining == c.abstainRight();
          got[ac == null ? 2 : ac ? 0 : 1]++;
          if (ac != null && ac == expected) right++;
          if (abstaining) progress("abstention", ++done, total, t0);
        }
        boolean abstainRight = g == 1 || g == 3;
        boolean expectedValue = abstaining == abstainRight;
        String answerLabel = abstaining ? "abstains" : "answer sentence citing S1";
        md.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %d | %d | %d | %s |%n", labels.get(g), abstainRight ? "no" : "yes",
            answerLabel, cases.size(), expectedValue, got[0], got[1], got[2], pct(cases.isEmpty() ? Double.NaN : (double) right / cases.size())));
        overallRight[abstaining ? 0 : 1] += right;
        overallN[abstaining ? 0 : 1] += cases.size();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("sources", labels.get(g));
        row.put("sourceHoldsAnswer", !abstainRight);
        row.put("answer", abstaining ? "abstains" : "answer sentence");
        row.put("n", cases.size());
        row.put("expectedAbstentionCorrect", expectedValue);
        row.put("true", got[0]);
        row.put("false", got[1]);
        row.put("null", got[2]);
        row.put("accuracy", cases.isEmpty() ? Double.NaN : (double) right / cases.size());
        rows.add(row);
      }
    }
    md.append(String.format(Locale.ROOT, "%nAccuracy of `abstentionCorrect` over all rows: abstaining answers %s (%d/%d), non-abstaining "
        + "answers %s (%d/%d).%n", pct((double) overallRight[0] / Math.max(1, overallN[0])), overallRight[0], overallN[0],
        pct((double) overallRight[1] / Math.max(1, overallN[1])), overallRight[1], overallN[1]));
    j.put("accuracyAbstaining", (double) overallRight[0] / Math.max(1, overallN[0]));
    j.put("accuracyNotAbstaining", (double) overallRight[1] / Math.max(1, overallN[1]));
    j.put("abstainedParsedEn", abstainEn.abstained());
    j.put("abstainedParsedPt", abstainPt.abstained());
    j.put("rows", rows);
    json.put("abstention", j);
  }

  /** The sentence of {@code paragraph} with the highest BM25 share for {@code question}. */
  static String bestSentence(String question, String paragraph) {
    List<VerifySource> src = List.of(new VerifySource("S1", paragraph));
    List<SentenceBaseline.SourceSentence> ss = SentenceBaseline.sentences(src);
    SentenceBaseline.Best b = new Bm25Baseline(0).best(question, ss, Set.of(0));
    return b == null ? paragraph : b.sentence().text();
  }

  // ---- thresholds ----

  private void fit(String set, String system, double score, boolean positive) {
    fitScores.computeIfAbsent(set + "/" + system, k -> new ArrayList<>()).add(new double[] {score, positive ? 1 : 0});
  }

  private void thresholdsTable() {
    md.append("\n## Baseline thresholds\n\n");
    md.append("Each baseline calls a claim supported when its best sentence's score is at least the threshold. The thresholds in ")
        .append("the code were chosen on the FIT half: the accuracy-maximising threshold (midpoints between neighbouring scores, the ")
        .append("lowest of equally good ones) that a `--split fit` run reports below, rounded to four decimals. Labels: SciFact, ")
        .append("gold SUPPORT against CONTRADICT and no evidence; citation errors, the correct and correct-clause variants against ")
        .append("every error variant (invented-id is not supported at any threshold). On the ")
        .append(half).append(" half of this run:\n\n");
    md.append("| evaluation | baseline | threshold in code | accuracy at it | best threshold on this half | its accuracy | cases | supported share |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    Map<String, Object> j = new LinkedHashMap<>();
    for (Map.Entry<String, List<double[]>> e : fitScores.entrySet()) {
      double[] scores = e.getValue().stream().mapToDouble(x -> x[0]).toArray();
      boolean[] pos = new boolean[scores.length];
      int p = 0;
      for (int i = 0; i < pos.length; i++) {
        pos[i] = e.getValue().get(i)[1] > 0;
        if (pos[i]) p++;
      }
      ThresholdFit.Result best = ThresholdFit.best(scores, pos);
      double inCode = THRESHOLDS.get(e.getKey());
      double acc = ThresholdFit.accuracy(scores, pos, inCode);
      String[] k = e.getKey().split("/", 2);
      md.append(String.format(Locale.ROOT, "| %s | %s | %.4f | %s | %.4f | %s | %d | %s |%n", k[0], k[1], inCode, pct(acc), best.threshold(),
          pct(best.accuracy()), best.n(), pct((double) p / Math.max(1, scores.length))));
      Map<String, Object> jj = new LinkedHashMap<>();
      jj.put("thresholdInCode", inCode);
      jj.put("accuracyAtThresholdInCode", acc);
      jj.put("bestThresholdOnThisHalf", best.threshold());
      jj.put("bestAccuracyOnThisHalf", best.accuracy());
      jj.put("cases", best.n());
      jj.put("positives", p);
      j.put(e.getKey(), jj);
    }
    json.put("baselineThresholds", j);
  }

  // ---- helpers ----

  /** Embeds the distinct {@code texts} in large batches, so later calls hit the cache. */
  private void warm(List<String> texts, String what) {
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(texts));
    long t0 = System.nanoTime();
    for (int i = 0; i < distinct.size(); i += 512) {
      embedder.embed(distinct.subList(i, Math.min(distinct.size(), i + 512)));
      log.printf("[%s] embedded %,d of %,d distinct texts%n", what, Math.min(distinct.size(), i + 512), distinct.size());
    }
    log.printf(Locale.ROOT, "[%s] embedding took %.1f s%n", what, (System.nanoTime() - t0) / 1e9);
  }

  private void progress(String what, int done, int total, long t0) {
    if (done % 200 == 0 || done == total) {
      log.printf(Locale.ROOT, "[%s] %d of %d units verified (%.1f s)%n", what, done, total, (System.nanoTime() - t0) / 1e9);
    }
  }

  static String pct(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", 100 * v);
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
