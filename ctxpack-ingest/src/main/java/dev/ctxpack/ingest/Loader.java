package dev.ctxpack.ingest;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/** Reads one file into documents. A loader either returns every document of the file or throws. */
public interface Loader {
  /** File extensions handled, lower case with the dot, e.g. {@code .md}. */
  List<String> extensions();

  List<LoadedDocument> load(Path file) throws IngestException;

  /**
   * Reads a file whose bytes the caller has already read, within its limits ({@link LoadGuard}):
   * {@code file} names it (for the URI, title and messages). The default reads the file again.
   */
  default List<LoadedDocument> load(Path file, byte[] content) throws IngestException {
    return load(file);
  }

  /**
   * Reads the file skipping what cannot be read in it (a line of a JSON Lines file), each skipped
   * part reported to {@code skipped} ({@code ctxpack ingest --skip-bad-lines}). The default, for a
   * format without such parts, reads as {@link #load(Path)}.
   */
  default List<LoadedDocument> loadSkipping(Path file, Consumer<IngestSummary.BadLine> skipped) throws IngestException {
    return load(file);
  }

  /**
   * Reads a file whose bytes the caller has already read, held to {@code limits} where the format
   * has more to limit than the file's size (the decompressed content of a PDF). The default ignores
   * them.
   */
  default List<LoadedDocument> load(Path file, byte[] content, LoadLimits limits) throws IngestException {
    return load(file, content);
  }

  /** Whether the format is binary (PDF): its files are not refused for looking binary. */
  default boolean binaryFormat() {
    return false;
  }

  /**
   * Whether a file of this format is a container of many documents (JSON Lines exports): {@link
   * LoadGuard} then streams it through {@link #load(Path)} and applies the size cap to each document
   * rather than to the file, so a corpus export of any size can be ingested.
   */
  default boolean container() {
    return false;
  }
}
