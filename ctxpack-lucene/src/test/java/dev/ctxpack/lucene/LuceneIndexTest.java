package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only the Lucene index does; what every index does is {@link LuceneIndexContractTest}. */
class LuceneIndexTest {
  @TempDir Path dir;

  @Test
  void openingAMissingIndexNamesThePath() {
    assertThatThrownBy(() -> LuceneIndex.openExisting(dir.resolve("nothing-here")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("nothing-here")
        .hasMessageContaining("ctxpack ingest");
  }

  @Test
  void anEmptyDirectoryIsNoIndex() throws IOException {
    assertThatThrownBy(() -> LuceneIndex.openExisting(dir))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no index at " + dir);
  }
}
