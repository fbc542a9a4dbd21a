package dev.ctxpack.bench.jmh;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.lucene.LuceneIndex;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The state the ingest benchmarks share: SciFact's {@code corpus.jsonl} from the data folder
 * ({@value SciFactIndex#DATA_PROPERTY} / {@code CTXPACK_DATA}, default {@code ../shared/data}) and a
 * fresh index directory for every call, deleted after it.
 */
abstract class SciFactIngest {
  private Path corpus;
  private Path dir;

  @Setup(Level.Trial)
  public void corpus() throws IOException {
    String v = System.getProperty(SciFactIndex.DATA_PROPERTY, System.getenv("CTXPACK_DATA"));
    Path data = Path.of(v == null || v.isBlank() ? "../shared/data" : v);
    corpus = data.resolve("scifact/beir_test/corpus.jsonl");
    if (!Files.isRegularFile(corpus)) {
      throw new IOException("no SciFact corpus at " + corpus + ": run from the project root or pass -D"
          + SciFactIndex.DATA_PROPERTY + "=DIR");
    }
  }

  @Setup(Level.Invocation)
  public void freshIndex() throws IOException {
    dir = Files.createTempDirectory("ctxpack-jmh-ingest");
  }

  @TearDown(Level.Invocation)
  public void deleteIndex() throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }

  /** One whole ingest without embeddings (300-token chunks, 15 % overlap), options adjusted by {@code adjust}. */
  protected IngestSummary ingest(UnaryOperator<IngestOptions> adjust) throws IOException {
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      IngestOptions o = adjust.apply(IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 300, 0.15), null));
      IngestSummary s = new Ingestor(index, Loaders.defaults(), o, null).ingest(List.of(corpus));
      if (!s.failed().isEmpty()) throw new IOException("ingest failed: " + s.failed());
      return s;
    }
  }
}
