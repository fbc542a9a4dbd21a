package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.ingest.SentenceVectorIngestTest.MemoryIndex;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.ingest.clean.CleanOptions;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cleaning inside ingestion: the pre-pass, what is stored, the summary, re-ingestion and small batches. */
class CleaningIngestTest {
  @TempDir Path dir;
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 60, 0.15);
  private static final String BOILER = "Skip to main content | Home | Journals | Contact";
  private static final String[] TOPICS = {"penguins", "glaciers", "vaccines", "bridges", "rivers", "violins", "comets",
      "orchards", "tunnels", "lichens", "harbours", "deserts", "volcanoes", "beetles", "lanterns", "mosaics", "islands",
      "ferries", "looms", "canyons", "meadows", "reefs", "kilns", "windmills", "quarries", "ponds", "moths", "dunes"};

  private Path write(Path folder, int i, boolean boiler) throws IOException {
    String t = TOPICS[i];
    String text = (boiler ? BOILER + "\n" : "") + "A report on " + t + ".\n\nThe study of " + t
        + " began long ago and continues today in many places across the world.\nMost work on " + t
        + " is done by small teams.\n";
    return Files.writeString(folder.resolve(t + ".txt"), text);
  }

  private IngestSummary ingest(MemoryIndex index, IngestOptions options, Path... paths) throws IOException {
    return new Ingestor(index, Loaders.defaults(), options, null).ingest(List.of(paths));
  }

  @Test
  void corpusBoilerplateIsRemovedBeforeChunkingAndReingestionIsUnchanged() throws IOException {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    for (int i = 0; i < 24; i++) write(corpus, i, true);
    MemoryIndex index = new MemoryIndex();
    IngestOptions options = IngestOptions.of(chunker, null);
    IngestSummary first = ingest(index, options, corpus);
    assertThat(first.added()).isEqualTo(24);
    assertThat(first.cleaned()).containsEntry("repeated-line", 24);
    for (IndexEntry e : index.entries.values()) {
      assertThat(e.doc().text()).startsWith("A report on ").doesNotContain("Skip to main content");
      for (Chunk c : e.chunks()) assertThat(e.doc().text().substring(c.span().start(), c.span().end())).isEqualTo(c.text());
    }
    IngestSummary again = ingest(index, options, corpus);
    assertThat(again.unchanged()).isEqualTo(24);
    assertThat(again.added() + again.updated()).isZero();
    assertThat(again.cleaned()).isEmpty();

    // One new file alone is too small a batch to judge lines across the corpus: its line stays ...
    Path extra = Files.createDirectories(dir.resolve("extra"));
    Path alone = write(extra, 24, true);
    IngestSummary small = ingest(index, options, alone);
    assertThat(small.added()).isEqualTo(1);
    assertThat(index.entries.values().stream().filter(e -> e.doc().text().contains("quarries")).findFirst().orElseThrow()
        .doc().text()).contains("Skip to main content");
    // ... and goes when the whole corpus is ingested together again; the others stay unchanged.
    Files.move(alone, corpus.resolve(alone.getFileName()));
    IngestSummary whole = ingest(index, options, corpus);
    assertThat(whole.unchanged()).isEqualTo(24);
    assertThat(whole.added() + whole.updated()).isEqualTo(1);
  }

  @Test
  void noCleanStoresTheTextAsLoaded() throws IOException {
    Path corpus = Files.createDirectories(dir.resolve("raw"));
    for (int i = 0; i < 22; i++) write(corpus, i, true);
    MemoryIndex index = new MemoryIndex();
    IngestSummary s = ingest(index, IngestOptions.of(chunker, null).withCleaning(CleanOptions.off()), corpus);
    assertThat(s.cleaned()).isEmpty();
    assertThat(index.entries.values()).allMatch(e -> e.doc().text().startsWith(BOILER));
  }

  @Test
  void markdownSectionsFollowTheCleanedText() throws IOException {
    String md = "# Guide\n\nIntro   text   here.\n\nDRAFT - do not cite\n\n## Install\n\nRun the installer.\n\n## Use\n\nOpen it.\n";
    Path f = Files.writeString(dir.resolve("guide.md"), md);
    MemoryIndex index = new MemoryIndex();
    IngestOptions options = IngestOptions.of(new dev.ctxpack.chunk.SentenceChunker(Tokenizers.defaultTokenizer(), 60), null)
        .withCleaning(CleanOptions.defaults().withRemove(List.of("^DRAFT.*$")));
    IngestSummary s = ingest(index, options, f);
    assertThat(s.cleaned()).containsEntry("regex", 1).containsKey("whitespace");
    IndexEntry e = index.entries.values().iterator().next();
    assertThat(e.doc().text()).doesNotContain("DRAFT").contains("Intro text here.");
    Chunk run = e.chunks().stream().filter(c -> c.text().contains("Run the installer")).findFirst().orElseThrow();
    assertThat(run.section()).isEqualTo("Guide > Install");
    Chunk open = e.chunks().stream().filter(c -> c.text().contains("Open it")).findFirst().orElseThrow();
    assertThat(open.section()).isEqualTo("Guide > Use");
  }
}
