package dev.ctxpack.bench.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.assemble.Memory;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.data.AssinLoader;
import dev.ctxpack.bench.data.MrpcLoader;
import dev.ctxpack.bench.data.TextPair;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.lucene.LuceneMemoryStore;
import dev.ctxpack.onnx.MiniLmEmbedder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Episodic recall of the memory store on real paraphrase pairs: one side of each pair is stored as a
 * user's episode, the other side is the query, and the store should bring the stored side back.
 * English: MRPC train pairs judged paraphrases; Portuguese: ASSIN pairs labelled {@code
 * Paraphrase} (pt-BR and pt-PT, all six files). The haystack of each user also holds the first side
 * of as many non-paraphrase pairs of the same files (related news sentences: hard distractors).
 * Each language is its own user of one store, so the run also checks that recall never crosses
 * users. Measured for the store's three scorings (hybrid, BM25 alone, the embedder's cosine alone)
 * and beside the naive memory that brings the newest k episodes, in the same run. On demand only:
 * {@code ./ctxpack eval memory}.
 */
@Command(name = "eval memory", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Episodic memory recall@k on MRPC (en) and ASSIN (pt) paraphrase pairs: store one side, query with the other.")
public final class MemoryEval implements Callable<Integer> {
  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data relative to the project root).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/eval/memory).")
  Path out;

  @Option(names = "--pairs", description = "Paraphrase pairs per language (queries; default: ${DEFAULT-VALUE}).")
  int pairs = 500;

  @Option(names = "--work", description = "Where the store is written (default: a temporary folder, in /dev/shm when there is one).")
  Path work;

  private String[] args = new String[0];
  static final int[] KS = {1, 5, 10};
  static final String UNGATED = " (vectors for every language)";
  static final List<String> METHODS = List.of("hybrid", "bm25", "dense", "hybrid" + UNGATED, "dense" + UNGATED);

  public static int run(String[] args) {
    MemoryEval e = new MemoryEval();
    e.args = args.clone();
    return RunSupport.execute(e, "memory", args);
  }

  /** One language's queries and haystack. */
  record Set1(String language, String source, List<TextPair> gold, List<String> haystack) {}

  @Override
  public Integer call() throws Exception {
    if (pairs < 10) throw new IllegalArgumentException("--pairs must be >= 10, was " + pairs);
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/eval/memory");
    Files.createDirectories(outDir);
    long started = System.nanoTime();
    List<Set1> sets = List.of(
        set("en", "MRPC train", MrpcLoader.load(dataDir.resolve("mrpc/msr_paraphrase_train.txt"))),
        set("pt", "ASSIN (6 files)", AssinLoader.loadAll(dataDir.resolve("assin"))));
    Path shm = Path.of("/dev/shm");
    Path dir = work != null ? Files.createDirectories(work)
        : Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "ctxpack-memory")
        : Files.createTempDirectory("ctxpack-memory");
    Embedder embedder = new MiniLmEmbedder();
    Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    Map<String, Map<String, Object>> results = new LinkedHashMap<>();
    try {
      Path store = dir.resolve("memory");
      double addSeconds;
      long t0 = System.nanoTime();
      try (LuceneMemoryStore s = LuceneMemoryStore.open(store, embedder, clock, "hybrid")) {
        for (Set1 set : sets) for (String text : set.haystack()) s.add(set.language(), Memory.Kind.EPISODE, text);
      }
      addSeconds = (System.nanoTime() - t0) / 1e9;
      int added = sets.stream().mapToInt(x -> x.haystack().size()).sum();
      // The same model claiming every language: what its vectors do for Portuguese queries, which the
      // store (like retrieval) does not use by default.
      Embedder ungated = new Embedder() {
        @Override
        public String id() {
          return embedder.id();
        }

        @Override
        public int dimension() {
          return embedder.dimension();
        }

        @Override
        public List<float[]> embed(List<String> texts) {
          return embedder.embed(texts);
        }
      };
      for (String method : METHODS) {
        String scoring = method.replace(UNGATED, "");
        try (LuceneMemoryStore s = LuceneMemoryStore.open(store, method.endsWith(UNGATED) ? ungated : embedder, clock,
            scoring)) {
          for (Set1 set : sets) {
            Map<String, Object> r = results.computeIfAbsent(set.language(), k -> new LinkedHashMap<>());
            r.put("source", set.source());
            r.put("queries", set.gold().size());
            r.put("haystack", set.haystack().size());
            r.put(method, measure(s, set));
          }
        }
      }
      for (Set1 set : sets) results.get(set.language()).put("newest-k", newest(set));
      Map<String, Object> all = new LinkedHashMap<>();
      all.put("results", results);
      all.put("addMillisPerMemory", 1000 * addSeconds / added);
      ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
      Files.writeString(outDir.resolve("results.json"), json.writeValueAsString(all), StandardCharsets.UTF_8);
      String md = markdown(results, 1000 * addSeconds / added);
      Files.writeString(outDir.resolve("results.md"), md, StandardCharsets.UTF_8);
      Map<String, Object> run = new LinkedHashMap<>(Environment.describe());
      run.put("command", "./ctxpack eval memory" + String.join("", java.util.Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).toList()));
      run.put("seconds", (System.nanoTime() - started) / 1e9);
      Files.writeString(outDir.resolve("run.json"), json.writeValueAsString(run), StandardCharsets.UTF_8);
      System.out.print(md);
    } finally {
      if (work == null) RunSupport.deleteTree(dir);
    }
    return 0;
  }

  private Set1 set(String language, String source, List<TextPair> all) {
    List<TextPair> gold = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    List<String> haystack = new ArrayList<>();
    for (TextPair p : all) {
      if (gold.size() == pairs) break;
      if (!p.paraphrase() || p.a().equals(p.b())) continue;
      if (!seen.add(key(p.a()))) continue;
      gold.add(p);
      haystack.add(p.a());
    }
    List<String> distractors = new ArrayList<>();
    for (TextPair p : all) {
      if (distractors.size() == gold.size()) break;
      if (p.paraphrase()) continue;
      if (!seen.add(key(p.a()))) continue;
      distractors.add(p.a());
    }
    // Stored alternately, so the newest k are as likely to hold a gold memory as any k.
    List<String> interleaved = new ArrayList<>();
    for (int i = 0; i < haystack.size(); i++) {
      interleaved.add(haystack.get(i));
      if (i < distractors.size()) interleaved.add(distractors.get(i));
    }
    return new Set1(language, source, gold, interleaved);
  }

  private static String key(String s) {
    return dev.ctxpack.text.TextNormalizer.identityForm(s);
  }

  /** Recall@k and MRR@10 of the stored side for each query; also that every result is the user's. */
  private static Map<String, Double> measure(LuceneMemoryStore s, Set1 set) throws Exception {
    int[] hits = new int[KS.length];
    double mrr = 0;
    long[] nanos = new long[set.gold().size()];
    int q = 0;
    int hard = 0;
    int hardHits = 0;
    for (TextPair p : set.gold()) {
      String want = LuceneMemoryStore.idOf(set.language(), Memory.Kind.EPISODE, p.a());
      long t0 = System.nanoTime();
      List<Memory> got = s.recall(set.language(), p.b(), 10);
      nanos[q++] = System.nanoTime() - t0;
      for (Memory m : got) {
        if (!m.user().equals(set.language())) throw new IllegalStateException("recall crossed users: " + m);
      }
      int rank = -1;
      for (int i = 0; i < got.size(); i++) if (got.get(i).id().equals(want)) rank = i + 1;
      for (int k = 0; k < KS.length; k++) if (rank > 0 && rank <= KS[k]) hits[k]++;
      if (rank > 0) mrr += 1.0 / rank;
      if (jaccard(p.a(), p.b()) < HARD) {
        hard++;
        if (rank == 1) hardHits++;
      }
    }
    Map<String, Double> r = new LinkedHashMap<>();
    for (int k = 0; k < KS.length; k++) r.put("recall@" + KS[k], (double) hits[k] / set.gold().size());
    r.put("mrr@10", mrr / set.gold().size());
    r.put("hardQueries", (double) hard);
    r.put("hardRecall@1", hard == 0 ? Double.NaN : (double) hardHits / hard);
    java.util.Arrays.sort(nanos);
    r.put("recallMillisP50", nanos[nanos.length / 2] / 1e6);
    r.put("recallMillisP99", nanos[Math.min(nanos.length - 1, (int) Math.ceil(nanos.length * 0.99) - 1)] / 1e6);
    return r;
  }

  /** Pairs whose word sets overlap less than this (Jaccard) are the hard subset: the query shares few words with its memory. */
  static final double HARD = 0.4;

  static double jaccard(String a, String b) {
    Set<String> x = words(a);
    Set<String> y = words(b);
    Set<String> union = new java.util.HashSet<>(x);
    union.addAll(y);
    x.retainAll(y);
    return union.isEmpty() ? 0 : (double) x.size() / union.size();
  }

  private static Set<String> words(String s) {
    Set<String> out = new java.util.HashSet<>();
    for (String w : s.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) if (!w.isEmpty()) out.add(w);
    return out;
  }

  /** The naive memory: the newest k episodes, whatever the query. */
  private static Map<String, Double> newest(Set1 set) {
    Map<String, Double> r = new LinkedHashMap<>();
    int n = set.haystack().size();
    for (int k : KS) {
      int hits = 0;
      for (TextPair p : set.gold()) {
        int at = set.haystack().indexOf(p.a());
        if (at >= n - k) hits++;
      }
      r.put("recall@" + k, (double) hits / set.gold().size());
    }
    return r;
  }

  @SuppressWarnings("unchecked")
  private static String markdown(Map<String, Map<String, Object>> results, double addMillis) {
    StringBuilder sb = new StringBuilder();
    sb.append("| language | set | queries | memories | method | recall@1 | recall@5 | recall@10 | MRR@10 | recall ms p50 / p99 | hard queries | hard recall@1 |\n");
    sb.append("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (var e : results.entrySet()) {
      Map<String, Object> r = e.getValue();
      List<String> methods = new ArrayList<>(METHODS);
      methods.add("newest-k");
      for (String m : methods) {
        Map<String, Double> v = (Map<String, Double>) r.get(m);
        sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %.3f | %.3f | %.3f | %s | %s | %s | %s |%n", e.getKey(),
            r.get("source"), (Integer) r.get("queries"), (Integer) r.get("haystack"), m, v.get("recall@1"),
            v.get("recall@5"), v.get("recall@10"), v.containsKey("mrr@10") ? String.format(Locale.ROOT, "%.3f",
                v.get("mrr@10")) : "–", v.containsKey("recallMillisP50") ? String.format(Locale.ROOT, "%.1f / %.1f",
                v.get("recallMillisP50"), v.get("recallMillisP99")) : "–",
            v.containsKey("hardQueries") ? String.format(Locale.ROOT, "%.0f", v.get("hardQueries")) : "–",
            v.containsKey("hardRecall@1") ? String.format(Locale.ROOT, "%.3f", v.get("hardRecall@1")) : "–"));
      }
    }
    sb.append(String.format(Locale.ROOT, "%nadd (embed + durable commit), mean: %.1f ms per memory%n", addMillis));
    return sb.toString();
  }
}
