package dev.ctxpack.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The running counts of one ingestion, from which its {@link IngestSummary} is made; {@link #copy}
 * keeps them as they were at a commit, for the summary of an ingestion stopped by a write failure.
 */
final class Tally {
  int added;
  int updated;
  int unchanged;
  int duplicates;
  int removed;
  int chunks;
  long bytes;
  int replacedChars;
  final Map<String, Integer> cleaned = new TreeMap<>();
  /** The bad lines skipped, up to {@link IngestSummary#MAX_LISTED_BAD_LINES}, and how many in all. */
  final List<IngestSummary.BadLine> badLines = new ArrayList<>();
  int badLineCount;
  /** The chunks written without any vector, by reason ({@link TextVectors.Missing}). */
  final Map<String, Integer> withoutVectors = new TreeMap<>();

  void badLines(List<IngestSummary.BadLine> lines) {
    for (IngestSummary.BadLine b : lines) {
      if (badLines.size() < IngestSummary.MAX_LISTED_BAD_LINES) badLines.add(b);
      badLineCount++;
    }
  }

  Tally copy() {
    Tally t = new Tally();
    t.added = added;
    t.updated = updated;
    t.unchanged = unchanged;
    t.duplicates = duplicates;
    t.removed = removed;
    t.chunks = chunks;
    t.bytes = bytes;
    t.replacedChars = replacedChars;
    t.cleaned.putAll(cleaned);
    t.badLines.addAll(badLines);
    t.badLineCount = badLineCount;
    t.withoutVectors.putAll(withoutVectors);
    return t;
  }

  IngestSummary summary(List<IngestSummary.Failure> failed, long t0, List<IngestSummary.DuplicateOf> duplicatesOf,
      int boilerplate) {
    double seconds = (System.nanoTime() - t0) / 1e9;
    return new IngestSummary(added, updated, unchanged, duplicates, removed, failed, chunks, bytes, seconds,
        replacedChars, cleaned, duplicatesOf, boilerplate, badLines, badLineCount, withoutVectors);
  }
}
