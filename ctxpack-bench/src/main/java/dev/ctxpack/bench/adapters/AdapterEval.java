package dev.ctxpack.bench.adapters;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.dedup.DuplicatedCorpus;
import dev.ctxpack.bench.dedup.SquadV2;
import dev.ctxpack.bench.dedup.WindowFacts;
import dev.ctxpack.langchain4j.CtxpackContentAggregator;
import dev.ctxpack.langchain4j.CtxpackContentInjector;
import dev.ctxpack.langchain4j.PackedEvidence;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.springai.CtxpackDocumentPostProcessor;
import dev.ctxpack.springai.CtxpackDocuments;
import dev.ctxpack.springai.CtxpackQueryAugmenter;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.aggregator.DefaultContentAggregator;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.generation.augmentation.ContextualQueryAugmenter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The framework adapters measured on the same questions and the same framework retriever, with and
 * without ctxpack. The corpus is SQuAD 2.0 dev with every context repeated one to four times as
 * separate documents under light perturbations ({@link DuplicatedCorpus}, as {@code distinct-facts}
 * builds it); each document is one LangChain4j {@link TextSegment} in an {@link
 * InMemoryEmbeddingStore}, embedded with LangChain4j's quantized MiniLM, and one {@link
 * EmbeddingStoreContentRetriever} (top {@code --k}) retrieves for every question. The same ranked
 * list then goes to each configuration:
 *
 * <ul>
 *   <li><b>LangChain4j default</b>: {@link DefaultContentAggregator} and {@link
 *       DefaultContentInjector}: every retrieved segment in the user message;
 *   <li><b>LangChain4j, top k cut to the budget</b>: the segments in rank order while the injected
 *       message stays within {@code --budget} tokens (what a user does without a token cap);
 *   <li><b>LangChain4j + ctxpack</b>: {@link CtxpackContentAggregator} ({@code evidenceTokens =
 *       --budget}) and {@link CtxpackContentInjector};
 *   <li><b>Spring AI default</b>: the segments as {@link Document}s through {@link
 *       ContextualQueryAugmenter};
 *   <li><b>Spring AI + ctxpack</b>: {@link CtxpackDocumentPostProcessor} ({@code evidenceTokens =
 *       --budget}) and {@link CtxpackQueryAugmenter};
 *   <li><b>... -deep</b>: both ctxpack rows again over the same retriever asked for {@code --deep-k}
 *       segments (twice {@code --k} by default): what a user with a token budget can afford.
 * </ul>
 *
 * Each window is measured by {@link WindowFacts} on its evidence (distinct answer-bearing contexts,
 * gold answers, whether the question's answer is there) and by the o200k tokens of the whole message
 * the model would get (instructions, evidence and question). Spring AI's configurations are given
 * the LangChain4j retriever's list converted to Documents, so both frameworks see exactly the same
 * evidence. Writes Markdown and JSON into {@code --out}.
 */
@Command(name = "adapters", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Distinct facts and tokens per request through LangChain4j and Spring AI, with and without ctxpack.")
public final class AdapterEval implements Callable<Integer> {
  @Option(names = "--data", description = "The shared data folder (default: $CTXPACK_DATA, else ../shared/data).")
  Path data;

  @Option(names = "--out", description = "Output folder (default: ctxpack-bench/target/adapters).")
  Path out;

  @Option(names = "--seed", description = "Seed of the copies, perturbations and question sample (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(names = "--max-questions", description = "A fixed-seed sample of N answerable questions (0 = all; default: ${DEFAULT-VALUE}).")
  int maxQuestions = 500;

  @Option(names = "--k", description = "Segments the framework retriever returns per question (default: ${DEFAULT-VALUE}).")
  int k = 10;

  @Option(names = "--budget", description = "Tokens of the whole user message ctxpack may use, and the cap of the cut baseline (default: ${DEFAULT-VALUE}).")
  int budget = 1000;

  @Option(names = "--progress", description = "Progress lines on stderr.")
  boolean progress;

  private PrintStream log = System.err;

  public static int run(String[] args) {
    return RunSupport.execute(new AdapterEval(), "adapters", args);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  @Option(names = "--deep-k", description = "Segments the same retriever returns for the deeper ctxpack rows (0 = 2 × --k; default: ${DEFAULT-VALUE}).")
  int deepK = 0;

  static final String[] CONFIGS = {"langchain4j-default", "langchain4j-cut-to-budget", "langchain4j+ctxpack",
      "spring-ai-default", "spring-ai+ctxpack", "langchain4j+ctxpack-deep", "spring-ai+ctxpack-deep"};

  /** Sums over the questions of one configuration. */
  static final class Tally {
    int n;
    long contexts;
    long gold;
    long hits;
    long sources;
    long tokens;
    long nanos;
    final List<Integer> tokenList = new ArrayList<>();

    void add(WindowFacts.Measures m, int messageTokens, long ns) {
      n++;
      contexts += m.contexts();
      gold += m.goldAnswers();
      hits += m.hit() ? 1 : 0;
      sources += m.sources();
      tokens += messageTokens;
      tokenList.add(messageTokens);
      nanos += ns;
    }

    double mean(long v) {
      return n == 0 ? Double.NaN : v / (double) n;
    }

    int percentile(double p) {
      List<Integer> sorted = new ArrayList<>(tokenList);
      Collections.sort(sorted);
      return sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("questions", n);
      m.put("meanContexts", mean(contexts));
      m.put("meanGoldAnswers", mean(gold));
      m.put("answerHitRate", mean(hits));
      m.put("meanSources", mean(sources));
      m.put("meanMessageTokens", mean(tokens));
      m.put("p95MessageTokens", percentile(0.95));
      m.put("maxMessageTokens", percentile(1.0));
      m.put("contextsPer1000Tokens", tokens == 0 ? 0 : 1000.0 * contexts / tokens);
      m.put("meanMs", mean(nanos) / 1e6);
      return m;
    }
  }

  @Override
  public Integer call() throws Exception {
    if (!progress) log = new PrintStream(java.io.OutputStream.nullOutputStream());
    if (k < 1 || k > 200) throw new IllegalArgumentException("--k must be in [1, 200], was " + k);
    if (budget < 300) throw new IllegalArgumentException("--budget must be >= 300 tokens, was " + budget);
    Path root = RunSupport.projectRoot();
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path outDir = out != null ? out : root.resolve("ctxpack-bench/target/adapters");
    Path squad = dataDir.resolve("squad_v2_en/dev-v2.0.json");
    if (!Files.isRegularFile(squad)) throw new IOException("no SQuAD 2.0 dev at " + squad + ": pass --data DIR");
    String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();

    List<SquadV2.Context> contexts = SquadV2.load(squad);
    DuplicatedCorpus corpus = DuplicatedCorpus.build(contexts, seed);
    WindowFacts facts = new WindowFacts(contexts, corpus);
    log.println("[adapters] " + contexts.size() + " contexts -> " + corpus.copies().size() + " documents");

    List<int[]> all = new ArrayList<>();
    for (SquadV2.Context c : contexts) for (int i = 0; i < c.questions().size(); i++) all.add(new int[] {c.index(), i});
    List<int[]> questions = all;
    if (maxQuestions > 0 && maxQuestions < all.size()) {
      List<int[]> shuffled = new ArrayList<>(all);
      Collections.shuffle(shuffled, new Random(seed + 2));
      questions = new ArrayList<>(shuffled.subList(0, maxQuestions));
      questions.sort(Comparator.<int[]>comparingInt(a -> a[0]).thenComparingInt(a -> a[1]));
    }

    // The framework's own store and retriever, as a LangChain4j user builds them.
    EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel();
    InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
    List<TextSegment> segments = new ArrayList<>();
    for (DuplicatedCorpus.Copy c : corpus.copies()) {
      // One segment per document, so its offset in the document is 0: the adapters keep the document id.
      segments.add(TextSegment.from(c.text(), Metadata.from(Map.of("document_id", c.docId(), "start_index", 0, "title", c.title()))));
    }
    long t0 = System.nanoTime();
    for (int i = 0; i < segments.size(); i += 64) {
      List<TextSegment> batch = segments.subList(i, Math.min(segments.size(), i + 64));
      List<Embedding> vs = model.embedAll(batch).content();
      store.addAll(vs, batch);
      if (i % 640 == 0) log.println("[adapters] embedded " + (i + batch.size()) + " of " + segments.size());
    }
    double embedSeconds = (System.nanoTime() - t0) / 1e9;
    int deep = deepK > 0 ? deepK : 2 * k;
    EmbeddingStoreContentRetriever retriever = EmbeddingStoreContentRetriever.builder()
        .embeddingStore(store).embeddingModel(model).maxResults(k).build();
    EmbeddingStoreContentRetriever deeper = EmbeddingStoreContentRetriever.builder()
        .embeddingStore(store).embeddingModel(model).maxResults(deep).build();

    Tokenizer tok = Tokenizers.defaultTokenizer();
    DefaultContentAggregator l4jDefault = new DefaultContentAggregator();
    DefaultContentInjector l4jInjector = new DefaultContentInjector();
    CtxpackContentAggregator ctxAggregator = CtxpackContentAggregator.builder().evidenceTokens(budget).build();
    CtxpackContentInjector ctxInjector = CtxpackContentInjector.builder().evidenceTokens(budget).build();
    ContextualQueryAugmenter springDefault = ContextualQueryAugmenter.builder().build();
    CtxpackDocumentPostProcessor post = CtxpackDocumentPostProcessor.builder().evidenceTokens(budget).build();
    CtxpackQueryAugmenter springAugmenter = CtxpackQueryAugmenter.builder().postProcessor(post).build();

    Map<String, Tally> tallies = new LinkedHashMap<>();
    for (String c : CONFIGS) tallies.put(c, new Tally());
    int done = 0;
    for (int[] qi : questions) {
      SquadV2.Question q = contexts.get(qi[0]).questions().get(qi[1]);
      Query query = Query.from(q.text());
      List<Content> retrieved = retriever.retrieve(query);
      Map<Query, Collection<List<Content>>> byQuery = Map.of(query, List.of(retrieved));

      // LangChain4j default
      long s = System.nanoTime();
      List<Content> agg = l4jDefault.aggregate(byQuery);
      ChatMessage msg = l4jInjector.inject(agg, UserMessage.from(q.text()));
      long ns = System.nanoTime() - s;
      tallies.get(CONFIGS[0]).add(facts.measure(evidence(agg), 0, qi[0], q), tok.count(text(msg)), ns);

      // LangChain4j, the ranked segments while the message fits the budget
      s = System.nanoTime();
      List<Content> cut = new ArrayList<>();
      int cutTokens = tok.count(text(l4jInjector.inject(List.of(), UserMessage.from(q.text()))));
      for (Content c : agg) {
        cut.add(c);
        int t = tok.count(text(l4jInjector.inject(cut, UserMessage.from(q.text()))));
        if (t > budget) {
          cut.remove(cut.size() - 1);
          break;
        }
        cutTokens = t;
      }
      ns = System.nanoTime() - s;
      tallies.get(CONFIGS[1]).add(facts.measure(evidence(cut), 0, qi[0], q), cutTokens, ns);

      // LangChain4j + ctxpack
      s = System.nanoTime();
      PackedEvidence packed = ctxAggregator.pack(byQuery);
      ChatMessage ctxMsg = ctxInjector.inject(packed.contents(), UserMessage.from(q.text()));
      ns = System.nanoTime() - s;
      tallies.get(CONFIGS[2]).add(facts.measure(packed.pack(), qi[0], q), tok.count(text(ctxMsg)), ns);

      // Spring AI: the same ranked list as Documents
      List<Document> docs = documents(retrieved);
      org.springframework.ai.rag.Query sq = new org.springframework.ai.rag.Query(q.text());
      s = System.nanoTime();
      String springMsg = springDefault.augment(sq, docs).text();
      ns = System.nanoTime() - s;
      List<WindowFacts.Evidence> springEvidence = new ArrayList<>();
      for (Document d : docs) springEvidence.add(new WindowFacts.Evidence(d.getText(), List.of((String) d.getMetadata().get(CtxpackDocuments.DOC_ID))));
      tallies.get(CONFIGS[3]).add(facts.measure(springEvidence, 0, qi[0], q), tok.count(springMsg), ns);

      s = System.nanoTime();
      List<Document> processed = post.process(sq, docs);
      String ctxSpringMsg = springAugmenter.augment(sq, processed).text();
      ns = System.nanoTime() - s;
      ContextPackage springPkg = CtxpackDocuments.packageOf(processed).orElse(null);
      WindowFacts.Measures sm = springPkg != null ? facts.measure(springPkg, qi[0], q) : facts.measure(List.of(), 0, qi[0], q);
      tallies.get(CONFIGS[4]).add(sm, tok.count(ctxSpringMsg), ns);

      // The same retriever asked for more: ctxpack's dedup and compression keep the window within the budget.
      List<Content> deepList = deeper.retrieve(query);
      s = System.nanoTime();
      PackedEvidence deepPacked = ctxAggregator.pack(Map.of(query, List.of(deepList)));
      ChatMessage deepMsg = ctxInjector.inject(deepPacked.contents(), UserMessage.from(q.text()));
      ns = System.nanoTime() - s;
      tallies.get(CONFIGS[5]).add(facts.measure(deepPacked.pack(), qi[0], q), tok.count(text(deepMsg)), ns);
      List<Document> deepDocs = documents(deepList);
      s = System.nanoTime();
      List<Document> deepProcessed = post.process(sq, deepDocs);
      String deepSpring = springAugmenter.augment(sq, deepProcessed).text();
      ns = System.nanoTime() - s;
      ContextPackage deepPkg = CtxpackDocuments.packageOf(deepProcessed).orElse(null);
      tallies.get(CONFIGS[6]).add(deepPkg != null ? facts.measure(deepPkg, qi[0], q) : facts.measure(List.of(), 0, qi[0], q),
          tok.count(deepSpring), ns);

      if (++done % 50 == 0) log.println("[adapters] " + done + " of " + questions.size() + " questions");
    }

    Map<String, Object> report = new LinkedHashMap<>();
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("data", "SQuAD 2.0 dev, " + contexts.size() + " contexts as " + corpus.copies().size()
        + " documents (DuplicatedCorpus, seed " + seed + ")");
    settings.put("questions", questions.size() + (maxQuestions > 0 && maxQuestions < all.size()
        ? " (fixed-seed sample, seed " + (seed + 2) + ")" : " (all answerable)"));
    settings.put("retriever", "LangChain4j EmbeddingStoreContentRetriever over InMemoryEmbeddingStore, AllMiniLmL6V2Quantized, maxResults " + k);
    settings.put("deepRetriever", "the same, maxResults " + deep + " (the -deep rows)");
    settings.put("budget", budget);
    settings.put("tokenizer", tok.name());
    settings.put("embedSeconds", Math.round(embedSeconds * 10) / 10.0);
    settings.put("started", started);
    settings.put("command", "java -jar ctxpack-bench/target/ctxpack-bench.jar adapters --max-questions " + maxQuestions
        + " --k " + k + " --deep-k " + deep + " --budget " + budget + " --seed " + seed);
    report.put("settings", settings);
    Map<String, Object> results = new LinkedHashMap<>();
    tallies.forEach((name, t) -> results.put(name, t.json()));
    report.put("results", results);
    Files.createDirectories(outDir);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(outDir.resolve("adapters.json").toFile(), report);
    String md = markdown(settings, tallies);
    Files.writeString(outDir.resolve("adapters.md"), md, StandardCharsets.UTF_8);
    System.out.print(md);
    return 0;
  }

  private static String markdown(Map<String, Object> settings, Map<String, Tally> tallies) {
    StringBuilder sb = new StringBuilder("# Framework adapters: distinct facts and tokens per request\n\n");
    settings.forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
    sb.append("\n| configuration | contexts | gold answers | answer in window | sources | tokens mean | p95 | max | contexts per 1k tokens | ms |\n");
    sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    tallies.forEach((name, t) -> sb.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.1f %% | %.2f | %.0f | %d | %d | %.2f | %.2f |%n",
        name, t.mean(t.contexts), t.mean(t.gold), 100 * t.mean(t.hits), t.mean(t.sources), t.mean(t.tokens),
        t.percentile(0.95), t.percentile(1.0), t.tokens == 0 ? 0 : 1000.0 * t.contexts / t.tokens, t.mean(t.nanos) / 1e6)));
    return sb.toString();
  }

  /** The contents as Spring AI documents: text, document id, offset 0 (one segment per document), title. */
  private static List<Document> documents(List<Content> contents) {
    List<Document> docs = new ArrayList<>();
    for (Content c : contents) {
      TextSegment seg = c.textSegment();
      Map<String, Object> md = new LinkedHashMap<>();
      md.put(CtxpackDocuments.DOC_ID, seg.metadata().getString("document_id"));
      md.put(CtxpackDocuments.START, 0);
      md.put("title", seg.metadata().getString("title"));
      docs.add(new Document(seg.text(), md));
    }
    return docs;
  }

  private static List<WindowFacts.Evidence> evidence(List<Content> contents) {
    List<WindowFacts.Evidence> out = new ArrayList<>();
    for (Content c : contents) {
      out.add(new WindowFacts.Evidence(c.textSegment().text(), List.of(c.textSegment().metadata().getString("document_id"))));
    }
    return out;
  }

  private static String text(ChatMessage m) {
    return m instanceof UserMessage u ? u.singleText() : m.toString();
  }
}
