package dev.ctxpack.app.cli;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.Errors;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.Views;
import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.chunk.Chunkers;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.Indexes;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.ingest.IngestAbortedException;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.LoadLimits;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.ingest.PathFilter;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = "Ingest files or directories (.txt, .md, .html, .pdf, .jsonl) into the index. Unchanged content is"
        + " skipped; a file that fails is reported and nothing of it is written.")
final class IngestCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin CommonOptions common = new CommonOptions();

  @Parameters(paramLabel = "PATH", arity = "1..*", description = "Files or directories (recursive).")
  List<Path> paths;

  @Mixin ChunkingOptions chunking = new ChunkingOptions();
  @Mixin CleaningFlags cleaning = new CleaningFlags();

  @Mixin LoadingOptions loading = new LoadingOptions();

  @Option(names = "--include", paramLabel = "GLOB", description = "Take only files of the directories whose path"
      + " relative to the directory matches GLOB (repeatable), e.g. '**/*.md'.")
  List<String> include = List.of();

  @Option(names = "--exclude", paramLabel = "GLOB", description = "Skip files of the directories whose relative path"
      + " matches GLOB (repeatable), e.g. 'drafts/**'.")
  List<String> exclude = List.of();

  @Option(names = "--acl", paramLabel = "LABEL", description = "Access label of every document of this run that has"
      + " none of its own (a JSON Lines line's acl); repeatable. Only keys holding one of a document's labels read it"
      + " (ctxpack serve --tenants).")
  List<String> acl = List.of();

  @Option(names = "--lang", defaultValue = "auto", description = "Document language: auto, pt or en. Default: ${DEFAULT-VALUE}.")
  String lang;

  @Option(names = "--no-embed", description = "Do not compute vectors (BM25 only; faster).")
  boolean noEmbed;

  @Option(names = "--no-sentence-vectors", description = "Do not store sentence vectors (query-aware compression then"
      + " embeds sentences at request time or goes without).")
  boolean noSentenceVectors;

  @Option(names = "--sync", description = "Remove documents whose files are gone from the given directories.")
  boolean sync;

  @Option(names = "--vector-window", defaultValue = "100", paramLabel = "N",
      description = "Embed each chunk in sentence-aligned windows of about N tokens; 0 embeds whole chunks."
          + " Default: ${DEFAULT-VALUE}.")
  int vectorWindow;

  @Option(names = "--commit-every", defaultValue = "512", paramLabel = "N",
      description = "Commit once N documents are pending (a large file is committed in parts, each document whole;"
          + " re-running after a crash resumes). Default: ${DEFAULT-VALUE}.")
  int commitEvery;

  @Option(names = "--commit-seconds", defaultValue = "60", paramLabel = "S",
      description = "Also commit once S seconds of work have passed since the last commit; 0: only by --commit-every."
          + " Default: ${DEFAULT-VALUE}.")
  int commitSeconds;

  @Option(names = "--skip-bad-lines", description = "Skip a JSON Lines line that cannot be read (bad JSON, a missing"
      + " field, invalid UTF-8) instead of failing its file; the summary lists every skipped line (exit code 1).")
  boolean skipBadLines;

  @Option(names = "--progress", defaultValue = "auto", paramLabel = "WHEN",
      description = "Progress on stderr: auto (a bar on a terminal, none with --format json), always (a bar on a"
          + " terminal, else one line per step: chunks of a file, files, commits), never. Default: ${DEFAULT-VALUE}.")
  Progress.When progress;

  @Option(names = "--near-duplicate", defaultValue = "0.8", paramLabel = "J",
      description = "Mark a document near-duplicate-of an earlier one when their estimated word-shingle Jaccard"
          + " (MinHash) is at least J, in (0, 1]. Default: ${DEFAULT-VALUE}.")
  double nearDuplicate;

  /** The ingestion options these flags give, embedding with {@code embedder} (null: none); fails on a bad flag. */
  IngestOptions options(Embedder embedder) {
    if (!(nearDuplicate > 0 && nearDuplicate <= 1)) throw new UsageException("--near-duplicate must be in (0, 1], was " + nearDuplicate);
    Chunker chunker = chunking.chunker(() -> embedder != null ? embedder : Components.embedder(common.embedder));
    Optional<Language> language = lang.equalsIgnoreCase("auto") ? Optional.empty() : Optional.of(Language.fromCode(lang));
    if (vectorWindow != 0 && vectorWindow < TokenChunker.MIN_MAX_TOKENS) {
      throw new UsageException("--vector-window must be 0 or >= " + TokenChunker.MIN_MAX_TOKENS + ", was " + vectorWindow);
    }
    if (commitEvery < 1) throw new UsageException("--commit-every must be >= 1, was " + commitEvery);
    if (commitSeconds < 0) throw new UsageException("--commit-seconds must be >= 0, was " + commitSeconds);
    PathFilter files;
    try {
      files = new PathFilter(include, exclude);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return new IngestOptions(chunker, language, Optional.ofNullable(embedder), vectorWindow, commitEvery,
        sync, !noSentenceVectors, loading.limits(), files, cleaning.options(), commitSeconds, skipBadLines);
  }

  /** The loaders, labelling documents with {@code --acl} when given. */
  private Loaders loaders() {
    if (acl.isEmpty()) return Loaders.defaults();
    try {
      return Loaders.defaults().labelled(acl);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--acl: " + e.getMessage());
    }
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Embedder embedder = noEmbed ? null : Components.embedder(common.embedder);
    IngestOptions options = options(embedder);
    Loaders loaders = loaders();
    IngestSummary s = null;
    IngestAbortedException aborted = null;
    try (Index index = Indexes.open(common.indexSpec())) {
      try {
        s = new Ingestor(index, loaders, options, Progress.of(err, progress, common.json()), nearDuplicate).ingest(paths);
      } catch (IngestAbortedException e) {
        aborted = e;
        s = e.summary();
      }
    } catch (IOException | RuntimeException e) {
      if (aborted == null) throw e; // after a write failure, closing may fail too: the first failure is the one to tell
    }
    String error = aborted == null ? null : Errors.message(aborted);
    if (common.json()) {
      ObjectNode o = Views.ingest(s);
      if (error != null) o.put("error", error);
      out.println(Json.line(o));
    } else {
      out.printf("added %d, updated %d, unchanged %d, duplicates %d, removed %d, failed %d; %d chunks in %.1fs%n",
          s.added(), s.updated(), s.unchanged(), s.duplicates(), s.removed(), s.failed().size(), s.chunks(), s.seconds());
      badLines(out, s);
    }
    for (IngestSummary.Failure f : s.failed()) {
      // Most errors already start with the file they are about; name it once.
      err.println("error: " + (f.error().startsWith(f.path()) ? f.error() : f.path() + ": " + f.error()));
    }
    if (error != null) err.println("error: " + error);
    return s.failed().isEmpty() && s.badLineCount() == 0 && error == null ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  /**
   * The skipped lines of {@code --skip-bad-lines} under the text summary: a count, then one line per
   * skipped line ({@code FILE:LINE: reason}), the first {@value IngestSummary#MAX_LISTED_BAD_LINES}.
   */
  private static void badLines(PrintWriter out, IngestSummary s) {
    if (s.badLineCount() == 0) return;
    out.printf("skipped %d bad line%s (--skip-bad-lines):%n", s.badLineCount(), s.badLineCount() == 1 ? "" : "s");
    for (IngestSummary.BadLine b : s.badLines()) out.println("  " + b.path() + ":" + b.line() + ": " + b.error());
    int more = s.badLineCount() - s.badLines().size();
    if (more > 0) out.printf("  … and %d more (the first %d are listed)%n", more, s.badLines().size());
  }

  /** Limits on every file, shared by ingest and chunk. */
  static final class LoadingOptions {
    @Option(names = "--max-file-mb", defaultValue = "50", paramLabel = "N",
        description = "Skip (as failed) files larger than N MB, checked before and while reading. Default: ${DEFAULT-VALUE}.")
    long maxFileMb;

    @Option(names = "--load-timeout-ms", defaultValue = "30000", paramLabel = "MS",
        description = "Stop parsing a file after MS milliseconds and report it as failed. Default: ${DEFAULT-VALUE}.")
    long loadTimeoutMs;

    @Option(names = "--max-pdf-stream-mb", defaultValue = "64", paramLabel = "N",
        description = "Skip (as failed) a PDF one of whose streams decompresses to more than N MB, checked before its"
            + " text is extracted (a decompression bomb). Default: ${DEFAULT-VALUE}.")
    long maxPdfStreamMb;

    @Option(names = "--max-pdf-decoded-mb", defaultValue = "512", paramLabel = "N",
        description = "Skip (as failed) a PDF whose streams decompress to more than N MB in all; at least"
            + " --max-pdf-stream-mb. Default: ${DEFAULT-VALUE}.")
    long maxPdfDecodedMb;

    LoadLimits limits() {
      long maxMb = LoadLimits.MAX_FILE_BYTES >> 20;
      if (maxPdfStreamMb < 1 || maxPdfStreamMb > 1L << 20) {
        throw new UsageException("--max-pdf-stream-mb must be in [1, 1048576], was " + maxPdfStreamMb);
      }
      if (maxPdfDecodedMb < maxPdfStreamMb || maxPdfDecodedMb > 1L << 20) {
        throw new UsageException("--max-pdf-decoded-mb must be in [--max-pdf-stream-mb (" + maxPdfStreamMb + "), 1048576], was "
            + maxPdfDecodedMb);
      }
      if (maxFileMb < 1 || maxFileMb > maxMb) {
        throw new UsageException("--max-file-mb must be in [1, " + maxMb + "], was " + maxFileMb);
      }
      if (loadTimeoutMs < 1) throw new UsageException("--load-timeout-ms must be >= 1, was " + loadTimeoutMs);
      return LoadLimits.of(maxFileMb, loadTimeoutMs, maxPdfStreamMb, maxPdfDecodedMb);
    }
  }

  /** Chunking options shared by ingest and chunk. */
  static final class ChunkingOptions {
    @Option(names = "--chunker", defaultValue = "token",
        description = "Chunker: token (fixed tokens with overlap), recursive (headings, paragraphs, lines, sentences, words),"
            + " sentence, sentence-window (one sentence each; search and pack widen hits by --window), semantic (cut where"
            + " the topic changes, by the --embedder), passage (100 words). Default: ${DEFAULT-VALUE}.")
    String chunker;

    @Option(names = "--chunk-tokens", defaultValue = "300", paramLabel = "N",
        description = "Maximum tokens per chunk (hard). Default: ${DEFAULT-VALUE}.")
    int chunkTokens;

    @Option(names = "--overlap", defaultValue = "0.15", paramLabel = "F",
        description = "Overlap between chunks as a fraction of --chunk-tokens, in [0, 0.5). Default: ${DEFAULT-VALUE}.")
    double overlap;

    @Option(names = "--tokenizer", defaultValue = Tokenizers.DEFAULT,
        description = "Tokenizer: o200k_base or cl100k_base. Default: ${DEFAULT-VALUE}.")
    String tokenizer;

    /** The chosen chunker; {@code embedder} is asked for only by {@code semantic}. */
    Chunker chunker(java.util.function.Supplier<Embedder> embedder) {
      if (chunkTokens < TokenChunker.MIN_MAX_TOKENS) {
        throw new UsageException("--chunk-tokens must be >= " + TokenChunker.MIN_MAX_TOKENS + ", was " + chunkTokens);
      }
      if (!(overlap >= 0 && overlap < 0.5)) throw new UsageException("--overlap must be in [0, 0.5), was " + overlap);
      Embedder forChunks = chunker.trim().equalsIgnoreCase("semantic") ? embedder.get() : null;
      return Chunkers.byName(chunker, Tokenizers.byName(tokenizer), chunkTokens, overlap, forChunks);
    }
  }
}
