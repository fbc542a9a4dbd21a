package dev.ctxpack.lucene;

import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexContract;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link LuceneIndex} keeps the index contract: each index a directory of its own, opened again with {@link LuceneIndex#openExisting}. */
class LuceneIndexContractTest extends IndexContract {
  @TempDir Path dir;

  @Override
  protected Index create(String name) throws IOException {
    return LuceneIndex.open(dir.resolve(name));
  }

  @Override
  protected Index reopen(String name) throws IOException {
    return LuceneIndex.openExisting(dir.resolve(name));
  }
}
