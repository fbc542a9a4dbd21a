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

  /**
   * {@code done} of the {@code total} chunks of {@code file} are chunked and, with an embedder,
   * embedded: reported after each embedding batch and after each slice of documents written, so a
   * large file (a long PDF, a JSON Lines export) shows progress before it is done.
   */
  default void chunksDone(Path file, int done, int total) {}

  /** The documents are durable: a crash from now on keeps them. */
  default void committed(List<String> docIds) {}

  /**
   * The run's last commit is durable and the index may now merge what it wrote ({@link
   * dev.ctxpack.index.WritableIndex.Batch#compact()}), which can take a while on a large load.
   */
  default void compacting() {}
}
