package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.assemble.Memory;
import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStores;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lucene backend is found through ServiceLoader, by its scheme and for a bare path, with its memory store beside. */
class LuceneIndexProviderTest {
  @TempDir Path dir;

  @Test
  void aLuceneSpecAndABarePathOpenTheSameDirectory() throws IOException {
    Path at = dir.resolve("idx");
    String text = "Green tea is brewed at about 80 degrees.";
    Document d = new Document("tea", "", "Tea", Language.EN, Map.of(), text);
    try (Index index = Indexes.open("lucene:" + at)) {
      assertThat(index).isInstanceOf(LuceneIndex.class);
      assertThat(index.location()).isEqualTo(at.toString());
      index.write(List.of(new IndexEntry(d, "", "h", List.of(new Chunk("tea#0", "tea", new Span(0, text.length()), text, "", 0, 8)),
          List.of(), null)), List.of());
    }
    assertThat(Indexes.exists(IndexSpec.parse(at.toString()))).isTrue();
    try (Index index = Indexes.openExisting(at.toString())) {
      assertThat(index.find("tea")).isPresent();
    }
  }

  @Test
  void aMissingIndexAndAnUnknownSchemeAreNamed() throws IOException {
    Path missing = dir.resolve("missing");
    assertThat(Indexes.exists(IndexSpec.ofPath(missing))).isFalse();
    assertThatThrownBy(() -> Indexes.openExisting("lucene:" + missing)).isInstanceOf(IOException.class)
        .hasMessageContaining("no index at " + missing);
    assertThatThrownBy(() -> Indexes.open("solr:http://solr:8983/solr/docs")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown index backend 'solr' in 'solr:http://solr:8983/solr/docs': add the ctxpack-solr module to the"
            + " classpath (known: lucene)");
  }

  @Test
  void aRelativeDirectoryIsResolvedAgainstItsBase() {
    assertThat(Indexes.resolve(IndexSpec.parse("lucene:a/../b"), dir)).isEqualTo(IndexSpec.ofPath(dir.resolve("b")));
    assertThat(Indexes.resolve(IndexSpec.parse("/abs/x"), dir)).isEqualTo(IndexSpec.ofPath(Path.of("/abs/x")));
  }

  @Test
  void theMemoryStoreBesideAnIndexIsItsMemoryDirectory() throws IOException {
    IndexSpec index = IndexSpec.parse("lucene:" + dir.resolve("idx"));
    IndexSpec beside = MemoryStores.beside(index);
    assertThat(beside).isEqualTo(IndexSpec.ofPath(dir.resolve("idx").resolve(LuceneMemoryStore.DIRECTORY)));
    try (MemoryStore store = MemoryStores.open(beside, null)) {
      assertThat(store).isInstanceOf(LuceneMemoryStore.class);
      store.add("ana", Memory.Kind.FACT, "Ana prefers short answers.");
    }
    assertThat(Files.isDirectory(dir.resolve("idx/memory"))).isTrue();
  }
}
