package dev.ctxpack.bench.jmh;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.Compression;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.IndexSentenceVectors;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Trace;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of query-aware extractive compression of one request, single-threaded: {@link
 * ExtractiveCompressor#defaults} compressing {@value #PASSAGES} retrieved SciFact chunks to the
 * medium preset's {@value #BUDGET} tokens ({@code CompressOptions.budget(4000)}).
 *
 * <p>The setup takes the first {@value #REQUESTS} SciFact test claims that retrieve {@value
 * #PASSAGES} chunks by hybrid search ({@code RetrievalOptions(hybrid, 40, 40, 40)}, as {@link
 * DedupBenchmark}) from the SciFact index ({@link SciFactIndex}; it must hold sentence vectors, as
 * ingest stores them by default) and turns each chunk into a {@link CompressInput} as {@code pack}
 * does: one part placed at the chunk's offset in its document, the chunk's id in {@code chunkIds},
 * so {@link IndexSentenceVectors} finds the vectors stored at ingestion. No retrieval is timed; each
 * call compresses the next request. The setup prints the passages' real size, how many sentences
 * the index holds vectors for, and what compression keeps, and fails unless every request is over
 * the budget and comes out within it.
 *
 * <ul>
 *   <li>{@code compress}, {@code vectors=stored}: {@code IndexSentenceVectors(index, embedder)}:
 *       the stored sentence vectors read from the index (one look-up of the 40 chunks) plus the
 *       query embedded by the model, both per call;
 *   <li>{@code vectors=on-the-fly}: {@code SentenceVectors.embedder(embedder)}: the query and every
 *       sentence of the request embedded per call (what compressing text given directly to {@code
 *       compress}, or an index without sentence vectors, costs);
 *   <li>{@code vectors=none}: {@code SentenceVectors.none()}: lexical features only, no model;
 *   <li>{@code queryEmbedding}: what {@code stored} spends on the query alone ({@link
 *       IndexSentenceVectors#query}: language detection and one MiniLM run), over the same claims;
 *   <li>{@code storedLookup}: what {@code stored} spends reading the request's sentence vectors
 *       from the index ({@link IndexSentenceVectors#sentences}, no embedder; the sentences
 *       segmented in the setup).
 * </ul>
 *
 * {@code minTokens} (default 0, the chunks as retrieved) above 0 takes, for each claim, the first
 * 40 chunks of at least that many tokens among the top {@value #DEEP} by hybrid search: longer
 * passages than retrieval gives (SciFact abstracts are often shorter than a 300-token chunk), of
 * lower rank.
 *
 * The embedder is MiniLM with no cache, run on the calling thread ({@code new
 * MiniLmEmbedder(Runnable::run)}), so one call uses one core; the default embedder would spread an
 * on-the-fly batch over every core. Mode SampleTime in milliseconds: JMH reports p50, p90, p99 and
 * p99.9. {@code on-the-fly} takes of the order of a second per call: its percentiles rest on few
 * samples.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Threads(1)
public class CompressBenchmark {
  static final int REQUESTS = 50;
  static final int PASSAGES = 40;
  static final int BUDGET = 4000;
  /** On-the-fly requests compressed by the setup's check (each embeds some 400 sentences). */
  static final int CHECKED_ON_THE_FLY = 3;
  /** How deep {@code minTokens} looks for long chunks. */
  static final int DEEP = 200;

  /** The requests and a compressor over the {@code vectors} source under test. */
  @State(Scope.Benchmark)
  public static class Requests {
    /** Where sentence vectors come from: {@code stored}, {@code on-the-fly} or {@code none}. */
    @Param({"stored", "on-the-fly", "none"})
    public String vectors;

    /**
     * 0: the top 40 chunks as retrieved; above 0, the first 40 of at least this many tokens among
     * the top {@value #DEEP} (passages closer to the chunker's 300-token maximum).
     */
    @Param({"0"})
    public int minTokens;

    private SciFactIndex scifact;
    private List<Request> requests;
    private ExtractiveCompressor compressor;
    private final CompressOptions options = CompressOptions.budget(BUDGET);
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      scifact = SciFactIndex.openOrBuild();
      requests = requests(scifact, minTokens);
      Embedder embedder = oneCoreEmbedder();
      SentenceVectors source = switch (vectors) {
        case "stored" -> new IndexSentenceVectors(scifact.index, embedder);
        case "on-the-fly" -> SentenceVectors.embedder(embedder);
        case "none" -> SentenceVectors.none();
        default -> throw new IllegalArgumentException("vectors must be stored, on-the-fly or none, was " + vectors);
      };
      compressor = ExtractiveCompressor.defaults(source);
      describe();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      scifact.close();
    }

    Compression compressNext() throws IOException {
      Request r = requests.get(next);
      next = (next + 1) % requests.size();
      return compressor.compress(r.query(), r.inputs(), options);
    }

    /**
     * Untimed: the passages' size, the stored vectors' coverage, and what compression does; fails
     * unless the index holds sentence vectors (for {@code stored}) and every request checked is cut
     * to within the budget.
     */
    private void describe() throws IOException {
      Tokenizer tok = Tokenizers.defaultTokenizer();
      long passages = 0;
      long passageTokens = 0;
      int fewest = Integer.MAX_VALUE;
      int most = 0;
      long sentences = 0;
      long stored = 0;
      long chunksWithVectors = 0;
      SentenceVectors indexOnly = new IndexSentenceVectors(scifact.index, null);
      for (Request r : requests) {
        for (CompressInput in : r.inputs()) {
          int t = tok.count(in.parts().get(0).text());
          passages++;
          passageTokens += t;
          fewest = Math.min(fewest, t);
          most = Math.max(most, t);
        }
        List<Sentence> ss = compressor.sentences(r.inputs());
        sentences += ss.size();
        for (float[] v : indexOnly.sentences(r.inputs(), ss)) if (v != null) stored++;
        Map<String, List<Index.SentenceVector>> perChunk = scifact.index.sentenceVectors(r.chunkIds());
        for (List<Index.SentenceVector> l : perChunk.values()) if (!l.isEmpty()) chunksWithVectors++;
      }
      System.err.printf("[jmh] minTokens=%d: %d requests of %d passages: %.1f tokens per passage on average (o200k_base; min %d,"
          + " max %d), %.0f per request; %.1f sentences per request, %.1f %% of them with a vector stored in the"
          + " index (%d of %d chunks have sentence vectors)%n", minTokens, requests.size(), PASSAGES,
          passageTokens / (double) passages, fewest, most, passageTokens / (double) requests.size(),
          sentences / (double) requests.size(), 100.0 * stored / sentences, chunksWithVectors, passages);
      if (vectors.equals("stored") && chunksWithVectors == 0) {
        throw new IllegalStateException("the index holds no sentence vectors (built before ingest stored them, or"
            + " with --no-sentence-vectors): rebuild it with sentence vectors and pass it with -D"
            + SciFactIndex.INDEX_PROPERTY + "=DIR");
      }
      int checked = vectors.equals("on-the-fly") ? Math.min(CHECKED_ON_THE_FLY, requests.size()) : requests.size();
      long in = 0;
      long out = 0;
      long kept = 0;
      for (Request r : requests.subList(0, checked)) {
        Compression c = compressor.compress(r.query(), r.inputs(), options);
        if (c.tokensIn() <= BUDGET) {
          throw new IllegalStateException("request '" + r.query() + "' holds " + c.tokensIn() + " tokens, within the"
              + " budget of " + BUDGET + ": nothing to compress");
        }
        if (c.tokensOut() > BUDGET) {
          throw new IllegalStateException("request '" + r.query() + "' compressed to " + c.tokensOut()
              + " tokens, over the budget of " + BUDGET);
        }
        in += c.tokensIn();
        out += c.tokensOut();
        kept += c.passages().size();
      }
      System.err.printf("[jmh] vectors=%s (%s): %d requests compressed from %.0f to %.0f tokens on average"
          + " (budget %d), %.1f of %d passages keeping text%n", vectors, compressor.scorer().id(), checked,
          in / (double) checked, out / (double) checked, BUDGET, kept / (double) checked, PASSAGES);
    }
  }

  /** The same claims, for the query embedding alone. */
  @State(Scope.Benchmark)
  public static class Queries {
    private SciFactIndex scifact;
    private List<String> queries;
    private IndexSentenceVectors vectors;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      scifact = SciFactIndex.openOrBuild();
      queries = requests(scifact, 0).stream().map(Request::query).toList();
      vectors = new IndexSentenceVectors(scifact.index, oneCoreEmbedder());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      scifact.close();
    }

    float[] embedNext() {
      String q = queries.get(next);
      next = (next + 1) % queries.size();
      return vectors.query(q);
    }
  }

  /** The same requests, segmented once, for the stored vectors' look-up alone. */
  @State(Scope.Benchmark)
  public static class Lookups {
    private SciFactIndex scifact;
    private List<Request> requests;
    private List<List<Sentence>> sentences;
    private IndexSentenceVectors stored;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      scifact = SciFactIndex.openOrBuild();
      requests = requests(scifact, 0);
      ExtractiveCompressor segmenter = ExtractiveCompressor.defaults(SentenceVectors.none());
      sentences = requests.stream().map(r -> segmenter.sentences(r.inputs())).toList();
      stored = new IndexSentenceVectors(scifact.index, null);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      scifact.close();
    }

    float[][] lookUpNext() throws IOException {
      int i = next;
      next = (next + 1) % requests.size();
      return stored.sentences(requests.get(i).inputs(), sentences.get(i));
    }
  }

  @Benchmark
  public Compression compress(Requests r) throws IOException {
    return r.compressNext();
  }

  @Benchmark
  public float[] queryEmbedding(Queries q) {
    return q.embedNext();
  }

  @Benchmark
  public float[][] storedLookup(Lookups l) throws IOException {
    return l.lookUpNext();
  }

  /** One request: a claim and its retrieved chunks as compression inputs, in rank order. */
  record Request(String query, List<CompressInput> inputs) {
    List<String> chunkIds() {
      return inputs.stream().map(i -> i.chunkIds().get(0)).toList();
    }
  }

  /** MiniLM, uncached, every text embedded on the calling thread. */
  static Embedder oneCoreEmbedder() {
    return new MiniLmEmbedder(Runnable::run);
  }

  /**
   * The first {@value #REQUESTS} claims that retrieve {@value #PASSAGES} chunks by hybrid search;
   * with {@code minTokens} above 0, {@value #PASSAGES} chunks of at least that many tokens among
   * the top {@value #DEEP}, in rank order.
   */
  static List<Request> requests(SciFactIndex scifact, int minTokens) throws IOException {
    HybridRetriever retriever = new HybridRetriever(scifact.index, scifact.embedder);
    int k = minTokens > 0 ? DEEP : PASSAGES;
    RetrievalOptions o = new RetrievalOptions(RetrievalMode.HYBRID, k, k, k);
    List<Request> out = new ArrayList<>(REQUESTS);
    for (String q : scifact.queries) {
      if (out.size() == REQUESTS) break;
      List<Candidate> found = retriever.retrieve(q, o, new Trace()).stream()
          .filter(c -> c.chunk().tokens() >= minTokens).toList();
      if (found.size() < PASSAGES) continue;
      List<CompressInput> inputs = new ArrayList<>(PASSAGES);
      for (Candidate c : found.subList(0, PASSAGES)) {
        CompressInput.Part part = new CompressInput.Part(c.chunk().text(), c.chunk().docId(), c.chunk().span().start());
        inputs.add(new CompressInput(c.chunk().id(), List.of(part), c.doc().title(), c.score(), List.of(c.chunk().id())));
      }
      out.add(new Request(q, List.copyOf(inputs)));
    }
    if (out.size() < REQUESTS) {
      throw new IllegalStateException("only " + out.size() + " claims retrieved " + PASSAGES + " chunks"
          + (minTokens > 0 ? " of at least " + minTokens + " tokens" : ""));
    }
    return List.copyOf(out);
  }
}
