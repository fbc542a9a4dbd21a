package dev.ctxpack.lucene;

import dev.ctxpack.assemble.ToolRanker;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RrfFusion;
import dev.ctxpack.text.LanguageDetector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Ranks tools by relevance to a query with BM25 and embeddings (ctxpack 0.1).
 *
 * <ol>
 *   <li>Each tool becomes one text: its name split into words ({@code list_commits}, {@code
 *       listCommits} and {@code repos/list-commits} all read "list commits"), its description, and
 *       each parameter's split name and description.
 *   <li>BM25: the texts go into an in-memory Lucene index, each under the Portuguese or English
 *       analyzer of the language detected in it (the analyzers of the corpus index; English when the
 *       text is too short to tell, as tool schemas mostly are English, and the neutral analyzer keeps
 *       stop words such as "a" that would match any request), and the query is analysed for every
 *       language, as {@link LuceneIndex} does.
 *   <li>Dense: the split name, description and parameter names are embedded; a tool's score is its
 *       cosine with the query's vector.
 *   <li>Hybrid fuses the two rankings by reciprocal rank ({@code 1 / (k + rank)}, k = {@value
 *       RrfFusion#DEFAULT_K}, the retrieval default); a tool BM25 does not match gets nothing from
 *       it. The dense signal is used whatever the query's language, since tool descriptions are
 *       mostly English and BM25 cannot match a Portuguese request to them (measured in
 *       docs/BENCHMARKS.md, "Tool selection").
 *   <li>Equal scores keep the input order; tools no signal reaches come last in input order.
 * </ol>
 *
 * The index and the tools' vectors are built once per tool set and cached, keyed by a hash of what
 * the ranking reads of the tools, in order (names, descriptions, parameters; so a request that sends
 * the same tools reuses them, and only hashes them; {@link #builds()} counts
 * the builds). The cache holds at most {@code cacheSize} tool sets, least recently used dropped.
 * Thread-safe: concurrent requests with a new tool set share one build.
 */
public final class HybridToolRanker implements ToolRanker {
  /** Tool sets kept by default. */
  public static final int DEFAULT_CACHE_SIZE = 32;
  private static final String ORD = "ord";
  /** Characters of a tool's text given to the embedder; the model reads a few hundred tokens at most. */
  static final int DENSE_CHARS = 2_000;

  private final Embedder embedder;
  private final RetrievalMode mode;
  private final int rrfK;
  private final int cacheSize;
  private final Map<String, FutureTask<Built>> cache;
  private final AtomicLong builds = new AtomicLong();
  private final Map<String, Analyzer> perField = Analyzers.perLanguage();
  private final Analyzer analyzer = Analyzers.wrapper(perField);
  private final SparseQueryBuilder queries = new SparseQueryBuilder(perField);
  private final LanguageDetector languageDetector = new LanguageDetector();

  /** Hybrid over {@code embedder}; BM25 alone when {@code embedder} is null. */
  public HybridToolRanker(Embedder embedder) {
    this(embedder, embedder == null ? RetrievalMode.BM25 : RetrievalMode.HYBRID, RrfFusion.DEFAULT_K, DEFAULT_CACHE_SIZE);
  }

  /**
   * @param embedder the dense model; required unless {@code mode} is BM25
   * @param mode BM25 alone, dense alone, or both fused
   * @param rrfK the reciprocal-rank constant of the fusion, >= 1
   * @param cacheSize tool sets whose index and vectors are kept, >= 1
   */
  public HybridToolRanker(Embedder embedder, RetrievalMode mode, int rrfK, int cacheSize) {
    this.mode = Objects.requireNonNull(mode, "mode");
    if (mode != RetrievalMode.BM25 && embedder == null) {
      throw new IllegalArgumentException("tool ranking mode " + mode.key() + " needs an embedder; use bm25 without one");
    }
    if (rrfK < 1) throw new IllegalArgumentException("rrfK must be >= 1, was " + rrfK);
    if (cacheSize < 1) throw new IllegalArgumentException("cacheSize must be >= 1, was " + cacheSize);
    this.embedder = mode == RetrievalMode.BM25 ? null : embedder;
    this.rrfK = rrfK;
    this.cacheSize = cacheSize;
    this.cache = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, FutureTask<Built>> eldest) {
        return size() > HybridToolRanker.this.cacheSize;
      }
    };
  }

  @Override
  public String id() {
    return switch (mode) {
      case BM25 -> "tools-bm25";
      case DENSE -> "tools-dense(" + embedder.id() + ")";
      case HYBRID -> "tools-hybrid(bm25+" + embedder.id() + ", rrf k=" + rrfK + ")";
    };
  }

  /** How many tool sets have been indexed (and embedded) so far: a repeated tool set adds nothing. */
  public long builds() {
    return builds.get();
  }

  @Override
  public List<Ranked> rank(String query, List<ToolSpec> tools) throws IOException {
    Objects.requireNonNull(tools, "tools");
    int n = tools.size();
    if (n == 0) return List.of();
    if (query == null || query.isBlank()) return ToolRanker.inOrder().rank(query, tools);
    Built built = built(tools);
    double[] score = new double[n];
    boolean[] reached = new boolean[n];
    if (mode != RetrievalMode.DENSE) {
      int rank = 0;
      for (Hit h : built.bm25(queries.build(query))) {
        rank++;
        reached[h.ord()] = true;
        score[h.ord()] += mode == RetrievalMode.BM25 ? h.score() : 1.0 / (rrfK + rank);
      }
    }
    if (mode != RetrievalMode.BM25) {
      float[] q = embedder.embed(query);
      Integer[] order = new Integer[n];
      double[] cos = new double[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
        cos[i] = built.vectors[i] == null ? Double.NEGATIVE_INFINITY : Embedder.dot(q, built.vectors[i]);
      }
      Arrays.sort(order, (a, b) -> cos[a] != cos[b] ? Double.compare(cos[b], cos[a]) : Integer.compare(a, b));
      for (int r = 0; r < n; r++) {
        int i = order[r];
        if (cos[i] == Double.NEGATIVE_INFINITY) continue;
        reached[i] = true;
        score[i] += mode == RetrievalMode.DENSE ? cos[i] : 1.0 / (rrfK + r + 1.0);
      }
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) order[i] = i;
    Arrays.sort(order, (a, b) -> reached[a] != reached[b] ? (reached[a] ? -1 : 1)
        : score[a] != score[b] ? Double.compare(score[b], score[a]) : Integer.compare(a, b));
    // a tool no signal reached scores no more than any reached one: 0, or the lowest cosine
    double unreached = mode == RetrievalMode.DENSE ? -1.0 : 0.0;
    for (int i = 0; i < n; i++) if (reached[i]) unreached = Math.min(unreached, score[i]);
    List<Ranked> out = new ArrayList<>(n);
    for (int i : order) out.add(new Ranked(tools.get(i), reached[i] ? score[i] : unreached));
    return out;
  }

  private Built built(List<ToolSpec> tools) throws IOException {
    String key = key(tools);
    FutureTask<Built> task;
    boolean mine = false;
    synchronized (cache) {
      task = cache.get(key);
      if (task == null) {
        task = new FutureTask<>(() -> build(tools));
        cache.put(key, task);
        mine = true;
      }
    }
    if (mine) task.run();
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the tool index was built", e);
    } catch (ExecutionException e) {
      synchronized (cache) {
        cache.remove(key, task);
      }
      Throwable c = e.getCause();
      if (c instanceof IOException io) throw io;
      if (c instanceof RuntimeException re) throw re;
      throw new IOException("building the tool index failed: " + c, c);
    }
  }

  private Built build(List<ToolSpec> tools) throws IOException {
    builds.incrementAndGet();
    List<String> sparse = new ArrayList<>(tools.size());
    List<String> dense = new ArrayList<>(tools.size());
    for (ToolSpec t : tools) {
      sparse.add(ToolTexts.sparse(t));
      dense.add(ToolTexts.dense(t, DENSE_CHARS));
    }
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity());
    try (IndexWriter w = new IndexWriter(dir, config)) {
      List<Document> docs = new ArrayList<>(sparse.size());
      for (int i = 0; i < sparse.size(); i++) {
        Document d = new Document();
        d.add(new StoredField(ORD, i));
        String text = sparse.get(i);
        Language lang = languageDetector.detect(text);
        if (lang == Language.UNKNOWN) lang = Language.EN; // short tool texts: the neutral field keeps stop words that match anything
        d.add(new TextField(Analyzers.bodyField(lang), text, Field.Store.NO));
        docs.add(d);
      }
      w.addDocuments(docs);
      w.commit();
    }
    IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
    searcher.setSimilarity(new BM25Similarity());
    float[][] vectors = new float[dense.size()][];
    if (embedder != null) {
      List<float[]> vs = Embedder.embedLeniently(embedder, dense);
      for (int i = 0; i < vs.size(); i++) vectors[i] = vs.get(i);
    }
    return new Built(searcher, vectors, sparse.size());
  }

  /** What the ranking texts are made of (name, description, parameters), in order: equal keys, equal texts. */
  private static String key(List<ToolSpec> tools) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (ToolSpec t : tools) {
        field(md, t.name());
        field(md, t.description());
        md.update(java.nio.ByteBuffer.allocate(4).putInt(t.parameters().size()).array());
        for (ToolSpec.ToolParameter p : t.parameters()) {
          field(md, p.name());
          field(md, p.description());
        }
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static void field(MessageDigest md, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    md.update(java.nio.ByteBuffer.allocate(4).putInt(b.length).array());
    md.update(b);
  }

  private record Hit(int ord, double score) {}

  /** One tool set's index and vectors; read-only once built. */
  private record Built(IndexSearcher searcher, float[][] vectors, int size) {
    /** BM25 hits, best first, ties by input order; empty when the query has no searchable term. */
    List<Hit> bm25(Query q) {
      if (q == null) return List.of();
      try {
        ScoreDoc[] docs = searcher.search(q, size).scoreDocs;
        StoredFields stored = searcher.storedFields();
        List<Hit> hits = new ArrayList<>(docs.length);
        for (ScoreDoc sd : docs) {
          hits.add(new Hit(stored.document(sd.doc).getField(ORD).numericValue().intValue(), sd.score));
        }
        hits.sort((a, b) -> a.score() != b.score() ? Double.compare(b.score(), a.score()) : Integer.compare(a.ord(), b.ord()));
        return hits;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
