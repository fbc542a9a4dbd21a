package dev.ctxpack.bench.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.assemble.ToolRanker;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.PairedTest;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.lucene.HybridToolRanker;
import dev.ctxpack.onnx.Embedders;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RrfFusion;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Tool selection on the labelled set of {@link ToolCatalogues}: for each request, the catalogue's
 * tools are ranked by each method and the positions of the request's relevant tools give recall@k
 * (the share of its relevant tools in the first k), hit@k (at least one of them in the first k) and
 * the reciprocal rank of the first one.
 *
 * <ol>
 *   <li>Baselines: the catalogue's own order, and name match (tools ordered by how many of the
 *       query's words their split name holds).
 *   <li>{@link HybridToolRanker} as BM25 alone, dense alone and hybrid (the default), over the
 *       embedder given by {@code --embedder}.
 *   <li>Per catalogue and language; hybrid compared with BM25 and dense by a paired sign-flip test on
 *       the reciprocal ranks.
 *   <li>Tokens: the schemas of the first 5 and 10 tools the hybrid picks beside all the catalogue's,
 *       counted with o200k_base; the time of one ranking call with the tool set cached (taken under
 *       whatever load the machine has: re-measure idle).
 * </ol>
 *
 * Writes {@code results.md} and {@code results.json} to {@code --out}. On demand only: {@code java
 * -jar ctxpack-bench/target/ctxpack-bench.jar tools}.
 */
@Command(name = "eval tools", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Tool selection recall@k and MRR on real tool schemas (MCP reference servers, GitHub REST) with labelled requests"
        + " in English and Portuguese: catalogue order, name match, BM25, dense and hybrid.")
public final class ToolEval implements Callable<Integer> {
  static final int[] KS = {1, 3, 5, 10};

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/tools).")
  Path out;

  @Option(names = "--embedder", description = "Embedder for dense and hybrid (default: ${DEFAULT-VALUE}).")
  String embedder = Embedders.DEFAULT;

  private String[] args = new String[0];

  public static int run(String[] args) {
    ToolEval e = new ToolEval();
    e.args = args.clone();
    return RunSupport.execute(e, "tools", args);
  }

  /** One method's result on one request. */
  record Outcome(String method, ToolCatalogues.Request request, int[] positions, int selected5, int selected10, long nanos) {
    double recall(int k) {
      int n = 0;
      for (int p : positions) if (p <= k) n++;
      return (double) n / positions.length;
    }

    boolean hit(int k) {
      return Arrays.stream(positions).min().orElseThrow() <= k;
    }

    double rr() {
      return 1.0 / Arrays.stream(positions).min().orElseThrow();
    }
  }

  @Override
  public Integer call() throws Exception {
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/tools");
    Files.createDirectories(outDir);
    Map<String, List<ToolSpec>> catalogues = ToolCatalogues.catalogues();
    List<ToolCatalogues.Request> requests = ToolCatalogues.requests(catalogues);
    Embedder emb = Embedders.byName(embedder);
    Tokenizer tokenizer = Tokenizers.defaultTokenizer();
    Map<String, ToolRanker> methods = new LinkedHashMap<>();
    methods.put("catalogue order", ToolRanker.inOrder());
    methods.put("name match", new NameMatchRanker());
    methods.put("bm25", new HybridToolRanker(null));
    methods.put("dense", new HybridToolRanker(emb, RetrievalMode.DENSE, RrfFusion.DEFAULT_K, HybridToolRanker.DEFAULT_CACHE_SIZE));
    methods.put("hybrid", new HybridToolRanker(emb));

    Map<String, Object> json = new LinkedHashMap<>();
    StringBuilder md = new StringBuilder();
    String command = "java -jar ctxpack-bench/target/ctxpack-bench.jar tools"
        + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(java.util.stream.Collectors.joining());
    md.append("Command: `").append(command).append("`\n\n");
    json.put("command", command);
    json.put("environment", Environment.describe());

    // catalogue sizes, the cost of sending every tool, and the first build of each ranker's index
    md.append("| catalogue | tools | requests (en / pt) | tokens of all tools | hybrid: index and embed them (ms, under load) |\n|---|---:|---:|---:|---:|\n");
    Map<String, Integer> allTokens = new LinkedHashMap<>();
    Map<String, Object> catJson = new LinkedHashMap<>();
    for (var c : catalogues.entrySet()) {
      int tokens = c.getValue().stream().mapToInt(t -> tokenizer.count(t.schemaJson())).sum();
      allTokens.put(c.getKey(), tokens);
      long buildMs = 0;
      for (var m : methods.entrySet()) {
        long t0 = System.nanoTime();
        m.getValue().rank("warm up", c.getValue());
        if (m.getKey().equals("hybrid")) buildMs = (System.nanoTime() - t0) / 1_000_000;
      }
      long en = requests.stream().filter(r -> r.catalogue().equals(c.getKey()) && r.lang().equals("en")).count();
      long pt = requests.stream().filter(r -> r.catalogue().equals(c.getKey()) && r.lang().equals("pt")).count();
      md.append(String.format(Locale.ROOT, "| %s | %d | %d (%d / %d) | %,d | %d |%n", c.getKey(), c.getValue().size(), en + pt, en, pt,
          tokens, buildMs));
      catJson.put(c.getKey(), Map.of("tools", c.getValue().size(), "requestsEn", en, "requestsPt", pt, "tokensAll", tokens,
          "hybridBuildMs", buildMs));
    }
    json.put("catalogues", catJson);
    md.append("\n");

    List<Outcome> outcomes = new ArrayList<>();
    for (var m : methods.entrySet()) {
      for (ToolCatalogues.Request r : requests) {
        List<ToolSpec> tools = catalogues.get(r.catalogue());
        long t0 = System.nanoTime();
        List<ToolRanker.Ranked> ranked = m.getValue().rank(r.text(), tools);
        long nanos = System.nanoTime() - t0;
        if (ranked.size() != tools.size()) throw new IllegalStateException(m.getKey() + " lost tools on " + r.id());
        int[] positions = r.relevant().stream().mapToInt(name -> position(ranked, name)).toArray();
        outcomes.add(new Outcome(m.getKey(), r, positions, tokens(tokenizer, ranked, 5), tokens(tokenizer, ranked, 10), nanos));
      }
    }

    Map<String, Object> quality = new LinkedHashMap<>();
    for (String catalogue : List.of("mcp", "github", "all")) {
      md.append("#### ").append(catalogue.equals("all") ? "Both catalogues" : "Catalogue " + catalogue).append("\n\n");
      md.append("| method | lang | requests | recall@1 | recall@3 | recall@5 | recall@10 | MRR | hit@1 | hit@5 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      Map<String, Object> cq = new LinkedHashMap<>();
      for (String method : methods.keySet()) {
        for (String lang : List.of("en", "pt", "all")) {
          List<Outcome> os = select(outcomes, method, catalogue, lang);
          Map<String, Double> row = new LinkedHashMap<>();
          StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| %s | %s | %d |", method, lang, os.size()));
          for (int k : KS) {
            double v = os.stream().mapToDouble(o -> o.recall(k)).average().orElse(0);
            row.put("recall@" + k, v);
            line.append(String.format(Locale.ROOT, " %.3f |", v));
          }
          double mrr = os.stream().mapToDouble(Outcome::rr).average().orElse(0);
          row.put("mrr", mrr);
          line.append(String.format(Locale.ROOT, " %.3f |", mrr));
          for (int k : new int[] {1, 5}) {
            double h = os.stream().filter(o -> o.hit(k)).count() / (double) Math.max(1, os.size());
            row.put("hit@" + k, h);
            line.append(String.format(Locale.ROOT, " %.3f |", h));
          }
          cq.put(method + "/" + lang, row);
          md.append(method.equals("hybrid") ? line.toString().replace("| hybrid |", "| **hybrid** |") : line).append('\n');
        }
      }
      quality.put(catalogue, cq);
      md.append('\n');
    }
    json.put("quality", quality);

    md.append("Paired sign-flip test on the reciprocal rank (both catalogues; ").append(PairedTest.ROUNDS)
        .append(" rounds, seed ").append(PairedTest.SEED).append("):\n\n| comparison | lang | mean ΔRR | wins / losses | p |\n|---|---|---:|---:|---:|\n");
    List<Map<String, Object>> tests = new ArrayList<>();
    for (String base : List.of("bm25", "dense")) {
      for (String lang : List.of("en", "pt", "all")) {
        List<Outcome> h = select(outcomes, "hybrid", "all", lang);
        List<Outcome> b = select(outcomes, base, "all", lang);
        double[] diff = new double[h.size()];
        int wins = 0;
        int losses = 0;
        for (int i = 0; i < diff.length; i++) {
          diff[i] = h.get(i).rr() - b.get(i).rr();
          if (diff[i] > 0) wins++;
          if (diff[i] < 0) losses++;
        }
        double mean = Arrays.stream(diff).average().orElse(0);
        double p = PairedTest.pValue(diff, PairedTest.ROUNDS, PairedTest.SEED);
        md.append(String.format(Locale.ROOT, "| hybrid vs %s | %s | %+.3f | %d / %d | %.4f |%n", base, lang, mean, wins, losses, p));
        tests.add(Map.of("baseline", base, "lang", lang, "meanDeltaRR", mean, "wins", wins, "losses", losses, "p", p));
      }
    }
    json.put("pairedTests", tests);

    md.append("\nTokens of the tools sent (o200k_base, the canonical serialized schemas), and one ranking call with the tool set"
        + " cached (under load):\n\n| catalogue | all tools | hybrid top 5 (mean) | hybrid top 10 (mean) | hybrid recall@5 / @10 |"
        + " rank call, hybrid, mean / p99 (ms) | bm25 mean (ms) |\n|---|---:|---:|---:|---:|---:|---:|\n");
    Map<String, Object> tokJson = new LinkedHashMap<>();
    for (String catalogue : catalogues.keySet()) {
      List<Outcome> h = select(outcomes, "hybrid", catalogue, "all");
      List<Outcome> b = select(outcomes, "bm25", catalogue, "all");
      double t5 = h.stream().mapToInt(Outcome::selected5).average().orElse(0);
      double t10 = h.stream().mapToInt(Outcome::selected10).average().orElse(0);
      double r5 = h.stream().mapToDouble(o -> o.recall(5)).average().orElse(0);
      double r10 = h.stream().mapToDouble(o -> o.recall(10)).average().orElse(0);
      long[] ns = h.stream().mapToLong(Outcome::nanos).sorted().toArray();
      double meanMs = Arrays.stream(ns).average().orElse(0) / 1e6;
      double p99Ms = ns[Math.min(ns.length - 1, (int) Math.ceil(ns.length * 0.99) - 1)] / 1e6;
      double bmMs = b.stream().mapToLong(Outcome::nanos).average().orElse(0) / 1e6;
      md.append(String.format(Locale.ROOT, "| %s | %,d | %,.0f (%.1f %%) | %,.0f (%.1f %%) | %.3f / %.3f | %.1f / %.1f | %.1f |%n", catalogue,
          allTokens.get(catalogue), t5, 100 * t5 / allTokens.get(catalogue), t10, 100 * t10 / allTokens.get(catalogue), r5, r10,
          meanMs, p99Ms, bmMs));
      tokJson.put(catalogue, Map.of("all", allTokens.get(catalogue), "hybridTop5Mean", t5, "hybridTop10Mean", t10,
          "rankMsMean", meanMs, "rankMsP99", p99Ms, "bm25RankMsMean", bmMs));
    }
    json.put("tokens", tokJson);

    md.append("\nMisses of the hybrid at 5 (the relevant tools' positions):\n\n");
    List<String> misses = new ArrayList<>();
    for (Outcome o : select(outcomes, "hybrid", "all", "all")) {
      if (o.recall(5) < 1.0) {
        misses.add("- " + o.request().id() + " \"" + o.request().text() + "\": " + String.join(", ",
            o.request().relevant().stream().toList()) + " at " + Arrays.toString(o.positions()));
      }
    }
    md.append(String.join("\n", misses)).append("\n");
    json.put("hybridMissesAt5", misses);

    Files.writeString(outDir.resolve("results.md"), md.toString());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(outDir.resolve("results.json").toFile(), json);
    System.out.print(md);
    System.out.println("\nwrote " + outDir.resolve("results.md"));
    return 0;
  }

  private static List<Outcome> select(List<Outcome> all, String method, String catalogue, String lang) {
    return all.stream().filter(o -> o.method().equals(method))
        .filter(o -> catalogue.equals("all") || o.request().catalogue().equals(catalogue))
        .filter(o -> lang.equals("all") || o.request().lang().equals(lang)).toList();
  }

  private static int position(List<ToolRanker.Ranked> ranked, String name) {
    for (int i = 0; i < ranked.size(); i++) if (ranked.get(i).tool().name().equals(name)) return i + 1;
    throw new IllegalStateException("tool " + name + " missing from a ranking");
  }

  private static int tokens(Tokenizer tokenizer, List<ToolRanker.Ranked> ranked, int k) {
    int n = 0;
    for (int i = 0; i < Math.min(k, ranked.size()); i++) n += tokenizer.count(ranked.get(i).tool().schemaJson());
    return n;
  }
}
