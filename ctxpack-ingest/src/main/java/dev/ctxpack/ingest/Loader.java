package dev.ctxpack.ingest;

import java.nio.file.Path;
import java.util.List;

/** Reads one file into documents. A loader either returns every document of the file or throws. */
public interface Loader {
  /** File extensions handled, lower case with the dot, e.g. {@code .md}. */
  List<String> extensions();

  List<LoadedDocument> load(Path file) throws IngestException;
}
