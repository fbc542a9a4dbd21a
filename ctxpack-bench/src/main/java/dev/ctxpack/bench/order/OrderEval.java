package dev.ctxpack.bench.order;

import dev.ctxpack.model.Stage;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.Environment;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.dedup.SquadV2;
import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.compress.IndexSentenceVectors;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.embed.CachingEmbedder;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Source;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.order.OrderMode;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ctxpack eval order}. Two parts, on real data:
 *
 * <ol>
 *   <li><b>Topic thresholds.</b> Paragraphs of SQuAD 2.0 dev (en) and FaQuAD (pt) carry their article's
 *       title; {@link TopicCalibration} picks the similarity thresholds of the topic order on the fit
 *       half of the articles (vectors: the index's MiniLM chunk vectors of SQuAD, what the packer
 *       uses; terms: both languages pooled) and reports them on the test half.
 *   <li><b>Where the gold evidence lands.</b> Each data set's paragraphs are ingested by the real
 *       {@code Ingestor} (SQuAD with MiniLM vectors and sentence vectors, FaQuAD without: the model
 *       reads English only, so Portuguese runs as BM25) and a fixed-seed sample of answerable questions
 *       is packed as the CLI wires it (feature reranker, compression, MMR) once per order, then with
 *       {@code --repeat-key}. For each package: is the question's own paragraph (the gold block) in
 *       the prompt, at which block, how deep in the middle counted in blocks and in tokens, and what
 *       the repeated key cost and held.
 * </ol>
 */
@Command(name = "order", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Where each pack order puts the gold evidence, the cost of --repeat-key, and the topic thresholds.")
public final class OrderEval implements Callable<Integer> {
  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/order).")
  Path out;

  @Option(names = "--work-dir", description = "Where the corpora and indexes go (default: a temporary folder, deleted after).")
  Path workDir;

  @Option(names = "--seed", description = "Seed of the question sample and the topic sets (default: ${DEFAULT-VALUE}).")
  long seed = 11;

  @Option(names = "--questions", description = "Answerable questions packed per data set (default: ${DEFAULT-VALUE}).")
  int questions = 400;

  @Option(names = "--budgets", split = ",", description = "Prompt budgets in tokens (default: 1000,2000).")
  List<Integer> budgets = new ArrayList<>(List.of(1000, 2000));

  @Option(names = "--topic-sets", description = "Topic sets per language and half (default: ${DEFAULT-VALUE}).")
  int topicSets = 300;

  @Option(names = "--progress", description = "Progress lines on stderr.")
  boolean progress;

  private String[] args = new String[0];
  private PrintStream log = System.err;
  private final Tokenizer tok = Tokenizers.defaultTokenizer();

  /** {@code ctxpack eval order ...}; returns the exit code. */
  public static int run(String[] args) {
    OrderEval e = new OrderEval();
    e.args = args.clone();
    return RunSupport.execute(e, "order", args);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** One data set: its paragraphs, language, id prefix. */
  record Data(String name, Language language, List<SquadV2.Context> contexts, String prefix) {
    String docId(int index) {
      return prefix + String.format(Locale.ROOT, "%04d", index);
    }
  }

  /** One way of packing. */
  record Config(String name, PackOptions options) {}

  @Override
  public Integer call() throws Exception {
    if (!progress) log = new PrintStream(java.io.OutputStream.nullOutputStream());
    if (questions < 1) throw new IllegalArgumentException("--questions must be >= 1, was " + questions);
    for (int b : budgets) if (b < 300) throw new IllegalArgumentException("budgets must be >= 300 tokens, was " + b);
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : RunSupport.projectRoot().resolve("ctxpack-bench/target/order");
    Path work = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("ctxpack-order");
    Map<String, String> env = Environment.describe();
    try {
      Path squad = dataDir.resolve("squad_v2_en/dev-v2.0.json");
      Path faquad = dataDir.resolve("faquad/train.json");
      for (Path p : List.of(squad, faquad)) if (!Files.isRegularFile(p)) throw new IOException("no " + p + ": pass --data DIR");
      Data en = new Data("SQuAD 2.0 dev", Language.EN, SquadV2.load(squad), "squad-");
      Data pt = new Data("FaQuAD", Language.PT, SquadV2.load(faquad), "faquad-");
      Embedder embedder = new MiniLmEmbedder();
      Map<String, Object> report = new LinkedHashMap<>();
      String command = "java -jar ctxpack-bench/target/ctxpack-bench.jar order"
          + Arrays.stream(args).map(a -> " " + RunSupport.shellQuote(a)).collect(Collectors.joining());
      report.put("command", command);
      report.put("environment", env);
      StringBuilder md = new StringBuilder("# Ordering: where the gold evidence lands\n\nCommand: `" + command + "`\n\n");
      env.forEach((k, v) -> md.append(k).append(": ").append(v).append("; "));
      md.append("\n\n");

      LuceneIndex enIndex = ingest(en, work, embedder);
      LuceneIndex ptIndex = ingest(pt, work, null);
      try {
        Packing enPacking = packing(en, enIndex, embedder);
        Packing ptPacking = packing(pt, ptIndex, embedder);
        report.put("topic", TopicCalibration.calibrate(en, pt, enPacking, ptPacking, enIndex, topicSets, seed, md));
        List<Object> placement = new ArrayList<>();
        placement.add(placement(en, enPacking, md));
        placement.add(placement(pt, ptPacking, md));
        report.put("placement", placement);
      } finally {
        enIndex.close();
        ptIndex.close();
      }
      env.put("loadAverageAtEnd", Environment.loadAverage());
      md.append("\nload average at the end: ").append(env.get("loadAverageAtEnd")).append('\n');
      System.out.println(md);
      Files.createDirectories(outDir);
      Files.writeString(outDir.resolve("order.md"), md.toString(), StandardCharsets.UTF_8);
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(outDir.resolve("order.json").toFile(), report);
      log.println("wrote " + outDir.resolve("order.md") + " and order.json");
      return 0;
    } finally {
      if (workDir == null) RunSupport.deleteTree(work);
    }
  }

  private LuceneIndex ingest(Data d, Path work, Embedder embedderOrNull) throws IOException {
    Path corpus = work.resolve(d.prefix() + "corpus.jsonl");
    ObjectMapper json = new ObjectMapper();
    StringBuilder sb = new StringBuilder();
    for (SquadV2.Context c : d.contexts()) {
      Map<String, String> m = new LinkedHashMap<>();
      m.put("_id", d.docId(c.index()));
      m.put("title", c.title());
      m.put("text", c.text());
      sb.append(json.writeValueAsString(m)).append('\n');
    }
    Files.writeString(corpus, sb.toString(), StandardCharsets.UTF_8);
    Path dir = work.resolve(d.prefix() + "index");
    RunSupport.deleteTree(dir);
    long t0 = System.nanoTime();
    if (embedderOrNull == null) {
      CtxpackPipeline.ingestNoEmbed(corpus, dir, d.language(), CtxpackPipeline.CHUNK_TOKENS);
      log.printf(Locale.ROOT, "[order] %s ingested without vectors in %.1f s%n", d.name(), (System.nanoTime() - t0) / 1e9);
      return LuceneIndex.openExisting(dir);
    }
    CtxpackPipeline p = CtxpackPipeline.open(dir, embedderOrNull, CtxpackPipeline.CHUNK_TOKENS);
    p.ingest(corpus, d.language());
    log.printf(Locale.ROOT, "[order] %s ingested with vectors in %.1f s%n", d.name(), (System.nanoTime() - t0) / 1e9);
    return p.index();
  }

  // ---- part 1: topic thresholds

  /** The packer of a data set as the CLI wires it, and its base options. */
  record Packing(DefaultContextPacker packer, PackOptions base) {}

  private static Packing packing(Data d, LuceneIndex index, Embedder embedder) {
    boolean english = d.language() == Language.EN;
    Embedder queries = new CachingEmbedder(embedder, 64);
    HybridRetriever retriever = new HybridRetriever(index, queries);
    SentenceVectors sentences = english ? new IndexSentenceVectors(index, queries) : SentenceVectors.none();
    DefaultContextPacker packer = DefaultContextPacker.builder().retriever(retriever)
        .vectors(PassageVectors.fromIndex(index, embedder.languages()))
        .reranker(FeatureReranker.defaults()).sentenceVectors(sentences).build();
    PackOptions base = PackOptions.defaults();
    if (!english) base = base.toBuilder().retrieval(new RetrievalOptions(RetrievalMode.BM25, 40, 20, 20)).build();
    return new Packing(packer, base);
  }


  // ---- part 2: placement

  /** Sums over the questions of one configuration at one budget. */
  static final class Tally {
    int n;
    int gold;
    int answer;
    int placed; // gold present and at least two sources
    int first;
    int last;
    int edge;
    double position;
    double middleBlocks;
    double middleTokens;
    long sources;
    long tokens;
    int keyed;
    long keyTokens;
    int keyAnswer;
    long groups;
    int grouped;

    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("questions", n);
      m.put("goldInPrompt", share(gold, n));
      m.put("answerInPrompt", share(answer, n));
      m.put("placed", placed);
      m.put("goldFirst", share(first, placed));
      m.put("goldLast", share(last, placed));
      m.put("goldAtAnEdge", share(edge, placed));
      m.put("meanPosition", placed == 0 ? Double.NaN : position / placed);
      m.put("middleByBlocks", placed == 0 ? Double.NaN : middleBlocks / placed);
      m.put("middleByTokens", placed == 0 ? Double.NaN : middleTokens / placed);
      m.put("meanSources", n == 0 ? Double.NaN : sources / (double) n);
      m.put("meanTokensUsed", n == 0 ? Double.NaN : tokens / (double) n);
      m.put("keyed", keyed);
      m.put("meanKeyTokens", keyed == 0 ? Double.NaN : keyTokens / (double) keyed);
      m.put("keyHoldsAnswer", share(keyAnswer, keyed));
      m.put("meanTopicGroups", grouped == 0 ? Double.NaN : groups / (double) grouped);
      return m;
    }

    static double share(int k, int n) {
      return n == 0 ? Double.NaN : k / (double) n;
    }
  }

  private Map<String, Object> placement(Data d, Packing packing, StringBuilder md) throws IOException {
    List<int[]> all = new ArrayList<>(); // {context, question}
    for (SquadV2.Context c : d.contexts()) for (int i = 0; i < c.questions().size(); i++) all.add(new int[] {c.index(), i});
    Collections.shuffle(all, new Random(seed + (d.language() == Language.PT ? 7 : 5)));
    List<int[]> sample = new ArrayList<>(all.subList(0, Math.min(questions, all.size())));
    sample.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));

    boolean english = d.language() == Language.EN;
    DefaultContextPacker packer = packing.packer();
    PackOptions base = packing.base();
    List<Config> configs = new ArrayList<>();
    configs.add(new Config("selection order (--no-reorder)", base.toBuilder().reorder(false).build()));
    for (OrderMode m : List.of(OrderMode.LOST_IN_THE_MIDDLE, OrderMode.SCORE, OrderMode.SOURCE, OrderMode.TOPIC, OrderMode.POSITION)) {
      configs.add(new Config(m.key(), base.toBuilder().order(m).build()));
    }
    configs.add(new Config("lost-in-the-middle --repeat-key", base.toBuilder().repeatKey(true).build()));
    configs.add(new Config("score --repeat-key", base.toBuilder().order(OrderMode.SCORE).repeatKey(true).build()));

    Map<String, Tally> tallies = new LinkedHashMap<>();
    for (int b : budgets) for (Config c : configs) tallies.put(c.name() + "@" + b, new Tally());
    long t0 = System.nanoTime();
    int done = 0;
    for (int[] qi : sample) {
      SquadV2.Context ctx = d.contexts().get(qi[0]);
      SquadV2.Question q = ctx.questions().get(qi[1]);
      String gold = d.docId(ctx.index());
      for (int b : budgets) {
        for (Config c : configs) {
          ContextPackage p = packer.pack(q.text(), c.options().toBuilder().budget(b).build());
          measure(p, gold, q.answers(), d.language(), tallies.get(c.name() + "@" + b));
        }
      }
      if (++done % 50 == 0) {
        log.printf(Locale.ROOT, "[order] %s: %d / %d questions, %.0f s%n", d.name(), done, sample.size(), (System.nanoTime() - t0) / 1e9);
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;

    md.append("## ").append(d.name()).append(": where the question's own paragraph lands\n\n")
        .append(sample.size()).append(" of ").append(all.size()).append(" answerable questions (fixed sample, seed ")
        .append(seed).append("), ").append(d.contexts().size()).append(" paragraphs indexed")
        .append(english ? " with MiniLM vectors and sentence vectors; hybrid retrieval" : " without vectors; BM25 retrieval")
        .append(", feature reranker, MMR λ 0.7, compression on (as `ctxpack pack` ships). Positions over the packages")
        .append(" whose prompt holds the gold paragraph in at least two blocks' company; middle-ness 0 = at an edge,")
        .append(" 1 = the exact middle, by block centres and by token centres. ")
        .append(String.format(Locale.ROOT, "%.0f s for %d packages.%n", seconds, sample.size() * budgets.size() * configs.size()));
    List<Object> rows = new ArrayList<>();
    for (int b : budgets) {
      md.append("\nBudget ").append(b).append(" tokens:\n\n");
      md.append("| order | gold in prompt | answer in prompt | gold first | gold last | first or last | mean position"
          + " | middle-ness (blocks) | middle-ness (tokens) | sources | tokens used | key tokens | key holds the answer |\n");
      md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (Config c : configs) {
        Tally t = tallies.get(c.name() + "@" + b);
        Map<String, Object> j = t.json();
        md.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.0f | %s | %s |%n",
            c.name() + (t.grouped > 0 ? String.format(Locale.ROOT, " (%.1f groups)", t.groups / (double) t.grouped) : ""),
            j.get("goldInPrompt"), j.get("answerInPrompt"), j.get("goldFirst"), j.get("goldLast"),
            j.get("goldAtAnEdge"), j.get("meanPosition"), j.get("middleByBlocks"),
            j.get("middleByTokens"), j.get("meanSources"), j.get("meanTokensUsed"),
            t.keyed == 0 ? "" : String.format(Locale.ROOT, "%.1f", t.keyTokens / (double) t.keyed),
            t.keyed == 0 ? "" : String.format(Locale.ROOT, "%.3f", t.keyAnswer / (double) t.keyed)));
        j.put("configuration", c.name());
        j.put("budget", b);
        rows.add(j);
      }
    }
    md.append('\n');
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("data", d.name());
    m.put("questions", sample.size());
    m.put("seconds", seconds);
    m.put("rows", rows);
    return m;
  }

  private void measure(ContextPackage p, String gold, List<String> answers, Language language, Tally t) {
    t.n++;
    List<Source> s = p.sources();
    t.sources += s.size();
    t.tokens += p.budget().used();
    boolean answered = false;
    for (Source x : s) for (String a : answers) answered |= x.text().contains(a);
    t.answer += answered ? 1 : 0;
    List<Integer> goldAt = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      int at = i;
      if (s.get(i).spans().stream().anyMatch(sp -> sp.docId().equals(gold))) goldAt.add(at);
    }
    if (!goldAt.isEmpty()) t.gold++;
    Integer key = p.budget().byComponent().get("key");
    if (key != null) {
      t.keyed++;
      t.keyTokens += key;
      String header = language == Language.PT ? "Trecho principal (repetido de " : "Key passage (repeated from ";
      int h = p.prompt().lastIndexOf(header);
      String block = h < 0 ? "" : p.prompt().substring(h);
      boolean inKey = false;
      for (String a : answers) inKey |= block.contains(a);
      t.keyAnswer += inKey ? 1 : 0;
    }
    for (Decision d : p.trace()) {
      if (d.stage() == Stage.ORDER && d.rule().equals("topic")) {
        int g = d.reason().indexOf(" group(s)");
        if (g > 0) {
          t.groups += Integer.parseInt(d.reason().substring(d.reason().lastIndexOf(' ', g - 1) + 1, g));
          t.grouped++;
        }
      }
    }
    int n = s.size();
    if (goldAt.isEmpty() || n < 2) return;
    t.placed++;
    if (goldAt.contains(0)) t.first++;
    if (goldAt.contains(n - 1)) t.last++;
    if (goldAt.contains(0) || goldAt.contains(n - 1)) t.edge++;
    // The best-placed gold block: the one nearest an edge.
    int best = goldAt.get(0);
    for (int i : goldAt) if (Math.min(i, n - 1 - i) < Math.min(best, n - 1 - best)) best = i;
    t.position += goldAt.get(0) / (double) (n - 1);
    t.middleBlocks += middle((best + 0.5) / n);
    // The same block's centre in tokens of the SOURCES section.
    int[] starts = new int[n + 1];
    int from = 0;
    for (int i = 0; i < n; i++) {
      int at = p.prompt().indexOf(" id=\"" + s.get(i).label() + "\"", from);
      starts[i] = p.prompt().lastIndexOf('<', at);
      from = at + 1;
    }
    int lastOpen = starts[n - 1];
    String tag = p.prompt().substring(lastOpen + 1, p.prompt().indexOf(' ', lastOpen));
    starts[n] = p.prompt().indexOf("</" + tag + ">", lastOpen) + tag.length() + 3;
    int total = tok.count(p.prompt().substring(starts[0], starts[n]));
    int before = tok.count(p.prompt().substring(starts[0], starts[best]));
    int own = tok.count(p.prompt().substring(starts[best], starts[best + 1]));
    t.middleTokens += middle((before + own / 2.0) / total);
  }

  /** 0 at either edge, 1 at the centre, for a centre {@code c} in [0, 1]. */
  static double middle(double c) {
    return 1 - Math.abs(2 * c - 1);
  }
}
