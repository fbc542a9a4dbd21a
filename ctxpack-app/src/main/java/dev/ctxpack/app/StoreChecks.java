package dev.ctxpack.app;

import dev.ctxpack.assemble.MemoryStores;
import dev.ctxpack.index.IndexCheck;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import java.io.IOException;
import java.util.List;

/**
 * The full verification of an index and of its memory store ({@code ctxpack check}, {@code serve
 * --check-on-start}), through the backends' providers ({@link Indexes#check}, {@link
 * MemoryStores#check}). A backend that cannot verify its files is a {@link UsageException} naming it:
 * a check that could not be made is never reported as intact.
 */
public final class StoreChecks {
  private StoreChecks() {}

  /** What one store gave: {@code store} is {@code index} or {@code memory}. */
  public record Checked(String store, IndexCheck check) {}

  /** Verifies the index {@code index} (which must exist and hold an index) and the memory store {@code memory}. */
  public static List<Checked> check(IndexSpec index, IndexSpec memory) throws IOException {
    IndexCheck idx = Indexes.check(index).orElseThrow(() -> cannot("index", index));
    if (idx.files() == 0) throw new IOException("no index at " + index + ": run 'ctxpack ingest' first, or pass --index");
    IndexCheck mem = MemoryStores.check(memory).orElseThrow(() -> cannot("memory store", memory));
    return List.of(new Checked("index", idx), new Checked("memory", mem));
  }

  /** Whether every store verified. */
  public static boolean intact(List<Checked> checked) {
    return checked.stream().allMatch(c -> c.check().intact());
  }

  /**
   * One line naming the first damaged store and file: {@code index DIR is damaged: segment _0, file
   * _0.cfs: checksum failed ... (2 damaged files)}; null when every store verified.
   */
  public static String damage(List<Checked> checked) {
    for (Checked c : checked) {
      if (c.check().intact()) continue;
      IndexCheck.Damage d = c.check().damaged().get(0);
      int n = c.check().damaged().size();
      return c.store() + " " + c.check().location() + " is damaged: " + d.where() + ": " + d.problem()
          + (n > 1 ? " (" + n + " damaged files)" : "");
    }
    return null;
  }

  private static UsageException cannot(String what, IndexSpec spec) {
    return new UsageException("the " + what + " backend '" + spec.scheme() + "' of " + spec
        + " cannot verify its files, so it cannot be checked");
  }
}
