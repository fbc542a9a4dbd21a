package dev.ctxpack.app;

import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.index.WritableIndex;
import java.nio.file.Path;

/**
 * The child JVM of {@link IndexLockedTest}: opens a write batch on the index at {@code args[0]}
 * (which takes Lucene's write lock), prints {@code LOCKED}, and holds it until its stdin closes.
 */
public final class LockHoldingChild {
  private LockHoldingChild() {}

  public static void main(String[] args) throws Exception {
    try (Index index = Indexes.open(IndexSpec.ofPath(Path.of(args[0])))) {
      WritableIndex.Batch batch = index.begin();
      try {
        System.out.println("LOCKED");
        System.out.flush();
        while (System.in.read() >= 0) {
          // Hold the lock until the parent closes our stdin.
        }
      } finally {
        batch.close();
      }
    }
  }
}
