package dev.ctxpack.onnx;

import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.stream.Collectors;

/**
 * Throughput of {@link MiniLmEmbedder} against langchain4j's own {@link
 * AllMiniLmL6V2QuantizedEmbeddingModel}, single-threaded and parallel, on texts of ~300 o200k
 * tokens. Not a test (timing is never asserted); run it by hand:
 *
 * <pre>
 * mvn -q -o test-compile -pl ctxpack-onnx
 * mvn -q -o dependency:build-classpath -pl ctxpack-onnx -Dmdep.outputFile=/tmp/cp.txt
 * java -cp ctxpack-onnx/target/test-classes:ctxpack-onnx/target/classes:$(cat /tmp/cp.txt) \
 *     dev.ctxpack.onnx.MiniLmThroughput 1000 3
 * </pre>
 *
 * Prints wall-clock throughput and process CPU time per text (which spinning ONNX threads inflate,
 * and which other load on the machine does not). Arguments: texts per round (default 1000), rounds (default 3), optionally a regex selecting
 * modes by name. Modes run interleaved, and the
 * median round is reported, because shared machines are noisy.
 */
public final class MiniLmThroughput {
  private static final String[] SENTENCES = {
    "The committee approved the annual budget after a long debate about renewable energy subsidies.",
    "Retrieval-augmented generation feeds a language model with passages found in a document index.",
    "In 2023 the northern region reported a 12% increase in wind power capacity compared to 2022.",
    "Critics argued that the timeline was unrealistic unless funding increased significantly.",
    "The library stores every chunk with its byte offsets so that citations can be verified later.",
    "Patients who received the treatment recovered faster, although the sample size was small.",
    "A conservative deduplication pass removes exact copies before the reranker sees the candidates.",
    "The court ruled that the contract could not be renewed without the board's prior approval.",
    "Engineers measured latency, throughput and memory use on a small machine with two cores.",
    "Heavy rain delayed the harvest, and tomato prices rose sharply during the following weeks.",
    "Maximal marginal relevance trades off similarity to the query against redundancy among results.",
    "The new policy applies only to employees hired after January 1st, unless stated otherwise.",
    "Lost-in-the-middle effects suggest placing the strongest evidence at the start and the end.",
    "The museum reopened its east wing with an exhibition of nineteenth-century maritime paintings.",
    "Quantized models trade a little accuracy for much smaller files and faster inference on CPUs.",
    "She noted that the survey excluded rural households, which may bias the estimated averages.",
  };

  private MiniLmThroughput() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int cpus = Runtime.getRuntime().availableProcessors();
    List<String> texts = texts(n, 300, 42);
    List<TextSegment> segments = texts.stream().map(TextSegment::from).collect(Collectors.toList());

    ExecutorService pool = BoundedExecutor.create(cpus, "bench");
    AllMiniLmL6V2QuantizedEmbeddingModel reference = new AllMiniLmL6V2QuantizedEmbeddingModel(pool);
    MiniLmEmbedder single = new MiniLmEmbedder(Runnable::run);
    MiniLmEmbedder parallel = new MiniLmEmbedder();
    reference.embed("warm up");
    single.embed("warm up");

    Map<String, Runnable> modes = new LinkedHashMap<>();
    modes.put("langchain4j AllMiniLm, embed() per text, caller thread", () -> segments.forEach(reference::embed));
    modes.put("langchain4j AllMiniLm, embedAll(), executor=" + cpus, () -> reference.embedAll(segments));
    modes.put("MiniLmEmbedder, 1 thread (Runnable::run)", () -> single.embed(texts));
    modes.put("MiniLmEmbedder, default pool of " + cpus, () -> parallel.embed(texts));

    if (args.length > 2) modes.keySet().removeIf(name -> !name.matches(args[2]));
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    Map<String, List<Double>> cpuMs = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      for (Map.Entry<String, Runnable> m : modes.entrySet()) {
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        m.getValue().run();
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpuPerText = (os.getProcessCpuTime() - cpu0) / 1e6 / n;
        rates.computeIfAbsent(m.getKey(), k -> new ArrayList<>()).add(n / seconds);
        cpuMs.computeIfAbsent(m.getKey(), k -> new ArrayList<>()).add(cpuPerText);
      }
    }
    System.out.printf("JDK %s (%s), %d processors, %d texts of 300 o200k tokens, %d rounds%n",
        System.getProperty("java.version"), System.getProperty("java.vm.name"), cpus, n, rounds);
    for (Map.Entry<String, List<Double>> e : rates.entrySet()) {
      List<Double> v = new ArrayList<>(e.getValue());
      Collections.sort(v);
      List<Double> c = new ArrayList<>(cpuMs.get(e.getKey()));
      Collections.sort(c);
      System.out.printf("%-55s median %6.1f texts/s, %5.1f CPU ms/text  (rounds: %s texts/s)%n",
          e.getKey(), v.get(v.size() / 2), c.get(c.size() / 2),
          e.getValue().stream().map(x -> String.format("%.0f", x)).collect(Collectors.joining(", ")));
    }
    pool.shutdown();
  }

  /** {@code n} distinct English texts of exactly {@code tokens} o200k tokens each. */
  static List<String> texts(int n, int tokens, long seed) {
    Tokenizer o200k = Tokenizers.defaultTokenizer();
    Random random = new Random(seed);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      StringBuilder sb = new StringBuilder("Document ").append(i).append(". ");
      while (o200k.count(sb.toString()) < tokens) {
        sb.append(SENTENCES[random.nextInt(SENTENCES.length)]).append(' ');
      }
      out.add(o200k.truncate(sb.toString(), tokens).text());
    }
    return out;
  }
}
