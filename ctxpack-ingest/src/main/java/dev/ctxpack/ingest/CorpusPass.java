package dev.ctxpack.ingest;

import dev.ctxpack.ingest.clean.CleanOptions;
import dev.ctxpack.ingest.clean.CorpusLines;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pass over the files of one ingestion before any is cleaned: it counts the short lines of
 * every document ({@link CorpusLines}: hashes only, bounded memory) so cleaning can tell corpus
 * boilerplate from prose. Files are loaded once here; their documents are kept for the main pass
 * while they total at most {@code keepChars} characters (a small or medium corpus is then parsed
 * once), the rest are loaded again when their turn comes: parsing twice costs time, keeping every
 * document of a large corpus would cost memory without bound. A file that fails here fails the
 * same way in the main pass without being loaded again (so a parser that hangs is waited for once).
 */
final class CorpusPass {
  /** About 64 MB of kept text at most. */
  static final long DEFAULT_KEEP_CHARS = 32L << 20;

  /** How the ingestor loads one file. */
  interface FileLoader {
    List<LoadedDocument> load(Path file) throws IngestException;
  }

  private final FileLoader loader;
  private final CorpusLines lines;
  private final Map<Path, List<LoadedDocument>> kept = new HashMap<>();
  private final Map<Path, IngestException> failures = new HashMap<>();

  private CorpusPass(FileLoader loader, CorpusLines lines) {
    this.loader = loader;
    this.lines = lines;
  }

  /** No pre-pass: each file is loaded in its turn and no line is judged across the corpus. */
  static CorpusPass none(FileLoader loader) {
    return new CorpusPass(loader, null);
  }

  static CorpusPass run(List<Path> files, FileLoader loader, CleanOptions options, long keepChars) {
    CorpusPass pass = new CorpusPass(loader, new CorpusLines(options));
    long keptChars = 0;
    for (Path file : files) {
      List<LoadedDocument> docs;
      try {
        docs = loader.load(file);
      } catch (IngestException e) {
        pass.failures.put(file, e);
        continue;
      }
      docs.parallelStream().forEach(pass.lines::add);
      long chars = docs.stream().mapToLong(d -> d.text().length()).sum();
      if (keptChars + chars <= keepChars) {
        pass.kept.put(file, docs);
        keptChars += chars;
      }
    }
    return pass;
  }

  /** The corpus statistics, or null when there was no pre-pass. */
  CorpusLines lines() {
    return lines;
  }

  /** The documents of {@code file}: kept from the pre-pass, else loaded now. */
  List<LoadedDocument> load(Path file) throws IngestException {
    IngestException failed = failures.remove(file);
    if (failed != null) throw failed;
    List<LoadedDocument> docs = kept.remove(file);
    return docs != null ? docs : loader.load(file);
  }
}
