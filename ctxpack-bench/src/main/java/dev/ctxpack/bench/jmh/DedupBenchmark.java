package dev.ctxpack.bench.jmh;

import dev.ctxpack.bench.dedup.Perturbations;
import dev.ctxpack.dedup.CascadeDeduplicator;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Trace;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of the strict dedup cascade (exact, near, overlap, semantic; guarded) over 40 real
 * candidates, single-threaded. The setup retrieves, for each of the 300 SciFact test claims, the
 * top 40 chunks by hybrid search ({@code RetrievalOptions(hybrid, 40, 40, 40)}) from the SciFact
 * index ({@link SciFactIndex}) and reads their vectors from the index once, so the semantic level
 * runs on precomputed vectors (a {@link PassageVectors} over a map) and no I/O is timed. Each call
 * dedups the next claim's list with a fresh {@link Trace}.
 *
 * <ul>
 *   <li>{@code candidates=real}: the 40 retrieved candidates as they are;
 *   <li>{@code candidates=injected}: the top 26 plus 14 copies of them, so every merge path runs:
 *       3 whitespace/case copies (exact), 3 punctuation or one-word copies (near), 3 windows of
 *       the same document overlapping a candidate (overlap), 3 copies holding the first half of a
 *       candidate's sentences, with its vector slightly perturbed (semantic), and 2 near copies
 *       with a number changed (kept apart by the guard). Copies of another document get a new
 *       document id; each copy scores just below its original.
 * </ul>
 *
 * {@code tokenizer} is the tokenizer the cascade counts the tokens each decision saves with:
 * {@code o200k_base} (the default, as {@code pack} uses it) or, as a diagnostic only, {@code chars}
 * (length / 4, no BPE), which shows how much of the time is exact token counting.
 *
 * <p>Mode SampleTime in microseconds: JMH reports p50, p90, p99, p99.9 and p99.99.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 10)
@Measurement(iterations = 5, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Threads(1)
public class DedupBenchmark {
  static final int CANDIDATES = 40;
  static final int KEPT_WHEN_INJECTING = 26;

  /** {@code real} retrieved candidates, or {@code injected} with duplicates and near copies. */
  @Param({"real", "injected"})
  public String candidates;

  /** {@code o200k_base} as shipped, or {@code chars} (length / 4) to isolate the cost of token counting. */
  @Param({"o200k_base"})
  public String tokenizer;

  private List<List<Passage>> lists;
  private CascadeDeduplicator strict;
  private Tokenizer counting;
  private PassageVectors byIdVectors;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Map<String, float[]> vectors = new HashMap<>();
    lists = new ArrayList<>();
    try (SciFactIndex scifact = SciFactIndex.openOrBuild()) {
      HybridRetriever retriever = new HybridRetriever(scifact.index, scifact.embedder);
      RetrievalOptions o = new RetrievalOptions(RetrievalMode.HYBRID, CANDIDATES, CANDIDATES, CANDIDATES);
      for (int qi = 0; qi < scifact.queries.size(); qi++) {
        List<Candidate> found = retriever.retrieve(scifact.queries.get(qi), o, new Trace());
        if (found.size() < CANDIDATES) continue;
        vectors.putAll(scifact.index.chunkVectors(found.stream().map(c -> c.chunk().id()).toList()));
        List<Candidate> list = candidates.equals("injected")
            ? inject(found, vectors, scifact, new Random(qi)) : found;
        lists.add(list.stream().map(Passage::of).toList());
      }
    }
    if (lists.isEmpty()) throw new IllegalStateException("no claim retrieved " + CANDIDATES + " candidates");
    Map<String, float[]> frozen = Map.copyOf(vectors);
    PassageVectors byId = passages -> {
      Map<String, float[]> out = new HashMap<>();
      for (Passage p : passages) {
        float[] v = frozen.get(p.id());
        if (v != null) out.put(p.id(), v);
      }
      return out;
    };
    strict = new CascadeDeduplicator(DedupOptions.strict());
    counting = tokenizer(tokenizer);
    byIdVectors = byId;
    // What the cascade does to these lists, once, untimed: proof that the paths under test run.
    Map<String, Integer> actions = new TreeMap<>();
    int out = 0;
    for (List<Passage> l : lists) {
      Trace t = new Trace();
      out += strict.dedup(l, counting, byIdVectors, t).passages().size();
      for (Decision d : t.decisions()) actions.merge(d.action() + " " + d.rule(), 1, Integer::sum);
    }
    System.err.printf("[jmh] %d lists of %d candidates (%s): %.1f passages out on average; decisions %s%n",
        lists.size(), CANDIDATES, candidates, out / (double) lists.size(), actions);
  }

  @Benchmark
  public List<Passage> strict() throws IOException {
    List<Passage> in = lists.get(next);
    next = (next + 1) % lists.size();
    return strict.dedup(in, counting, byIdVectors, new Trace()).passages();
  }

  static Tokenizer tokenizer(String name) {
    if (!name.equals("chars")) return Tokenizers.byName(name);
    return new Tokenizer() {
      @Override
      public String name() {
        return "chars/4";
      }

      @Override
      public int count(String text) {
        return (text.length() + 3) / 4;
      }

      @Override
      public Truncation truncate(String text, int maxTokens) {
        int end = Math.min(text.length(), maxTokens * 4);
        return new Truncation(text.substring(0, end), count(text.substring(0, end)), end < text.length());
      }
    };
  }

  private static final Pattern NUMBER = Pattern.compile("\\d+");

  /** The top {@value #KEPT_WHEN_INJECTING} of {@code found} and 14 copies of them; vectors of copies go into {@code vectors}. */
  static List<Candidate> inject(List<Candidate> found, Map<String, float[]> vectors, SciFactIndex scifact, Random r)
      throws IOException {
    List<Candidate> base = new ArrayList<>(found.stream()
        .sorted(Comparator.comparingDouble(Candidate::score).reversed().thenComparing(c -> c.chunk().id()))
        .limit(KEPT_WHEN_INJECTING).toList());
    List<Candidate> out = new ArrayList<>(base);
    int n = 0;
    // exact: whitespace and case
    for (int i = 0; i < 3; i++) {
      Candidate c = pick(base, r);
      out.add(copy(c, "exact" + n++, Perturbations.whitespaceCase(c.chunk().text(), r), vectors, vectors.get(c.chunk().id())));
    }
    // near: punctuation or one word
    for (int i = 0; i < 3; i++) {
      Candidate c = pick(base, r);
      String t = r.nextBoolean() ? Perturbations.punctuation(c.chunk().text(), r) : Perturbations.changeWord(c.chunk().text(), r);
      if (t == null) t = Perturbations.whitespaceCase(c.chunk().text(), r);
      out.add(copy(c, "near" + n++, t, vectors, vectors.get(c.chunk().id())));
    }
    // overlap: a window of the same document from the middle of the chunk to past its end
    for (int i = 0; i < 3; i++) {
      Candidate c = pick(base, r);
      Document d = scifact.index.document(c.doc().id()).orElseThrow();
      Span s = c.chunk().span();
      int start = s.start() + s.length() / 2;
      int end = Math.min(d.text().length(), s.end() + s.length() / 2);
      Chunk w = new Chunk(c.chunk().id() + "#w" + n++, c.doc().id(), new Span(start, end), d.text().substring(start, end),
          c.chunk().section(), c.chunk().page(), c.chunk().tokens());
      Candidate wc = new Candidate(w, c.doc(), c.scores().with(Signal.FUSED, c.score() * 0.999));
      float[] v = vectors.get(c.chunk().id());
      if (v != null) vectors.put(w.id(), noisy(v, 0.3f, r));
      out.add(wc);
    }
    // semantic: the first half of the sentences, the vector nudged
    for (int i = 0; i < 3; i++) {
      Candidate c = pick(base, r);
      List<String> ss = Perturbations.sentences(c.chunk().text());
      String t = ss.size() < 2 ? c.chunk().text().substring(0, c.chunk().text().length() / 2)
          : String.join(" ", ss.subList(0, (ss.size() + 1) / 2));
      float[] v = vectors.get(c.chunk().id());
      out.add(copy(c, "sem" + n++, t, vectors, v == null ? null : noisy(v, 0.15f, r)));
    }
    // guard: a near copy with a number changed
    for (int i = 0; i < 2; i++) {
      Candidate c = pick(base, r);
      String text = c.chunk().text();
      Matcher m = NUMBER.matcher(text);
      String t;
      if (m.find()) {
        t = text.substring(0, m.start()) + (Long.parseLong(m.group().length() > 9 ? "7" : m.group()) + 1) + text.substring(m.end());
      } else {
        t = text.replaceFirst("\\b(is|are|was|were)\\b", "$1 not");
        if (t.equals(text)) t = Perturbations.punctuation(text, r);
      }
      out.add(copy(c, "guard" + n++, t, vectors, vectors.get(c.chunk().id())));
    }
    return out;
  }

  private static Candidate pick(List<Candidate> base, Random r) {
    return base.get(r.nextInt(base.size()));
  }

  /** {@code c}'s text replaced by {@code text} in a new document, scored just below {@code c}. */
  private static Candidate copy(Candidate c, String tag, String text, Map<String, float[]> vectors, float[] vector) {
    String docId = c.doc().id() + "~" + tag;
    Chunk k = new Chunk(docId + "#0", docId, new Span(0, text.length()), text, c.chunk().section(), 0, c.chunk().tokens());
    DocInfo d = new DocInfo(docId, "", c.doc().title(), c.doc().language(), Map.of());
    if (vector != null) vectors.put(k.id(), vector);
    return new Candidate(k, d, c.scores().with(Signal.FUSED, c.score() * 0.999));
  }

  /** {@code v} plus uniform noise of amplitude {@code eps} per component / sqrt(dim), renormalised. */
  private static float[] noisy(float[] v, float eps, Random r) {
    float[] out = v.clone();
    float scale = eps / (float) Math.sqrt(v.length);
    for (int i = 0; i < out.length; i++) out[i] += (r.nextFloat() * 2 - 1) * scale;
    return Embedder.normalize(out);
  }
}
