package dev.ctxpack.ingest;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an ingestion did, as the JSON summary of the CLI reports it. {@code replacedChars} counts
 * invalid input decoded as U+FFFD over all files; {@code cleaned} counts the spans cleaning removed,
 * by reason; {@code duplicatesOf} lists the documents found to repeat another exactly (not indexed)
 * or nearly (indexed, marked); {@code boilerplateChunks} counts chunks flagged as recurring across
 * many documents. With {@code skipBadLines} ({@code --skip-bad-lines}), {@code badLineCount} counts
 * the JSON Lines lines that were skipped and {@code badLines} lists the first {@value
 * #MAX_LISTED_BAD_LINES} of them (by file, then line). {@code withoutVectors} counts, by reason
 * ({@code unreadable}, {@code rejected}, {@code sameVector}: see {@link TextVectors}), the chunks
 * that got no vector at all and are found by BM25 only.
 */
public record IngestSummary(
    int added, int updated, int unchanged, int duplicates, int removed, List<Failure> failed, int chunks,
    long bytes, double seconds, int replacedChars, Map<String, Integer> cleaned, List<DuplicateOf> duplicatesOf,
    int boilerplateChunks, List<BadLine> badLines, int badLineCount, Map<String, Integer> withoutVectors) {
  /** How many skipped lines a summary lists in full; {@code badLineCount} is always exact. */
  public static final int MAX_LISTED_BAD_LINES = 100;

  public IngestSummary {
    failed = List.copyOf(failed);
    badLines = badLines == null ? List.of() : List.copyOf(badLines);
    if (badLineCount < badLines.size()) {
      throw new IllegalArgumentException("badLineCount " + badLineCount + " < " + badLines.size() + " listed");
    }
    withoutVectors = withoutVectors == null ? Map.of()
        : java.util.Collections.unmodifiableMap(new TreeMap<>(withoutVectors));
    cleaned = cleaned == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(cleaned));
    duplicatesOf = duplicatesOf == null ? List.of() : List.copyOf(duplicatesOf);
  }

  public IngestSummary(
      int added, int updated, int unchanged, int duplicates, int removed, List<Failure> failed, int chunks,
      long bytes, double seconds) {
    this(added, updated, unchanged, duplicates, removed, failed, chunks, bytes, seconds, 0, Map.of(), List.of(), 0);
  }

  /** A summary without skipped lines and with no chunk left without a vector. */
  public IngestSummary(
      int added, int updated, int unchanged, int duplicates, int removed, List<Failure> failed, int chunks,
      long bytes, double seconds, int replacedChars, Map<String, Integer> cleaned, List<DuplicateOf> duplicatesOf,
      int boilerplateChunks) {
    this(added, updated, unchanged, duplicates, removed, failed, chunks, bytes, seconds, replacedChars, cleaned,
        duplicatesOf, boilerplateChunks, List.of(), 0, Map.of());
  }

  /** A summary with no chunk left without a vector. */
  public IngestSummary(
      int added, int updated, int unchanged, int duplicates, int removed, List<Failure> failed, int chunks,
      long bytes, double seconds, int replacedChars, Map<String, Integer> cleaned, List<DuplicateOf> duplicatesOf,
      int boilerplateChunks, List<BadLine> badLines, int badLineCount) {
    this(added, updated, unchanged, duplicates, removed, failed, chunks, bytes, seconds, replacedChars, cleaned,
        duplicatesOf, boilerplateChunks, badLines, badLineCount, Map.of());
  }

  /** A summary without skipped lines. */
  public IngestSummary(
      int added, int updated, int unchanged, int duplicates, int removed, List<Failure> failed, int chunks,
      long bytes, double seconds, int replacedChars, Map<String, Integer> cleaned, List<DuplicateOf> duplicatesOf,
      int boilerplateChunks, Map<String, Integer> withoutVectors) {
    this(added, updated, unchanged, duplicates, removed, failed, chunks, bytes, seconds, replacedChars, cleaned,
        duplicatesOf, boilerplateChunks, List.of(), 0, withoutVectors);
  }

  /**
   * Line {@code line} (1-based) of JSON Lines file {@code path} was skipped ({@code --skip-bad-lines}):
   * {@code error} says why, as the error of the file would without the option (without the file and
   * line it starts with there).
   */
  public record BadLine(String path, int line, String error) {}

  /** One input that could not be ingested, and why. */
  public record Failure(String path, String error) {}

  /**
   * Document {@code docId} (from {@code path}) repeats document {@code of}: exactly ({@code near}
   * false: not indexed again) or nearly ({@code near} true, with the estimated Jaccard {@code
   * similarity}: indexed and marked {@code near-duplicate-of}).
   */
  public record DuplicateOf(String path, String docId, String of, boolean near, double similarity) {}
}
