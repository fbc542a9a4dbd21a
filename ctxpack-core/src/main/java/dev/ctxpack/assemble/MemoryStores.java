package dev.ctxpack.assemble;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexCheck;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import java.io.IOException;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * Opens memory stores by spec through the {@link MemoryStoreProvider}s on the classpath: the one
 * beside an index ({@link #beside}), or one named on its own (a bare path is a Lucene directory).
 */
public final class MemoryStores {
  private MemoryStores() {}

  /** The spec of the memory store that belongs beside the index {@code index}. */
  public static IndexSpec beside(IndexSpec index) {
    return provider(index).besideIndex(index);
  }

  /** Opens the memory store {@code spec} names, with {@code embedder} (null: lexical recall only). */
  public static MemoryStore open(IndexSpec spec, Embedder embedder) throws IOException {
    return provider(spec).open(spec, embedder);
  }

  /** Verifies every file of the memory store {@code spec} names ({@link MemoryStoreProvider#check}); empty if its backend cannot. */
  public static Optional<IndexCheck> check(IndexSpec spec) throws IOException {
    return provider(spec).check(spec);
  }

  private static MemoryStoreProvider provider(IndexSpec spec) {
    Set<String> known = new TreeSet<>();
    MemoryStoreProvider found = null;
    for (MemoryStoreProvider p : ServiceLoader.load(MemoryStoreProvider.class, Indexes.loader())) {
      known.addAll(p.schemes());
      if (p.schemes().contains(spec.scheme())) {
        if (found != null) {
          throw new IllegalStateException("memory store backends " + found.getClass().getName() + " and "
              + p.getClass().getName() + " both handle '" + spec.scheme() + "': keep one on the classpath");
        }
        found = p;
      }
    }
    if (found == null) throw Indexes.unknown("memory store backend", spec, known);
    return found;
  }
}
