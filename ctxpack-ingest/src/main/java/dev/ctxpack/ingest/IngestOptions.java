package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import java.util.Objects;
import java.util.Optional;

/**
 * Options of one ingestion. {@code language} empty means detect per document; {@code embedder}
 * empty means no vectors ({@code --no-embed}); {@code commitEvery} is how many documents are
 * committed together at most (files are never split across commits); {@code sync} removes stored
 * documents whose source files are gone.
 */
public record IngestOptions(
    Chunker chunker, Optional<Language> language, Optional<Embedder> embedder, int commitEvery, boolean sync) {
  public static final int DEFAULT_COMMIT_EVERY = 512;

  public IngestOptions {
    Objects.requireNonNull(chunker, "chunker");
    language = language == null ? Optional.empty() : language;
    embedder = embedder == null ? Optional.empty() : embedder;
    if (commitEvery < 1) throw new IllegalArgumentException("commitEvery must be >= 1, was " + commitEvery);
  }

  public static IngestOptions of(Chunker chunker, Embedder embedderOrNull) {
    return new IngestOptions(chunker, Optional.empty(), Optional.ofNullable(embedderOrNull), DEFAULT_COMMIT_EVERY, false);
  }

  public IngestOptions withCommitEvery(int n) {
    return new IngestOptions(chunker, language, embedder, n, sync);
  }

  public IngestOptions withSync(boolean on) {
    return new IngestOptions(chunker, language, embedder, commitEvery, on);
  }

  public IngestOptions withLanguage(Language l) {
    return new IngestOptions(chunker, Optional.ofNullable(l), embedder, commitEvery, sync);
  }
}
