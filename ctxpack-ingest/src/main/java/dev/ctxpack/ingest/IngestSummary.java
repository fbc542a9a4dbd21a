package dev.ctxpack.ingest;

import java.util.List;

/** What an ingestion did, as the JSON summary of the CLI reports it. */
public record IngestSummary(
    int added, int updated, int unchanged, int duplicates, int removed, List<Failure> failed, int chunks,
    long bytes, double seconds) {
  public IngestSummary {
    failed = List.copyOf(failed);
  }

  /** One input that could not be ingested, and why. */
  public record Failure(String path, String error) {}
}
