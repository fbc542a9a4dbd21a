package dev.ctxpack.lucene;

import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStoreProvider;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexCheck;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
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

  /** Every file of the store's latest commit verified ({@link LuceneCheck}); a store never written (no directory) is empty. */
  @Override
  public Optional<IndexCheck> check(IndexSpec spec) throws IOException {
    Path dir = LuceneIndexProvider.dir(spec);
    return Optional.of(Files.isDirectory(dir) ? LuceneCheck.verify(dir) : IndexCheck.empty(dir.toString()));
  }
}
