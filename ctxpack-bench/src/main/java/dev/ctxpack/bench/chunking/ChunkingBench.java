package dev.ctxpack.bench.chunking;

import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.data.BeirLoader;
import dev.ctxpack.bench.data.CorpusDoc;
import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.chunk.Chunkers;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import dev.langchain4j.data.document.DocumentSplitter;
import dev.langchain4j.data.document.splitter.DocumentSplitters;
import dev.langchain4j.data.segment.TextSegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Chunking throughput on plain text, no embeddings, one thread: every SciFact corpus document (title
 * and abstract joined by a newline) is chunked by each method in turn, in rounds, and each method's
 * MB/s (UTF-8 bytes of input per second) is its median over the measured rounds. The methods: counting
 * the o200k tokens of each document (the tokenizer's own limit), ctxpack's token, recursive, sentence
 * and passage chunkers (300 tokens, 15 % overlap where they overlap), and LangChain4j's {@code
 * DocumentSplitters.recursive(300, 30, o200k estimator)}.
 *
 * <p>Targets (issue 3): ctxpack token and recursive at least 4× LangChain4j and at least two thirds
 * of counting alone.
 */
@Command(name = "eval chunking", mixinStandardHelpOptions = true,
    description = "Chunking throughput (MB/s) of ctxpack's chunkers, o200k counting and LangChain4j's recursive splitter.")
public final class ChunkingBench implements Callable<Integer> {
  @Option(names = "--data", description = "Data directory (default: ../shared/data or CTXPACK_DATA).")
  Path dataDir;

  @Option(names = "--rounds", description = "Measured rounds per method (default: ${DEFAULT-VALUE}).")
  int rounds = 5;

  @Option(names = "--warmup", description = "Warm-up rounds per method (default: ${DEFAULT-VALUE}).")
  int warmup = 2;

  @Option(names = "--max-docs", description = "Only the first N documents (0 = all).")
  int maxDocs = 0;

  @Option(names = "--only", split = ",", description = "Only these methods (names as printed, comma-separated; the two baselines always run).")
  List<String> only;

  public static int run(String[] args) {
    return new CommandLine(new ChunkingBench()).execute(args);
  }

  @Override
  public Integer call() throws Exception {
    Path data = dataDir != null ? dataDir : RunSupport.defaultDataDir();
    List<CorpusDoc> corpus = BeirLoader.load("scifact", data.resolve("scifact/beir_test"), "test").indexableCorpus();
    if (maxDocs > 0 && corpus.size() > maxDocs) corpus = corpus.subList(0, maxDocs);
    List<Document> docs = new ArrayList<>(corpus.size());
    long bytes = 0;
    for (CorpusDoc d : corpus) {
      String text = d.title().isBlank() ? d.text() : d.title() + "\n" + d.text();
      docs.add(new Document(d.id(), "", d.title(), Language.EN, Map.of(), text));
      bytes += text.getBytes(StandardCharsets.UTF_8).length;
    }
    Tokenizer o200k = Tokenizers.defaultTokenizer();
    DocumentSplitter langchain = DocumentSplitters.recursive(300, 30, new O200kEstimator());
    Map<String, ToLongFunction<Document>> methods = new LinkedHashMap<>();
    methods.put("o200k count only", d -> o200k.count(d.text()));
    for (String name : List.of("token", "recursive", "sentence", "passage")) {
      Chunker c = Chunkers.byName(name, o200k, 300, 0.15);
      methods.put("ctxpack " + name, d -> {
        long n = 0;
        for (Chunk ch : c.chunk(d)) n += ch.tokens();
        return n;
      });
    }
    if (only != null) methods.keySet().removeIf(k -> k.startsWith("ctxpack") && !only.contains(k) && !only.contains(k.substring(8)));
    methods.put("LangChain4j recursive(300, 30)", d -> {
      long n = 0;
      for (TextSegment s : langchain.split(dev.langchain4j.data.document.Document.from(d.text()))) n += s.text().length();
      return n;
    });
    System.out.printf(Locale.ROOT, "chunking throughput: SciFact corpus, %d documents, %.2f MB UTF-8, %d warm-up + %d measured rounds, 1 thread%n",
        docs.size(), bytes / 1e6, warmup, rounds);
    // Rounds interleave the methods (each round runs every method once), so a change in the machine's
    // load during the run weighs on all of them alike.
    List<String> names = new ArrayList<>(methods.keySet());
    double[][] r = new double[names.size()][rounds];
    long sink = 0;
    for (int round = 0; round < warmup + rounds; round++) {
      for (int mi = 0; mi < names.size(); mi++) {
        ToLongFunction<Document> f = methods.get(names.get(mi));
        // Every pass starts cold: what the tokenizer remembers of earlier passes over the same text
        // (short segments' encodings) is forgotten, so a pass costs what one pass over new text would.
        Tokenizers.clearCaches();
        long t0 = System.nanoTime();
        for (Document d : docs) sink += f.applyAsLong(d);
        long ns = System.nanoTime() - t0;
        if (round >= warmup) r[mi][round - warmup] = bytes / 1e6 / (ns / 1e9);
      }
    }
    Map<String, Double> mbps = new LinkedHashMap<>();
    for (int mi = 0; mi < names.size(); mi++) {
      java.util.Arrays.sort(r[mi]);
      double median = r[mi][rounds / 2];
      mbps.put(names.get(mi), median);
      System.out.printf(Locale.ROOT, "%-34s %7.2f MB/s  (rounds %.2f..%.2f)%n", names.get(mi), median, r[mi][0], r[mi][rounds - 1]);
    }
    System.out.println("(checksum " + sink + ")");
    double count = mbps.get("o200k count only");
    double lc = mbps.get("LangChain4j recursive(300, 30)");
    for (String name : mbps.keySet()) {
      if (!name.startsWith("ctxpack")) continue;
      double v = mbps.get(name);
      System.out.printf(Locale.ROOT, "%-20s %5.2f× LangChain4j (target 4×: %s), %3.0f%% of counting (target 67%%: %s)%n",
          name, v / lc, v >= 4 * lc ? "met" : "not met", 100 * v / count, v >= count * 2 / 3 ? "met" : "not met");
    }
    return 0;
  }
}
