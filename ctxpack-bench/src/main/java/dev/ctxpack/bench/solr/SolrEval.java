package dev.ctxpack.bench.solr;

import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.data.Dataset;
import dev.ctxpack.bench.data.Datasets;
import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.bench.pipeline.DocRankings;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.eval.EvalReport;
import dev.ctxpack.eval.Evaluation;
import dev.ctxpack.eval.Judgments;
import dev.ctxpack.eval.Metric;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.model.Language;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.compress.IndexSentenceVectors;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.retrieve.RetrievalMode;
import dev.ctxpack.retrieve.RetrievalOptions;
import dev.ctxpack.solr.SolrCollections;
import dev.ctxpack.solr.SolrDevProcess;
import dev.ctxpack.model.Trace;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The SolrCloud backend beside the embedded index, same run: each data set is ingested once (one
 * embedding pass, written to both by {@link TeeIndex}) into a Lucene directory and a Solr collection
 * of {@code --shards} × {@code --replicas} on a dev cluster ({@link SolrDevProcess}, or
 * {@code --cluster}); then nDCG@10 and per-query latency of bm25, dense and hybrid over each, and
 * {@code pack} latency (the CLI's packer, medium preset) over each for every query of the set.
 */
@Command(name = "solr", mixinStandardHelpOptions = true,
    description = "Retrieval quality and latency over a SolrCloud collection beside the embedded index, same run.")
public final class SolrEval implements Callable<Integer> {
  @Option(names = "--data", description = "Data directory (default: ../shared/data).")
  Path data;

  @Option(names = {"-d", "--datasets"}, split = ",", description = "Data sets (default: scifact,cranfield).")
  List<String> datasets = new ArrayList<>(List.of("scifact", "cranfield"));

  @Option(names = "--work-dir", description = "Where the Lucene indexes and the dev cluster's data go (default: a temp dir).")
  Path work;

  @Option(names = "--cluster", paramLabel = "SPEC",
      description = "A running SolrCloud (solr+zk://HOST:PORT/CHROOT, no collection); default: start a dev cluster.")
  String cluster;

  @Option(names = "--nodes", description = "Nodes of the dev cluster (default: ${DEFAULT-VALUE}).")
  int nodes = 3;

  @Option(names = "--shards", description = "Shards of each collection (default: ${DEFAULT-VALUE}).")
  int shards = 2;

  @Option(names = "--replicas", description = "Replicas of each shard (default: ${DEFAULT-VALUE}).")
  int replicas = 2;

  @Option(names = "--out", description = "Also write the report (Markdown) to this file.")
  Path out;

  @Option(names = "--no-idf", description = "Skip the distributed-IDF rows (Solr's own BM25 with collection-wide and with"
      + " per-shard statistics, over two more collections ingested without embeddings).")
  boolean noIdf;

  @Option(names = "--idf-only", description = "Only the distributed-IDF rows of each data set (no embedding, no embedded index).")
  boolean idfOnly;

  @Option(names = "--scale", split = ",", paramLabel = "CHUNKS",
      description = "Also measure cost against corpus size: for each count, that many one-chunk documents of SciFact"
          + " sentences drawn at random, ingested without embeddings into each backend (docs/s), then bm25 search and"
          + " pack p50/p99 over the SciFact claims (default: none).")
  List<Integer> scale = new ArrayList<>();

  @Option(names = "--scale-backends", split = ",", paramLabel = "BACKEND",
      description = "The backends the --scale rows measure: embedded, solr or both (default: ${DEFAULT-VALUE}).",
      defaultValue = "embedded,solr")
  List<String> scaleBackends = new ArrayList<>();

  private final PrintStream log = System.err;

  public static int run(String[] args) {
    return RunSupport.execute(new SolrEval(), "solr", args);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** One method over one backend: nDCG@10 and latency percentiles. */
  record Row(String dataset, String method, String backend, double ndcg, double p50, double p99, int queries) {}

  @Override
  public Integer call() throws Exception {
    for (String b : scaleBackends) {
      if (!b.equals("embedded") && !b.equals("solr")) {
        throw new CommandLine.ParameterException(new CommandLine(this), "--scale-backends: unknown backend '" + b + "' (embedded, solr)");
      }
    }
    Path dataDir = data != null ? data : RunSupport.defaultDataDir();
    Path dir = work != null ? Files.createDirectories(work) : Files.createTempDirectory("ctxpack-solr-eval");
    List<Row> rows = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    SolrDevProcess dev = null;
    try {
      String base = cluster;
      if (base == null) {
        log.println("[solr] starting a dev cluster of " + nodes + " nodes ...");
        dev = SolrDevProcess.start(nodes, dir.resolve("solr"));
        base = dev.spec();
      }
      Embedder embedder = new MiniLmEmbedder();
      for (String name : datasets) {
        if (name.equals("none")) continue;
        if (!idfOnly) rows.addAll(evaluate(name, dataDir, dir, base, embedder, notes));
        if (!noIdf) rows.addAll(idf(name, dataDir, dir, base));
      }
      for (int n : scale) rows.addAll(scale(n, dataDir, dir, base, embedder, notes));
    } finally {
      if (dev != null) dev.close();
    }
    String report = report(rows, notes);
    System.out.print(report);
    if (out != null) Files.writeString(out, report, StandardCharsets.UTF_8);
    return 0;
  }

  private List<Row> evaluate(String name, Path dataDir, Path dir, String base, Embedder embedder, List<String> notes)
      throws IOException {
    Dataset ds = Datasets.load(name, dataDir);
    Path corpus = Datasets.ingestibleCorpus(name, dataDir);
    if (corpus == null) corpus = RunSupport.writeJsonl(ds.indexableCorpus(), dir.resolve(name + "-corpus.jsonl"));
    Language language = name.equals("faquad") ? Language.PT : Language.EN;
    Path luceneDir = dir.resolve(name + "-index");
    RunSupport.deleteTree(luceneDir);
    IndexSpec solrSpec = IndexSpec.parse(base + "/bench_" + name);
    if (Indexes.exists(solrSpec)) SolrCollections.delete(solrSpec);
    SolrCollections.init(solrSpec, shards, replicas, embedder.dimension());
    List<Row> rows = new ArrayList<>();
    try (Index lucene = Indexes.open(IndexSpec.ofPath(luceneDir)); Index solr = Indexes.openExisting(solrSpec)) {
      log.println("[" + name + "] ingest (with embeddings) into both ...");
      long t0 = System.nanoTime();
      IngestSummary s = new Ingestor(new TeeIndex(lucene, solr), Loaders.defaults(),
          CtxpackPipeline.options(embedder, language, CtxpackPipeline.CHUNK_TOKENS), null).ingest(List.of(corpus));
      notes.add(String.format(Locale.ROOT, "%s: %d documents, %d chunks, ingested into both in %.1f s; Solr stats %s, embedded %s",
          name, s.added(), s.chunks(), (System.nanoTime() - t0) / 1e9, solr.stats(), lucene.stats()));
      Map<String, String> queries = ds.judgedQueries();
      Map<String, Judgments> qrels = new LinkedHashMap<>();
      for (String q : queries.keySet()) qrels.put(q, ds.qrels().get(q));
      for (RetrievalMode mode : List.of(RetrievalMode.BM25, RetrievalMode.DENSE, RetrievalMode.HYBRID)) {
        for (Index idx : List.of(lucene, solr)) {
          HybridRetriever retriever = new HybridRetriever(idx, embedder);
          RetrievalOptions o = new RetrievalOptions(mode, 100, 100, 100);
          for (String q : queries.values()) retriever.retrieve(q, o, new Trace()); // warm-up pass
          Map<String, List<String>> run = new LinkedHashMap<>();
          long[] nanos = new long[queries.size()];
          int i = 0;
          for (Map.Entry<String, String> q : queries.entrySet()) {
            long a = System.nanoTime();
            run.put(q.getKey(), DocRankings.fromChunks(retriever.retrieve(q.getValue(), o, new Trace())));
            nanos[i++] = System.nanoTime() - a;
          }
          EvalReport r = Evaluation.evaluate(run, qrels, List.of(Metric.ndcg(10)));
          rows.add(new Row(name, mode.name().toLowerCase(Locale.ROOT), idx == lucene ? "embedded" : "solr " + shards + "x" + replicas,
              r.mean(Metric.ndcg(10)), percentile(nanos, 50), percentile(nanos, 99), r.evaluated()));
          log.println("[" + name + "] " + rows.get(rows.size() - 1));
        }
      }
      for (Index idx : List.of(lucene, solr)) {
        DefaultContextPacker packer = DefaultContextPacker.builder().retriever(new HybridRetriever(idx, embedder))
            .reranker(FeatureReranker.defaults()).vectors(PassageVectors.fromIndex(idx, embedder.languages()))
            .sentenceVectors(new IndexSentenceVectors(idx, embedder)).build();
        PackOptions o = PackOptions.defaults();
        for (String q : queries.values()) packer.pack(q, o);
        long[] nanos = new long[queries.size()];
        int i = 0;
        for (String q : queries.values()) {
          long a = System.nanoTime();
          packer.pack(q, o);
          nanos[i++] = System.nanoTime() - a;
        }
        rows.add(new Row(name, "pack (medium preset)", idx == lucene ? "embedded" : "solr " + shards + "x" + replicas,
            Double.NaN, percentile(nanos, 50), percentile(nanos, 99), queries.size()));
        log.println("[" + name + "] " + rows.get(rows.size() - 1));
      }
    } finally {
      SolrCollections.delete(solrSpec);
    }
    return rows;
  }

  private List<Row> idf(String name, Path dataDir, Path dir, String base) throws IOException {
    Dataset ds = Datasets.load(name, dataDir);
    Path corpus = Datasets.ingestibleCorpus(name, dataDir);
    if (corpus == null) corpus = RunSupport.writeJsonl(ds.indexableCorpus(), dir.resolve(name + "-corpus.jsonl"));
    Map<String, String> queries = ds.judgedQueries();
    Map<String, Judgments> qrels = new LinkedHashMap<>();
    for (String q : queries.keySet()) qrels.put(q, ds.qrels().get(q));
    return NativeIdf.rows(name, corpus, name.equals("faquad") ? Language.PT : Language.EN, base, shards, queries, qrels, log);
  }

  /** {@code n} documents of about 200 tokens each (one chunk), of SciFact sentences drawn with a fixed seed. */
  static List<dev.ctxpack.bench.data.CorpusDoc> synthetic(Dataset scifact, int n) {
    List<String> pool = new ArrayList<>();
    for (var d : scifact.indexableCorpus()) {
      for (String sentence : d.text().split("(?<=[.!?])\\s+")) if (sentence.length() > 20) pool.add(sentence);
    }
    java.util.Random r = new java.util.Random(n);
    List<dev.ctxpack.bench.data.CorpusDoc> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      StringBuilder t = new StringBuilder();
      while (t.length() < 900) t.append(t.length() == 0 ? "" : " ").append(pool.get(r.nextInt(pool.size())));
      out.add(new dev.ctxpack.bench.data.CorpusDoc("s" + i, "", t.toString()));
    }
    return out;
  }

  private List<Row> scale(int n, Path dataDir, Path dir, String base, Embedder embedder, List<String> notes) throws IOException {
    Dataset scifact = Datasets.load("scifact", dataDir);
    Path corpus = RunSupport.writeJsonl(synthetic(scifact, n), dir.resolve("scale-" + n + ".jsonl"));
    String label = String.format(Locale.ROOT, "scale %,d", n);
    List<Row> rows = new ArrayList<>();
    Path luceneDir = dir.resolve("scale-" + n + "-index");
    RunSupport.deleteTree(luceneDir);
    IndexSpec solrSpec = IndexSpec.parse(base + "/bench_scale_" + n);
    if (Indexes.exists(solrSpec)) SolrCollections.delete(solrSpec);
    SolrCollections.init(solrSpec, shards, replicas, 0);
    try (Index lucene = Indexes.open(IndexSpec.ofPath(luceneDir)); Index solr = Indexes.openExisting(solrSpec)) {
      for (Index idx : List.of(lucene, solr)) {
        if (!scaleBackends.contains(idx == lucene ? "embedded" : "solr")) continue;
        String backend = idx == lucene ? "embedded" : "solr " + shards + "x" + replicas;
        long t0 = System.nanoTime();
        IngestSummary s = new Ingestor(idx, Loaders.defaults(), CtxpackPipeline.options(null, Language.EN, CtxpackPipeline.CHUNK_TOKENS),
            null).ingest(List.of(corpus));
        double secs = (System.nanoTime() - t0) / 1e9;
        notes.add(String.format(Locale.ROOT, "%s, %s: %d documents, %d chunks ingested without embeddings in %.1f s: %.0f docs/s",
            label, backend, s.added(), idx.stats().chunks(), secs, s.added() / secs));
        log.println("[" + label + "] " + notes.get(notes.size() - 1));
        List<String> queries = new ArrayList<>(scifact.judgedQueries().values());
        HybridRetriever retriever = new HybridRetriever(idx, embedder);
        RetrievalOptions o = new RetrievalOptions(RetrievalMode.BM25, 10, 10, 10);
        for (String q : queries) retriever.retrieve(q, o, new Trace());
        long[] nanos = new long[queries.size()];
        for (int i = 0; i < queries.size(); i++) {
          long a = System.nanoTime();
          retriever.retrieve(queries.get(i), o, new Trace());
          nanos[i] = System.nanoTime() - a;
        }
        rows.add(new Row(label, "bm25 search, k = 10", backend, Double.NaN, percentile(nanos, 50), percentile(nanos, 99), queries.size()));
        DefaultContextPacker packer = DefaultContextPacker.builder().retriever(retriever).reranker(FeatureReranker.defaults()).build();
        PackOptions po = PackOptions.builder().retrieval(RetrievalOptions.of(RetrievalMode.BM25, RetrievalOptions.defaults().k())).build();
        for (String q : queries) packer.pack(q, po);
        for (int i = 0; i < queries.size(); i++) {
          long a = System.nanoTime();
          packer.pack(queries.get(i), po);
          nanos[i] = System.nanoTime() - a;
        }
        rows.add(new Row(label, "pack, bm25, medium preset", backend, Double.NaN, percentile(nanos, 50), percentile(nanos, 99), queries.size()));
        log.println("[" + label + "] " + rows.get(rows.size() - 2) + " " + rows.get(rows.size() - 1));
      }
    } finally {
      SolrCollections.delete(solrSpec);
    }
    return rows;
  }

  static double percentile(long[] nanos, double p) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    int rank = (int) Math.ceil(p / 100.0 * s.length);
    return s[Math.max(0, Math.min(s.length - 1, rank - 1))] / 1e6;
  }

  private String report(List<Row> rows, List<String> notes) {
    StringBuilder b = new StringBuilder();
    b.append("| set | method | backend | nDCG@10 | Δ vs embedded | p50 ms | p99 ms | queries |\n|---|---|---|---:|---:|---:|---:|---:|\n");
    Map<String, Double> embedded = new LinkedHashMap<>();
    for (Row r : rows) if (r.backend().equals("embedded")) embedded.put(r.dataset() + "/" + r.method(), r.ndcg());
    for (Row r : rows) {
      Double e = embedded.get(r.dataset() + "/" + r.method());
      String ndcg = Double.isNaN(r.ndcg()) ? "–" : String.format(Locale.ROOT, "%.4f", r.ndcg());
      String delta = Double.isNaN(r.ndcg()) || r.backend().equals("embedded") || e == null ? ""
          : String.format(Locale.ROOT, "%+.4f", r.ndcg() - e);
      b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.1f | %.1f | %d |%n", r.dataset(), r.method(), r.backend(),
          ndcg, delta, r.p50(), r.p99(), r.queries()));
    }
    b.append('\n');
    for (String n : notes) b.append("- ").append(n).append('\n');
    return b.toString();
  }
}
