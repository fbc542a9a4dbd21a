package dev.ctxpack.assemble;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexCheck;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;

/**
 * A backend of memory stores, found by {@link MemoryStores} through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.ctxpack.assemble.MemoryStoreProvider}): it opens a store by spec
 * and says where the store that belongs beside an index of its scheme is.
 */
public interface MemoryStoreProvider {
  /** The schemes of the specs this backend opens, lower case (e.g. {@code lucene}). */
  Set<String> schemes();

  /** The spec of the memory store kept beside the index {@code index} (for Lucene: {@code <index>/memory}). */
  IndexSpec besideIndex(IndexSpec index);

  /**
   * Opens the store {@code spec} names (created on first write). {@code embedder} gives the
   * memories' vectors; null for lexical recall only. Fails if the store holds vectors of another
   * embedder.
   */
  MemoryStore open(IndexSpec spec, Embedder embedder) throws IOException;

  /**
   * Verifies every file of the store {@code spec} names against its checksum, as {@link
   * dev.ctxpack.index.IndexProvider#check} does for an index; a store not written yet is {@link
   * IndexCheck#empty}. Empty (the default) when this backend cannot verify its files.
   */
  default Optional<IndexCheck> check(IndexSpec spec) throws IOException {
    return Optional.empty();
  }
}
