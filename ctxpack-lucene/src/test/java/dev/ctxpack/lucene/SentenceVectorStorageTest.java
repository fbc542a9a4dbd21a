package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sentence vectors in an index that never stored any (written before they existed): the field is
 * absent everywhere and reads return at once. What every index does with them is {@link
 * LuceneIndexContractTest}.
 */
class SentenceVectorStorageTest {
  @TempDir Path dir;

  private static final String TEXT = "The committee met on Monday. It approved the budget for the new library. "
      + "Construction starts in spring and should take two years. The next meeting is in March.";

  @Test
  void anIndexWrittenWithoutSentenceVectorsReturnsNone() throws IOException {
    Document d = new Document("old", "file:///old", "Minutes", Language.EN, Map.of(), TEXT);
    List<Chunk> chunks = new TokenChunker(Tokenizers.defaultTokenizer(), 20, 0.15).chunk(d);
    List<float[]> windows = chunks.stream().map(c -> Embedder.normalize(new float[] {1, 0, 0})).toList();
    IndexEntry e = IndexEntry.withChunkVectors(d, "/src/old", "h", chunks, windows, "test-emb");
    List<String> ids = chunks.stream().map(Chunk::id).toList();
    try (LuceneIndex index = LuceneIndex.open(dir)) {
      assertThat(index.sentenceVectors(List.of("old#0"))).isEmpty();
      index.write(List.of(e), List.of());
      assertThat(index.sentenceVectors(ids)).isEmpty();
    }
    // Reopened, as an index from before sentence vectors would be.
    try (LuceneIndex index = LuceneIndex.openExisting(dir)) {
      assertThat(index.sentenceVectors(ids)).isEmpty();
      assertThat(index.chunkVectors(ids)).hasSize(ids.size());
    }
  }
}
