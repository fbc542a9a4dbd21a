package dev.ctxpack.lucene;

import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexCheck;
import dev.ctxpack.index.IndexProvider;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code lucene} backend ({@code lucene:DIR}, or a bare path): a {@link LuceneIndex} in the
 * directory the spec's location names. Registered in {@code
 * META-INF/services/dev.ctxpack.index.IndexProvider}.
 */
public final class LuceneIndexProvider implements IndexProvider {
  @Override
  public Set<String> schemes() {
    return Set.of(IndexSpec.DEFAULT_SCHEME);
  }

  @Override
  public Index open(IndexSpec spec) throws IOException {
    return LuceneIndex.open(dir(spec));
  }

  @Override
  public Index openExisting(IndexSpec spec) throws IOException {
    return LuceneIndex.openExisting(dir(spec));
  }

  @Override
  public boolean exists(IndexSpec spec) {
    return Files.isDirectory(dir(spec));
  }

  /** Every file of the latest commit verified ({@link LuceneCheck}); an absent directory is an error naming it. */
  @Override
  public Optional<IndexCheck> check(IndexSpec spec) throws IOException {
    Path dir = dir(spec);
    if (!Files.isDirectory(dir)) throw new IOException("no index at " + dir + ": run 'ctxpack ingest' first, or pass --index");
    return Optional.of(LuceneCheck.verify(dir));
  }

  @Override
  public IndexSpec resolve(IndexSpec spec, Path base) {
    return new IndexSpec(spec.scheme(), base.resolve(dir(spec)).normalize().toString());
  }

  static Path dir(IndexSpec spec) {
    return Path.of(spec.location());
  }
}
