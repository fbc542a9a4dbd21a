package dev.ctxpack.index;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * An index backend, found by {@link Indexes} through {@link java.util.ServiceLoader}: a module
 * that provides one lists its class in {@code META-INF/services/dev.ctxpack.index.IndexProvider}.
 * Every index it opens passes {@code IndexContract}.
 *
 * <pre>{@code
 * public final class SolrIndexProvider implements IndexProvider {
 *   public Set<String> schemes() { return Set.of("solr", "solr+zk"); }
 *   public Index open(IndexSpec spec) throws IOException { ... }
 *   ...
 * }
 * }</pre>
 */
public interface IndexProvider {
  /** The schemes of the specs this backend opens, lower case (e.g. {@code lucene}). */
  Set<String> schemes();

  /** Opens the index {@code spec} names, creating an empty one if there is none. */
  Index open(IndexSpec spec) throws IOException;

  /** Opens the index {@code spec} names; fails with an {@link IOException} naming it if there is none. */
  Index openExisting(IndexSpec spec) throws IOException;

  /**
   * Whether there is something at {@code spec}'s location to open (for Lucene: the directory
   * exists); {@link #openExisting} may still find no index there and say so.
   */
  boolean exists(IndexSpec spec) throws IOException;

  /**
   * {@code spec} with a relative location resolved against {@code base}, the folder of a file that
   * names it (a tenants file). A location that is not a path stays as it is (the default).
   */
  default IndexSpec resolve(IndexSpec spec, Path base) {
    return spec;
  }

  /**
   * Reads every file of the index {@code spec} names end to end and verifies its checksum ({@code
   * ctxpack check}, {@code serve --check-on-start}); fails with an {@link IOException} naming the
   * spec if there is nothing at its location. Empty (the default) when this backend cannot verify
   * its files: a caller that asked for a check says so rather than calling the index intact.
   */
  default Optional<IndexCheck> check(IndexSpec spec) throws IOException {
    return Optional.empty();
  }
}
