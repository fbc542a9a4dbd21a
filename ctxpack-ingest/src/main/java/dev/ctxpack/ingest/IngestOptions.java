package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.ingest.clean.CleanOptions;
import dev.ctxpack.model.Language;
import java.util.Objects;
import java.util.Optional;

/**
 * Options of one ingestion. {@code language} empty means detect per document; {@code embedder}
 * empty means no vectors ({@code --no-embed}); {@code vectorWindow} is the size in tokens of the
 * windows each chunk is embedded in (0: one vector for the whole chunk); {@code commitEvery} is how
 * many documents are committed together at most (files are never split across commits); {@code
 * sync} removes stored documents whose source files are gone; {@code sentenceVectors} (with an
 * embedder) also embeds every sentence of every chunk and stores the vectors for query-aware
 * compression ({@code --no-sentence-vectors} turns it off); {@code limits} bounds the size and
 * parsing time of every file ({@link LoadGuard}); {@code files} picks the files of directory walks
 * by glob; {@code cleaning} says how documents are cleaned before they are chunked (on by default;
 * {@code --no-clean} turns it off). {@code commitSeconds} also commits once that many seconds of work
 * have passed since the last commit (0: never by time); a file of more than {@value #SLICE}
 * documents is written in slices of that many, so a large file is committed in parts by either
 * rule (each document whole) and an interrupted ingestion resumes after the last commit. {@code
 * skipBadLines} skips a JSON Lines line that cannot be read instead of failing its file, and lists
 * it in the summary ({@code --skip-bad-lines}).
 */
public record IngestOptions(
    Chunker chunker, Optional<Language> language, Optional<Embedder> embedder, int vectorWindow, int commitEvery,
    boolean sync, boolean sentenceVectors, LoadLimits limits, PathFilter files, CleanOptions cleaning,
    int commitSeconds, boolean skipBadLines) {
  public static final int DEFAULT_COMMIT_EVERY = 512;
  /** With embeddings 512 documents take minutes on a laptop: commit at least once a minute. */
  public static final int DEFAULT_COMMIT_SECONDS = 60;
  /** The documents of a file written (chunked, embedded, put) between two checks of the commit rules. */
  public static final int SLICE = 64;
  /**
   * Sentence-aligned windows of about 100 tokens: small sentence-transformers such as MiniLM are
   * trained on short passages, and a 300-token chunk embedded whole is found less often (measured
   * in docs/BENCHMARKS.md).
   */
  public static final int DEFAULT_VECTOR_WINDOW = 100;

  public IngestOptions {
    Objects.requireNonNull(chunker, "chunker");
    language = language == null ? Optional.empty() : language;
    embedder = embedder == null ? Optional.empty() : embedder;
    limits = limits == null ? LoadLimits.DEFAULTS : limits;
    files = files == null ? PathFilter.ALL : files;
    cleaning = cleaning == null ? CleanOptions.defaults() : cleaning;
    if (vectorWindow != 0 && vectorWindow < TokenChunker.MIN_MAX_TOKENS) {
      throw new IllegalArgumentException("vectorWindow must be 0 or >= " + TokenChunker.MIN_MAX_TOKENS + ", was " + vectorWindow);
    }
    if (commitEvery < 1) throw new IllegalArgumentException("commitEvery must be >= 1, was " + commitEvery);
    if (commitSeconds < 0) throw new IllegalArgumentException("commitSeconds must be >= 0, was " + commitSeconds);
  }

  /** Options committing every {@link #DEFAULT_COMMIT_SECONDS} seconds too, failing a file on a bad line. */
  public IngestOptions(Chunker chunker, Optional<Language> language, Optional<Embedder> embedder, int vectorWindow,
      int commitEvery, boolean sync, boolean sentenceVectors, LoadLimits limits, PathFilter files, CleanOptions cleaning) {
    this(chunker, language, embedder, vectorWindow, commitEvery, sync, sentenceVectors, limits, files, cleaning,
        DEFAULT_COMMIT_SECONDS, false);
  }

  /** Options with the default load limits and cleaning, taking every file of directory walks. */
  public IngestOptions(Chunker chunker, Optional<Language> language, Optional<Embedder> embedder, int vectorWindow,
      int commitEvery, boolean sync, boolean sentenceVectors) {
    this(chunker, language, embedder, vectorWindow, commitEvery, sync, sentenceVectors, null, null, null);
  }

  /** Options with sentence vectors stored (when there is an embedder). */
  public IngestOptions(Chunker chunker, Optional<Language> language, Optional<Embedder> embedder, int vectorWindow,
      int commitEvery, boolean sync) {
    this(chunker, language, embedder, vectorWindow, commitEvery, sync, true);
  }

  public static IngestOptions of(Chunker chunker, Embedder embedderOrNull) {
    return new IngestOptions(chunker, Optional.empty(), Optional.ofNullable(embedderOrNull), DEFAULT_VECTOR_WINDOW,
        DEFAULT_COMMIT_EVERY, false, true, null, null, null);
  }

  public IngestOptions withCommitEvery(int n) {
    return new IngestOptions(chunker, language, embedder, vectorWindow, n, sync, sentenceVectors, limits, files,
        cleaning, commitSeconds, skipBadLines);
  }

  public IngestOptions withSync(boolean on) {
    return new IngestOptions(chunker, language, embedder, vectorWindow, commitEvery, on, sentenceVectors, limits, files,
        cleaning, commitSeconds, skipBadLines);
  }

  public IngestOptions withLanguage(Language l) {
    return new IngestOptions(chunker, Optional.ofNullable(l), embedder, vectorWindow, commitEvery, sync, sentenceVectors,
        limits, files, cleaning, commitSeconds, skipBadLines);
  }

  public IngestOptions withVectorWindow(int tokens) {
    return new IngestOptions(chunker, language, embedder, tokens, commitEvery, sync, sentenceVectors, limits, files,
        cleaning, commitSeconds, skipBadLines);
  }

  public IngestOptions withSentenceVectors(boolean on) {
    return new IngestOptions(chunker, language, embedder, vectorWindow, commitEvery, sync, on, limits, files,
        cleaning, commitSeconds, skipBadLines);
  }

  public IngestOptions withLimits(LoadLimits l) {
    return new IngestOptions(chunker, language, embedder, vectorWindow, commitEvery, sync, sentenceVectors, l, files,
        cleaning, commitSeconds, skipBadLines);
  }

  public IngestOptions withFiles(PathFilter f) {
    return new IngestOptions(chunker, language, embedder, vectorWindow, commitEvery, sync, sentenceVectors, limits, f,
        cleaning, commitSeconds, skipBadLines);
  }

  public IngestOptions withCleaning(CleanOptions c) {
    return new IngestOptions(chunker, language, embedder, vectorWindow, commitEvery, sync, sentenceVectors, limits, files, c,
        commitSeconds, skipBadLines);
  }

  public IngestOptions withCommitSeconds(int seconds) {
    return new IngestOptions(chunker, language, embedder, vectorWindow, commitEvery, sync, sentenceVectors, limits, files,
        cleaning, seconds, skipBadLines);
  }

  public IngestOptions withSkipBadLines(boolean on) {
    return new IngestOptions(chunker, language, embedder, vectorWindow, commitEvery, sync, sentenceVectors, limits, files,
        cleaning, commitSeconds, on);
  }

  /** Whether sentence vectors are computed: asked for, and an embedder to compute them. */
  public boolean storesSentenceVectors() {
    return sentenceVectors && embedder.isPresent();
  }
}
