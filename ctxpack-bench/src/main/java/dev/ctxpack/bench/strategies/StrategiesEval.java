package dev.ctxpack.bench.strategies;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.dedup.SquadV2;
import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Source;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.pack.PlanExecutor;
import dev.ctxpack.pack.Strategy;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ctxpack eval strategies}: stuff against the plan strategies at small budgets, all run offline.
 * Each data set's paragraphs (SQuAD 2.0 dev, English; FaQuAD train, Portuguese) are ingested as
 * documents (BM25, no vectors: the comparison is between strategies over the same candidates); for a
 * fixed-seed sample of answerable questions, each budget and each configuration packs the question
 * (the CLI's feature reranker, compression on) and, for plans, runs the plan offline with {@link
 * PlanExecutor} (intermediate steps extractive, the final prompt filled). Measured per configuration:
 * the share of questions whose gold answer (any of its strings, case and accents aside) is in the
 * final prompt, the share whose gold paragraph's document is among the sources read, the number of
 * calls, and the tokens of all calls (each prompt as filled, plus each intermediate output).
 */
@Command(name = "strategies", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Stuff vs map-reduce, refine and tree (offline) at small budgets: gold answers reaching the final prompt.")
public final class StrategiesEval implements Callable<Integer> {
  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/strategies).")
  Path out;

  @Option(names = "--budgets", split = ",", description = "Token budgets (default: ${DEFAULT-VALUE}).")
  List<Integer> budgets = List.of(500, 1000);

  @Option(names = "--questions", description = "Questions sampled per data set (default: ${DEFAULT-VALUE}).")
  int questions = 300;

  @Option(names = "--max-calls", description = "Most calls per plan (default: ${DEFAULT-VALUE}).")
  int maxCalls = PackOptions.DEFAULT_CALLS;

  @Option(names = "--seed", description = "Seed of the question sample (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(names = "--datasets", split = ",", description = "squad, faquad (default: both).")
  List<String> datasets = List.of("squad", "faquad");

  private String[] args = new String[0];
  private final PrintStream log = System.err;

  public static int run(String[] args) {
    StrategiesEval app = new StrategiesEval();
    app.args = args.clone();
    return RunSupport.execute(app, "strategies", args);
  }

  /** One configuration: a strategy, or stuff with the fallback on. */
  private record Config(String name, Strategy strategy, Strategy fallback) {}

  private static final List<Config> CONFIGS = List.of(
      new Config("stuff", Strategy.STUFF, Strategy.STUFF),
      new Config("stuff + fallback", Strategy.STUFF, Strategy.MAP_REDUCE),
      new Config("map-reduce", Strategy.MAP_REDUCE, Strategy.STUFF),
      new Config("refine", Strategy.REFINE, Strategy.STUFF),
      new Config("tree", Strategy.TREE, Strategy.STUFF));

  /** Sums over the questions of one configuration at one budget. */
  private static final class Tally {
    int n;
    int answerIn;
    int paragraphRead;
    long calls;
    long tokens;
    int fallbacks;
    long nanos;
    int failed;
  }

  @Override
  public Integer call() throws Exception {
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/strategies");
    Files.createDirectories(outDir);
    StringBuilder md = new StringBuilder();
    md.append("Command: `java -jar ctxpack-bench/target/ctxpack-bench.jar strategies");
    for (String a : args) md.append(' ').append(RunSupport.shellQuote(a));
    md.append("`\n\n");
    md.append("| data set | budget | configuration | answer in final prompt | gold paragraph read | calls | tokens (all calls) | fell back | ms / question |\n");
    md.append("|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
    Map<String, Object> json = new LinkedHashMap<>();
    for (String ds : datasets) {
      Path file = switch (ds) {
        case "squad" -> dataDir.resolve("squad_v2_en/dev-v2.0.json");
        case "faquad" -> dataDir.resolve("faquad/train.json");
        default -> throw new IllegalArgumentException("unknown data set '" + ds + "': use squad or faquad");
      };
      if (!Files.isRegularFile(file)) throw new IOException("no " + ds + " at " + file + ": pass --data DIR");
      Language lang = ds.equals("faquad") ? Language.PT : Language.EN;
      runOne(ds, file, lang, md, json);
    }
    Files.writeString(outDir.resolve("strategies.md"), md.toString(), StandardCharsets.UTF_8);
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(outDir.resolve("strategies.json").toFile(), json);
    System.out.print(md);
    log.println("[strategies] wrote " + outDir.resolve("strategies.md"));
    return 0;
  }

  private void runOne(String ds, Path file, Language lang, StringBuilder md, Map<String, Object> json) throws IOException {
    List<SquadV2.Context> contexts = SquadV2.load(file);
    Path work = Files.createTempDirectory("ctxpack-strategies");
    try {
      Path corpus = work.resolve("corpus.jsonl");
      ObjectMapper m = new ObjectMapper();
      StringBuilder lines = new StringBuilder();
      for (SquadV2.Context c : contexts) {
        lines.append(m.writeValueAsString(Map.of("_id", "p" + c.index(), "title", c.title(), "text", c.text()))).append('\n');
      }
      Files.writeString(corpus, lines, StandardCharsets.UTF_8);
      Path dir = work.resolve("index");
      CtxpackPipeline.ingestNoEmbed(corpus, dir, lang, CtxpackPipeline.CHUNK_TOKENS);
      List<int[]> all = new ArrayList<>();
      for (SquadV2.Context c : contexts) for (int i = 0; i < c.questions().size(); i++) all.add(new int[] {c.index(), i});
      Collections.shuffle(all, new Random(seed));
      List<int[]> sample = all.subList(0, Math.min(questions, all.size()));
      log.println("[strategies] " + ds + ": " + contexts.size() + " paragraphs, " + sample.size() + " questions");
      try (LuceneIndex index = LuceneIndex.openExisting(dir)) {
        DefaultContextPacker packer = DefaultContextPacker.builder().retriever(new HybridRetriever(index, null))
            .reranker(FeatureReranker.defaults()).build();
        PackOptions base = PackOptions.builder().retrieval(new RetrievalOptions(RetrievalMode.BM25, 40, 20, 20))
            .maxCalls(maxCalls).build();
        for (int budget : budgets) {
          for (Config c : CONFIGS) {
            Tally t = new Tally();
            PackOptions o = base.toBuilder().budget(budget).strategy(c.strategy()).fallback(c.fallback()).build();
            for (int[] qi : sample) {
              SquadV2.Context ctx = contexts.get(qi[0]);
              SquadV2.Question q = ctx.questions().get(qi[1]);
              long t0 = System.nanoTime();
              try {
                ContextPackage p = packer.pack(q.text(), o);
                String prompt;
                int calls;
                long tokens;
                if (p.plan().size() == 1) {
                  prompt = p.prompt();
                  calls = 1;
                  tokens = p.budget().used();
                } else {
                  PlanExecutor.Execution e = packer.executor(null, o).execute(p);
                  prompt = e.finalPrompt();
                  calls = e.steps().size();
                  tokens = e.tokensIn() + e.tokensOut();
                }
                t.nanos += System.nanoTime() - t0;
                t.n++;
                if (contains(prompt, q.answers())) t.answerIn++;
                for (Source s : p.sources()) {
                  if (s.docId().equals("p" + ctx.index())) {
                    t.paragraphRead++;
                    break;
                  }
                }
                t.calls += calls;
                t.tokens += tokens;
                if (p.fallback() != null) t.fallbacks++;
              } catch (IllegalArgumentException e) {
                t.failed++; // a budget too small for the plan
              }
            }
            String row = String.format(Locale.ROOT, "| %s | %d | %s | %.1f %% | %.1f %% | %.2f | %.0f | %.1f %% | %.1f |%n",
                ds + (lang == Language.PT ? " (pt)" : " (en)"), budget, c.name(), pct(t.answerIn, t.n),
                pct(t.paragraphRead, t.n), t.n == 0 ? 0.0 : (double) t.calls / t.n, t.n == 0 ? 0.0 : (double) t.tokens / t.n,
                pct(t.fallbacks, t.n), t.n == 0 ? 0.0 : t.nanos / 1e6 / t.n);
            md.append(row);
            log.print("[strategies] " + row);
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("dataset", ds);
            r.put("budget", budget);
            r.put("config", c.name());
            r.put("questions", t.n);
            r.put("failed", t.failed);
            r.put("answerInFinalPrompt", t.answerIn);
            r.put("goldParagraphRead", t.paragraphRead);
            r.put("calls", t.calls);
            r.put("tokens", t.tokens);
            r.put("fallbacks", t.fallbacks);
            json.put(ds + "@" + budget + ":" + c.name(), r);
          }
        }
      }
    } finally {
      RunSupport.deleteTree(work);
    }
  }

  private static double pct(int a, int n) {
    return n == 0 ? 0.0 : 100.0 * a / n;
  }

  private static boolean contains(String prompt, List<String> answers) {
    String p = fold(prompt);
    for (String a : answers) if (p.contains(fold(a))) return true;
    return false;
  }

  private static String fold(String s) {
    String n = Normalizer.normalize(s, Normalizer.Form.NFKD).replaceAll("\\p{M}+", "");
    return n.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
  }
}
