package dev.ctxpack.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.onnx.Embedders;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Chunks are embedded in sentence-aligned windows; dense search finds a chunk by any window. */
class VectorWindowIngestTest {
  @TempDir Path dir;

  @Test
  void aLongChunkGetsSeveralWindowsAndIsFoundByItsLastOne() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 12; i++) sb.append("The committee discussed budget item number ").append(i).append(" at length. ");
    sb.append("Finally, the penguins at the zoo were fed fresh sardines by the keepers.");
    Path f = dir.resolve("minutes.txt");
    Files.writeString(f, sb.toString());
    Embedder minilm = Embedders.byName("minilm");
    try (Index index = Indexes.open(IndexSpec.ofPath(dir.resolve("idx")))) {
      IngestOptions o = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 300, 0.15), minilm)
          .withVectorWindow(40);
      new Ingestor(index, Loaders.defaults(), o, null).ingest(List.of(f));
      assertThat(index.stats().chunks()).isEqualTo(1);
      assertThat(index.stats().vectors()).isGreaterThanOrEqualTo(3);
      List<Candidate> r = index.searchDense(minilm.embed("feeding penguins fish"), 1);
      assertThat(r).hasSize(1);
      assertThat(r.get(0).chunk().text()).isEqualTo(sb.toString());
    }
    try (Index whole = Indexes.open(IndexSpec.ofPath(dir.resolve("idx0")))) {
      IngestOptions o = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 300, 0.15), minilm)
          .withVectorWindow(0);
      new Ingestor(whole, Loaders.defaults(), o, null).ingest(List.of(f));
      assertThat(whole.stats().vectors()).isEqualTo(1);
    }
  }

  @Test
  void aChunkTheModelCannotEmbedIsKeptForBm25AndTheRestOfTheFileIsEmbedded() throws Exception {
    Path f = dir.resolve("odd.jsonl");
    Files.writeString(f, "{\"_id\": \"zw\", \"text\": \"\u200B\u200B\u200B\"}\n"
        + "{\"_id\": \"ok\", \"text\": \"Penguins eat fish.\"}\n");
    Embedder minilm = Embedders.byName("minilm");
    try (Index index = Indexes.open(IndexSpec.ofPath(dir.resolve("idx")))) {
      var s = new Ingestor(index, Loaders.defaults(),
          IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 300, 0.15), minilm), null).ingest(List.of(f));
      assertThat(s.failed()).isEmpty();
      assertThat(index.stats().documents()).isEqualTo(2);
      assertThat(index.stats().vectors()).isEqualTo(1);
      assertThat(index.searchDense(minilm.embed("what do penguins eat"), 5)).extracting(c -> c.doc().id()).containsExactly("ok");
    }
  }
}
