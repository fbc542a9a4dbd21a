package dev.ctxpack.ingest;

import java.nio.file.Path;
import java.util.List;

/** Observes an ingestion (a progress bar, a test). Every method has a no-op default. */
public interface IngestListener {
  IngestListener NONE = new IngestListener() {};

  /** {@code total} files will be read. */
  default void started(int totalFiles) {}

  /** File number {@code index} (0-based) has been processed, successfully or not. */
  default void fileDone(Path file, int index, int totalFiles) {}

  /** {@code done} of the {@code total} texts of {@code file} (chunk windows and sentences) have been embedded. */
  default void embedded(Path file, int done, int total) {}

  /** The documents are durable: a crash from now on keeps them. */
  default void committed(List<String> docIds) {}
}
