package dev.ctxpack.lucene;

import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStoreProvider;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.util.Set;

/**
 * The {@code lucene} memory stores: a {@link LuceneMemoryStore} in the directory the spec names,
 * and beside a Lucene index in its {@code memory} subdirectory ({@link LuceneMemoryStore#beside}).
 * Registered in {@code META-INF/services/dev.ctxpack.assemble.MemoryStoreProvider}.
 */
public final class LuceneMemoryStoreProvider implements MemoryStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of(IndexSpec.DEFAULT_SCHEME);
  }

  @Override
  public IndexSpec besideIndex(IndexSpec index) {
    return IndexSpec.ofPath(LuceneMemoryStore.beside(LuceneIndexProvider.dir(index)));
  }

  @Override
  public MemoryStore open(IndexSpec spec, Embedder embedder) throws IOException {
    return LuceneMemoryStore.open(LuceneIndexProvider.dir(spec), embedder);
  }
}
