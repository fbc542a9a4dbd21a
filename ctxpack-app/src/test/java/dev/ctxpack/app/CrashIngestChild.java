package dev.ctxpack.app;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestListener;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Path;
import java.util.List;

/**
 * The child JVM of {@link CrashSafetyTest}: ingests a directory with small commits and prints
 * {@code ACK id...} after each commit returns, i.e. once the documents are durable.
 */
public final class CrashIngestChild {
  private CrashIngestChild() {}

  public static void main(String[] args) throws Exception {
    Path corpus = Path.of(args[0]);
    Path index = Path.of(args[1]);
    int commitEvery = Integer.parseInt(args[2]);
    IngestOptions o = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 40, 0.15), null)
        .withCommitEvery(commitEvery);
    try (Index idx = Indexes.open(IndexSpec.ofPath(index))) {
      new Ingestor(idx, Loaders.defaults(), o, new IngestListener() {
        @Override
        public void committed(List<String> docIds) {
          System.out.println("ACK " + String.join(" ", docIds));
          System.out.flush();
        }
      }).ingest(List.of(corpus));
    }
    System.out.println("DONE");
  }
}
