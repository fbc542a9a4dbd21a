package dev.ctxpack.bench.jmh;

import dev.ctxpack.bench.data.BeirLoader;
import dev.ctxpack.bench.data.Dataset;
import dev.ctxpack.bench.pipeline.CtxpackPipeline;
import dev.ctxpack.compress.IndexSentenceVectors;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.rerank.FeatureReranker;
import dev.ctxpack.retrieve.Retriever;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The benchmarks' index: SciFact ingested with the default chunker and {@link MiniLmEmbedder}.
 * Reused from the directory in system property {@value #INDEX_PROPERTY} (or environment variable
 * {@code CTXPACK_BENCH_INDEX}) when it holds an index, built there when that directory does not
 * exist yet (so later forks reuse it), else built into a temporary directory that {@link #close()}
 * deletes. The data folder is {@value #DATA_PROPERTY} / {@code CTXPACK_DATA},
 * default {@code ../shared/data} from the project root.
 */
final class SciFactIndex implements AutoCloseable {
  static final String INDEX_PROPERTY = "ctxpack.bench.index";
  static final String DATA_PROPERTY = "ctxpack.bench.data";

  final LuceneIndex index;
  final Embedder embedder;
  final List<String> queries;
  private final Path temp;

  private SciFactIndex(LuceneIndex index, Embedder embedder, List<String> queries, Path temp) {
    this.index = index;
    this.embedder = embedder;
    this.queries = queries;
    this.temp = temp;
  }

  static SciFactIndex openOrBuild() throws IOException {
    Path data = setting(DATA_PROPERTY, "CTXPACK_DATA", "../shared/data");
    Path dir = data.resolve("scifact/beir_test");
    if (!Files.isDirectory(dir)) {
      throw new IOException("no SciFact data at " + dir + ": run from the project root or pass -D" + DATA_PROPERTY + "=DIR");
    }
    Dataset ds = BeirLoader.load("scifact", dir, "test");
    List<String> queries = new ArrayList<>(ds.judgedQueries().values());
    Embedder embedder = new MiniLmEmbedder();
    String given = System.getProperty(INDEX_PROPERTY, System.getenv("CTXPACK_BENCH_INDEX"));
    if (given != null && !given.isBlank() && Files.isDirectory(Path.of(given))) {
      LuceneIndex index = LuceneIndex.openExisting(Path.of(given));
      if (index.stats().vectors() == 0) {
        index.close();
        throw new IOException("the index at " + given + " holds no vectors: build it with embeddings");
      }
      System.err.println("[jmh] reusing index " + given + ": " + index.stats());
      return new SciFactIndex(index, embedder, queries, null);
    }
    // A path given but not there yet is where the index is built and kept, so the next fork reuses it.
    boolean keep = given != null && !given.isBlank() && !Files.exists(Path.of(given));
    Path temp = keep ? null : Files.createTempDirectory("ctxpack-jmh");
    LuceneIndex index = LuceneIndex.open(keep ? Path.of(given) : temp.resolve("index"));
    long t0 = System.nanoTime();
    IngestSummary s = new Ingestor(index, Loaders.defaults(), CtxpackPipeline.options(embedder, null,
        CtxpackPipeline.CHUNK_TOKENS), null).ingest(List.of(dir.resolve("corpus.jsonl")));
    System.err.printf("[jmh] built SciFact index in %.1f s: %d documents, %d chunks%n",
        (System.nanoTime() - t0) / 1e9, s.added(), s.chunks());
    return new SciFactIndex(index, embedder, queries, temp);
  }

  /**
   * The packer as the pack command wires it over {@code view}: {@code retriever}, the learned
   * reranker, the index's chunk vectors for semantic dedup and MMR, and its sentence vectors (query
   * embedded by {@code embedder}) for compression.
   */
  static DefaultContextPacker packer(Retriever retriever, SearchableIndex view, Embedder embedder) {
    return packer(retriever, view, embedder, dev.ctxpack.pack.StageListener.NONE);
  }

  /** {@link #packer(Retriever, SearchableIndex, Embedder)}, told each stage's time by {@code listener}. */
  static DefaultContextPacker packer(Retriever retriever, SearchableIndex view, Embedder embedder,
      dev.ctxpack.pack.StageListener listener) {
    return DefaultContextPacker.builder().retriever(retriever).stageListener(listener)
        .reranker(FeatureReranker.defaults())
        .vectors(PassageVectors.fromIndex(view, embedder.languages()))
        .sentenceVectors(new IndexSentenceVectors(view, embedder))
        .build();
  }

  private static Path setting(String property, String env, String fallback) {
    String v = System.getProperty(property, System.getenv(env));
    return Path.of(v == null || v.isBlank() ? fallback : v);
  }

  @Override
  public void close() throws IOException {
    index.close();
    if (temp != null) {
      try (Stream<Path> walk = Files.walk(temp)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
      }
    }
  }
}
