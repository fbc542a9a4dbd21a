package dev.ctxpack.ingest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The JSON Lines lines one ingestion skipped ({@code --skip-bad-lines}), by file. A file may be
 * loaded twice (the corpus pre-pass, then its turn), so each load replaces what the previous one of
 * the same file reported, and a file's lines count once its turn has read it ({@link #of}).
 */
final class BadLines {
  private final Map<Path, List<IngestSummary.BadLine>> byFile = new HashMap<>();
  private final List<IngestSummary.BadLine> taken = new ArrayList<>();

  /** Where one load of {@code file} reports its bad lines. */
  synchronized Consumer<IngestSummary.BadLine> sink(Path file) {
    List<IngestSummary.BadLine> lines = Collections.synchronizedList(new ArrayList<>());
    byFile.put(file, lines);
    return lines::add;
  }

  /** The bad lines of {@code file} (none for documents given in memory), in line order. */
  synchronized List<IngestSummary.BadLine> of(Path file) {
    List<IngestSummary.BadLine> lines = file == null ? null : byFile.remove(file);
    if (lines == null) return List.of();
    List<IngestSummary.BadLine> copy;
    synchronized (lines) {
      copy = new ArrayList<>(lines);
    }
    taken.addAll(copy);
    return copy;
  }

  /** Every bad line of the files whose turn has come, in the order read. */
  synchronized List<IngestSummary.BadLine> all() {
    return List.copyOf(taken);
  }
}
