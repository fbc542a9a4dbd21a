package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.CorpusCatalog;
import dev.ctxpack.index.WritableIndex;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.ingest.clean.Cleaned;
import dev.ctxpack.ingest.clean.Cleaner;
import dev.ctxpack.token.Tokenizers;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.text.TextNormalizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads files into an index ({@link WritableIndex}). For each input, in a deterministic order:
 *
 * <ol>
 *   <li>expand directories recursively (hidden entries skipped), keeping files a loader handles
 *       and the options' include/exclude globs ({@link PathFilter}) take;
 *   <li>with cleaning on, a pre-pass over all the files counts their short lines ({@link CorpusPass}),
 *       so corpus boilerplate can be told from prose;
 *   <li>load the file whole through {@link LoadGuard} (size cap, binary content, parse timeout): a
 *       file that is refused or cannot be read or parsed is reported in {@code failed} and
 *       nothing of it is written; the others go on;
 *   <li>clean each document ({@link Cleaner}: whitespace, running heads and feet, repeated lines,
 *       {@code --remove} patterns); the cleaned text is what is stored and what offsets refer to;
 *   <li>per document: normalise the text to its storage form (NFC, LF), take the given id or the
 *       content id, detect the language, and compare the content hash with the stored one:
 *       unchanged documents are skipped, the same content from another file is a duplicate;
 *   <li>chunk, embed (title and chunk text in windows and, unless turned off, each sentence of
 *       each chunk alone, all in the same batches: {@link FileEntries}), and put the file's
 *       documents into the open write batch in slices of {@link IngestOptions#SLICE} documents,
 *       committing between two slices or after a file whenever {@code commitEvery} documents are
 *       pending or {@code commitSeconds} have passed ({@link Commits}): a document is always whole in
 *       one commit, a large file may span several, and running the same ingestion again after a
 *       crash finds the committed documents unchanged and writes only the rest;
 *   <li>with {@code sync}, remove documents whose source file is gone or no longer holds them.
 * </ol>
 *
 * Corpus-level duplicates ({@link CorpusDuplicates}): a file repeating a stored document exactly is
 * recorded as its duplicate ({@code duplicatesOf}, and in the index) and not indexed again; a
 * document whose MinHash estimate of word-shingle Jaccard with an earlier one is at least {@code
 * nearJaccard} is indexed and marked {@code near-duplicate-of} it.
 *
 * <p>A failure to read or write the index (the disk full) stops the ingestion with an {@link
 * IngestAbortedException} whose summary describes the last commit, which the index keeps.
 */
public final class Ingestor {
  private static final String CHUNKING_VERSION = "c2"; // c2: token chunks packed from whole-text estimates
  private final WritableIndex index;
  /** The same index, whose catalog tells how many written chunks are boilerplate once committed. */
  private final CorpusCatalog catalog;
  private final Loaders loaders;
  private final IngestOptions options;
  private final IngestListener listener;
  private final LanguageDetector detector = new LanguageDetector();
  private final SentenceSegmenter segmenter = new SentenceSegmenter();
  private final TokenChunker windowChunker;
  private final LoadGuard guard;
  private final Cleaner cleaner;
  private final double nearJaccard;

  /**
   * An ingestor writing into {@code index} (a {@link dev.ctxpack.index.Index}, or any backend that is
   * both a {@link WritableIndex} and a {@link CorpusCatalog}: the summary's boilerplate count reads the
   * catalog).
   */
  public <I extends WritableIndex & CorpusCatalog> Ingestor(I index, Loaders loaders, IngestOptions options,
      IngestListener listener) {
    this(index, loaders, options, listener, CorpusDuplicates.DEFAULT_NEAR_JACCARD);
  }

  /** An ingestor marking near-duplicates at an estimated Jaccard of at least {@code nearJaccard} (default 0.8). */
  public <I extends WritableIndex & CorpusCatalog> Ingestor(I index, Loaders loaders, IngestOptions options,
      IngestListener listener, double nearJaccard) {
    if (!(nearJaccard > 0 && nearJaccard <= 1)) {
      throw new IllegalArgumentException("nearJaccard must be in (0, 1], was " + nearJaccard);
    }
    this.nearJaccard = nearJaccard;
    this.index = Objects.requireNonNull(index, "index");
    this.catalog = index;
    this.loaders = Objects.requireNonNull(loaders, "loaders");
    this.options = Objects.requireNonNull(options, "options");
    this.listener = listener == null ? IngestListener.NONE : listener;
    this.windowChunker = options.vectorWindow() > 0
        ? new TokenChunker(Tokenizers.defaultTokenizer(), options.vectorWindow(), FileEntries.WINDOW_OVERLAP) : null;
    this.guard = new LoadGuard(options.limits());
    this.cleaner = new Cleaner(options.cleaning());
  }

  public IngestSummary ingest(List<Path> inputs) throws IOException {
    long t0 = System.nanoTime();
    List<IngestSummary.Failure> failed = new ArrayList<>();
    List<Path> files = expand(inputs, failed);
    listener.started(files.size());
    BadLines bad = new BadLines();
    CorpusPass.FileLoader load = f -> load(f, bad);
    CorpusPass pass = options.cleaning().needsCorpus()
        ? CorpusPass.run(files, load, options.cleaning(), CorpusPass.DEFAULT_KEEP_CHARS) : CorpusPass.none(load);
    List<Unit> units = new ArrayList<>(files.size());
    for (Path f : files) units.add(new Unit(f, f.toString(), f.toAbsolutePath().normalize().toString(), () -> pass.load(f)));
    return run(units, pass.lines(), inputs, failed, bad, t0);
  }

  /**
   * Ingests documents given in memory (e.g. the body of {@code POST /v1/documents}) as if they were
   * one JSON Lines file named {@code source}: every document must carry an id; they are cleaned
   * (without the corpus pre-pass, which needs files), chunked, embedded, checked for corpus
   * duplicates and written in one atomic commit, and a document whose id and content are already
   * stored from the same {@code source} is {@code unchanged}. Nothing is removed ({@code sync} does
   * not apply). A document that is refused (blank text) is a failure named {@code source#id}.
   */
  public IngestSummary ingestDocuments(String source, List<LoadedDocument> docs) throws IOException {
    Objects.requireNonNull(source, "source");
    for (LoadedDocument d : docs) {
      if (d.id() == null || d.id().isBlank()) throw new IllegalArgumentException("every document needs an id");
    }
    long t0 = System.nanoTime();
    List<LoadedDocument> copy = List.copyOf(docs);
    listener.started(1);
    return run(List.of(new Unit(null, source, source, () -> copy)), null, List.of(), new ArrayList<>(), new BadLines(), t0);
  }

  /** What the ingest loop reads in one step: a file, or documents given in memory ({@code file} null). */
  private record Unit(Path file, String name, String sourcePath, UnitLoader loader) {
    long fileTime() {
      return file == null ? 0 : Ingestor.fileTime(file);
    }
  }

  @FunctionalInterface
  private interface UnitLoader {
    List<LoadedDocument> load() throws IngestException;
  }

  private IngestSummary run(List<Unit> files, dev.ctxpack.ingest.clean.CorpusLines lines, List<Path> inputs,
      List<IngestSummary.Failure> failed, BadLines bad, long t0) throws IOException {
    Tally tally = new Tally();
    Map<String, String> seen = new HashMap<>(); // id -> where it was first given, and its content hash
    String config = configSignature();
    CorpusDuplicates corpus = new CorpusDuplicates(index, catalog, nearJaccard);
    try (WritableIndex.Batch batch = index.begin()) {
      Commits commits = new Commits(batch, corpus, listener, options);
      try {
        for (int fi = 0; fi < files.size(); fi++) {
          ingestUnit(files.get(fi), lines, batch, commits, corpus, tally, seen, config, failed, bad);
          fileDone(files.get(fi).file(), fi, files.size());
        }
        if (options.sync() && !inputs.isEmpty()) tally.removed += syncRemovals(inputs, batch);
        commits.commit(tally);
        // A run over files is a bulk load: the index may merge what it committed (documents given in
        // memory, a request of the service, never wait for that).
        if (!inputs.isEmpty() && tally.added + tally.updated > 0) {
          listener.compacting();
          batch.compact();
        }
      } catch (IOException | RuntimeException e) {
        // The disk full, the index's files gone (also as a backend's "closed after a failure"): the
        // batch is rolled back to the last commit, which the summary describes, with the error.
        IOException io = ioCause(e);
        if (io == null) throw e;
        Tally durable = commits.durable().copy();
        durable.badLines.clear();
        durable.badLineCount = 0;
        durable.badLines(bad.all());
        String why = io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage();
        throw new IngestAbortedException("index write failed: " + why + " (the index keeps its last commit: "
            + durable.added + " added, " + durable.updated + " updated)", durable.summary(failed, t0, corpus.found(), 0), e);
      }
    }
    return tally.summary(failed, t0, corpus.found(), corpus.boilerplateChunks());
  }

  /** The first {@link IOException} of {@code t} and its causes, or null. */
  private static IOException ioCause(Throwable t) {
    for (int depth = 0; t != null && depth < 10; t = t.getCause(), depth++) {
      if (t instanceof IOException io) return io;
    }
    return null;
  }

  /** Reads, compares, chunks, embeds and writes one file (or the documents given in memory). */
  private void ingestUnit(Unit unit, dev.ctxpack.ingest.clean.CorpusLines lines, WritableIndex.Batch batch,
      Commits commits, CorpusDuplicates corpus, Tally tally, Map<String, String> seen, String config,
      List<IngestSummary.Failure> failed, BadLines bad) throws IOException {
    Path file = unit.file();
    String sourcePath = unit.sourcePath();
    List<LoadedDocument> docs;
    List<Cleaned> cleanedDocs;
    try {
      cleanedDocs = unit.loader().load().parallelStream().map(d -> cleaner.clean(d, lines)).toList();
      docs = cleanedDocs.stream().map(Cleaned::doc).toList();
    } catch (IngestException e) {
      failed.add(new IngestSummary.Failure(unit.name(), e.getMessage()));
      return;
    }
    List<Document> toWrite = new ArrayList<>();
    List<Integer> toWriteAt = new ArrayList<>(); // where each document to write is in docs
    List<Boolean> isNew = new ArrayList<>();
    List<String> deletes = new ArrayList<>();
    List<List<Chunker.SectionMark>> sections = new ArrayList<>();
    List<List<Integer>> pages = new ArrayList<>();
    // Normalising, identifying, detecting and hashing are per document: run them in parallel.
    List<Document> normalized = java.util.stream.IntStream.range(0, docs.size()).parallel()
        .mapToObj(i -> normalize(docs.get(i)))
        .toList();
    List<String> hashes = normalized.stream().parallel()
        .map(d -> d == null ? null : contentHash(d, config))
        .toList();
    List<String> toWriteHashes = new ArrayList<>();
    // The stored versions of this file's documents, looked up at once.
    List<String> ids = new ArrayList<>(docs.size());
    for (Document d : normalized) if (d != null) ids.add(d.id());
    Map<String, WritableIndex.StoredDoc> stored = index.findAll(ids);
    for (int di = 0; di < docs.size(); di++) {
      LoadedDocument ld = docs.get(di);
      Document doc = normalized.get(di);
      if (doc == null) {
        failed.add(new IngestSummary.Failure(unit.name() + (ld.id() != null ? "#" + ld.id() : ""), "empty text"));
        continue;
      }
      String id = doc.id();
      String earlier = seen.putIfAbsent(id, unit.name() + '\u0000' + hashes.get(di));
      if (earlier != null) {
        String clash = IdClash.of(id, ld.id() != null, earlier, hashes.get(di));
        if (clash != null) failed.add(new IngestSummary.Failure(unit.name() + "#" + id, clash));
        else corpus.exact(batch, sourcePath, id, id);
        tally.duplicates += clash == null ? 1 : 0;
        continue;
      }
      String hash = hashes.get(di);
      var existing = Optional.ofNullable(stored.get(id));
      boolean added = false;
      if (existing.isPresent()) {
        if (ld.id() == null && !existing.get().sourcePath().equals(sourcePath)
            && Files.exists(Path.of(existing.get().sourcePath()))) {
          tally.duplicates++;
          corpus.exact(batch, sourcePath, id, id);
          continue;
        }
        if (existing.get().contentHash().equals(hash) && existing.get().sourcePath().equals(sourcePath)) {
          tally.unchanged++;
          continue;
        }
      } else if (ld.id() == null && docs.size() == 1) {
        // A file whose content changed gets a new content id: replace its previous document.
        List<String> previous = index.findBySourcePath(sourcePath).stream()
            .filter(s -> s.sourcePath().equals(sourcePath) && !s.id().equals(id))
            .map(WritableIndex.StoredDoc::id)
            .toList();
        deletes.addAll(previous);
        added = previous.isEmpty();
      } else {
        added = true;
      }
      toWrite.add(doc);
      toWriteAt.add(di);
      isNew.add(added);
      toWriteHashes.add(hash);
      sections.add(ld.sections());
      pages.add(ld.pages());
    }
    // Written in slices: a large file is committed in parts (each document whole) when a commit rule
    // says so between two slices, and a re-run finds the committed documents unchanged.
    int slice = Math.min(IngestOptions.SLICE, options.commitEvery());
    FileEntries entries;
    try {
      entries = new FileEntries(file, sourcePath, toWrite, toWriteHashes, sections, pages, options, windowChunker,
          segmenter, listener);
    } catch (RuntimeException e) {
      failed.add(new IngestSummary.Failure(unit.name(), "could not be prepared: " + e.getMessage()));
      return;
    }
    int from = 0;
    do {
      int to = Math.min(toWrite.size(), from + slice);
      List<IndexEntry> written;
      try {
        written = corpus.mark(entries.entries(from, to), sourcePath, unit.fileTime(), deletes);
      } catch (RuntimeException e) {
        failed.add(new IngestSummary.Failure(unit.name(), "could not be prepared: " + e.getMessage()
            + (from > 0 ? " (its first " + from + " documents were written)" : "")));
        return;
      }
      if (from == 0) for (String d : deletes) batch.delete(d);
      batch.putAll(written);
      for (int i = from; i < to; i++) {
        if (isNew.get(i)) tally.added++;
        else tally.updated++;
        cleanedDocs.get(toWriteAt.get(i)).counts().forEach((k, v) -> tally.cleaned.merge(k, v, Integer::sum));
      }
      entries.withoutVectors().forEach((k, v) -> tally.withoutVectors.merge(k, v, Integer::sum));
      for (IndexEntry e : written) {
        commits.written(e.doc().id());
        tally.chunks += e.chunks().size();
        tally.bytes += e.doc().text().length();
      }
      // Documents given in memory (POST /v1/documents) are written in one atomic commit.
      if (to < toWrite.size() && file != null) commits.check(tally);
      from = to;
    } while (from < toWrite.size());
    for (LoadedDocument ld : docs) tally.replacedChars += ld.replacedChars();
    tally.badLines(bad.of(file));
    if (options.sync() && file != null && sourcePathHoldsMany(docs)) {
      for (WritableIndex.StoredDoc s : index.findBySourcePath(sourcePath)) {
        if (s.sourcePath().equals(sourcePath) && !seen.containsKey(s.id())) {
          batch.delete(s.id());
          tally.removed++;
        }
      }
    }
    commits.check(tally);
  }

  /**
   * Every document of one file, or an {@link IngestException} saying why the file cannot be read:
   * loaded under the options' {@link LoadLimits} (size, binary content, timeout) by {@link LoadGuard}.
   */
  private List<LoadedDocument> load(Path file, BadLines bad) throws IngestException {
    return guard.load(loaders.forFile(file).orElseThrow(), file, options.skipBadLines() ? bad.sink(file) : null);
  }

  private void fileDone(Path file, int index, int total) {
    if (file != null) listener.fileDone(file, index, total);
  }

  /** The file's last-modified time in epoch milliseconds, or 0 when it cannot be read. */
  private static long fileTime(Path file) {
    try {
      return Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  private static boolean sourcePathHoldsMany(List<LoadedDocument> docs) {
    return docs.stream().anyMatch(d -> d.id() != null);
  }

  /** Removes stored documents from under the input directories whose files no longer exist. */
  private int syncRemovals(List<Path> inputs, WritableIndex.Batch batch) throws IOException {
    int removed = 0;
    for (Path in : inputs) {
      String prefix = in.toAbsolutePath().normalize().toString();
      for (WritableIndex.StoredDoc s : index.findBySourcePath(prefix)) {
        if (s.sourcePath().isEmpty()) continue;
        boolean under = s.sourcePath().equals(prefix) || s.sourcePath().startsWith(prefix + java.io.File.separator);
        if (under && !Files.exists(Path.of(s.sourcePath()))) {
          batch.delete(s.id());
          removed++;
        }
      }
    }
    return removed;
  }

  /** The stored form of a loaded document, or null when its text is blank. */
  private Document normalize(LoadedDocument ld) {
    String text = TextNormalizer.storageForm(ld.text());
    if (text.isBlank()) return null;
    String id = ld.id() != null ? ld.id() : TextNormalizer.contentId(text);
    Language lang = options.language().orElseGet(() -> detector.detect(ld.title() + "\n" + text));
    return new Document(id, ld.uri(), ld.title(), lang, ld.metadata(), text);
  }

  /** What is embedded for a window of a document: the document's title, then the window's text. */
  public static String embeddingText(Document doc, String text) {
    return doc.title().isBlank() ? text : doc.title() + "\n" + text;
  }

  private String configSignature() {
    // Bump CHUNKING_VERSION when chunk boundaries change for the same options, so re-ingest re-cuts.
    return CHUNKING_VERSION + ":" + options.chunker().signature() + ":"
        + options.embedder().map(Embedder::id).orElse("none") + ":w" + options.vectorWindow() + "/" + FileEntries.WINDOW_OVERLAP
        // Only when on, so an index ingested before sentence vectors existed, or without them, stays unchanged.
        + (options.storesSentenceVectors() ? ":s1" : "");
  }

  private static String contentHash(Document d, String config) {
    return TextNormalizer.sha256Hex(config + "\u0000" + d.title() + "\u0000" + d.uri() + "\u0000" + d.language().code()
        + "\u0000" + d.metadata() + "\u0000" + d.text());
  }

  private List<Path> expand(List<Path> inputs, List<IngestSummary.Failure> failed) {
    List<Path> out = new ArrayList<>();
    Set<Path> unique = new HashSet<>();
    for (Path in : inputs) {
      if (!Files.exists(in)) {
        failed.add(new IngestSummary.Failure(in.toString(), "no such file or directory"));
        continue;
      }
      if (Files.isDirectory(in)) {
        try (Stream<Path> walk = Files.walk(in)) {
          walk.filter(Files::isRegularFile)
              .filter(p -> !hidden(in, p))
              .filter(p -> options.files().accepts(in.relativize(p)))
              .filter(p -> loaders.forFile(p).isPresent())
              .sorted()
              .forEach(p -> {
                if (unique.add(p.toAbsolutePath().normalize())) out.add(p);
              });
        } catch (IOException | java.io.UncheckedIOException e) {
          failed.add(new IngestSummary.Failure(in.toString(), "cannot list directory: " + e.getMessage()));
        }
      } else if (loaders.forFile(in).isEmpty()) {
        failed.add(new IngestSummary.Failure(in.toString(),
            "unsupported format: supported extensions are " + String.join(", ", loaders.extensions())));
      } else if (!Files.isReadable(in)) {
        failed.add(new IngestSummary.Failure(in.toString(), "permission denied"));
      } else if (unique.add(in.toAbsolutePath().normalize())) {
        out.add(in);
      }
    }
    return out;
  }

  private static boolean hidden(Path root, Path p) {
    for (Path part : root.relativize(p)) {
      if (part.toString().startsWith(".")) return true;
    }
    return false;
  }
}
