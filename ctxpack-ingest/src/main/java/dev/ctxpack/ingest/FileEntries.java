package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The index entries of one file's documents to write, made slice by slice so that a large file can
 * be committed in parts ({@link Ingestor}). On creation every document is chunked and, with an
 * embedder, every text to embed is listed: each chunk's sentence-aligned windows (after its
 * document's title) and, with sentence vectors, each of its sentences alone; a text that occurs
 * twice in the file (a repeated sentence, an untitled one-sentence chunk) is embedded once. {@link
 * #entries} then embeds, in batches ({@link TextVectors}), the texts the next documents need,
 * reporting after each batch how many texts and how many chunks of the file are done ({@link
 * IngestListener#embedded}, {@link IngestListener#chunksDone}). A text gets the same vector alone
 * or in any batch, so where the slices fall does not change what is stored. A text the model cannot
 * read, refuses, or cannot tell from an earlier window gets no vector ({@link TextVectors.Missing});
 * the chunks left without any are counted by reason ({@link #withoutVectors}).
 */
final class FileEntries {
  /** Vector windows overlap like chunks do, so every passage of about a window lies mostly in one. */
  static final double WINDOW_OVERLAP = 0.15;

  private final Path file;
  private final String sourcePath;
  private final List<Document> docs;
  private final List<String> hashes;
  private final List<List<Chunk>> chunks;
  private final Embedder embedder;
  private final IngestListener listener;
  private final List<String> texts = new ArrayList<>();
  private final List<Target> targets = new ArrayList<>();
  /** Per document, how many texts must be embedded before it and every earlier one are complete. */
  private final int[] textsNeeded;
  /** Per document, the chunks of it and every earlier one. */
  private final int[] chunksBefore;
  private TextVectors vectors;
  /** The chunks of the last slice left with no vector at all, by reason. */
  private final Map<String, Integer> withoutVectors = new java.util.TreeMap<>();
  /** Per chunk of the file, in order: how many texts must be embedded before it and every earlier one are complete. */
  private final int[] chunkNeeds;
  private int nextTarget;
  /** The chunks known complete by their vectors, and the chunks reported complete. */
  private int complete;
  private int chunksReported;

  /** A text to embed and where its vector goes: a window or a sentence of chunk {@code chunk} of document {@code doc}. */
  private record Target(int doc, int chunk, Span span, boolean sentence, int slot) {}

  FileEntries(Path file, String sourcePath, List<Document> docs, List<String> hashes,
      List<List<Chunker.SectionMark>> sections, List<List<Integer>> pages, IngestOptions options,
      TokenChunker windowChunker, SentenceSegmenter segmenter, IngestListener listener) {
    this.file = file;
    this.sourcePath = sourcePath;
    this.docs = docs;
    this.hashes = hashes;
    this.listener = listener;
    this.embedder = options.embedder().orElse(null);
    List<List<Chunk>> cut = new ArrayList<>(docs.size());
    for (int i = 0; i < docs.size(); i++) cut.add(null);
    IntStream.range(0, docs.size()).parallel()
        .forEach(i -> cut.set(i, LoadedDocument.withPages(options.chunker().chunk(docs.get(i), sections.get(i)),
            pages.get(i))));
    this.chunks = cut;
    this.chunksBefore = new int[docs.size()];
    for (int i = 0, sum = 0; i < docs.size(); i++) chunksBefore[i] = sum += cut.get(i).size();
    this.textsNeeded = new int[docs.size()];
    this.chunkNeeds = new int[totalChunks()];
    if (embedder == null) return;
    int g = 0;
    Map<String, Integer> slots = new HashMap<>();
    List<List<List<Span>>> sentences = options.storesSentenceVectors() ? sentences(segmenter) : null;
    for (int i = 0; i < docs.size(); i++) {
      Document doc = docs.get(i);
      for (int c = 0; c < chunks.get(i).size(); c++) {
        Chunk chunk = chunks.get(i).get(c);
        for (Span w : windows(doc, chunk, options.vectorWindow(), windowChunker)) {
          int slot = slots.computeIfAbsent(Ingestor.embeddingText(doc, w.of(doc.text())), this::add);
          targets.add(new Target(i, c, w, false, slot));
        }
        if (sentences == null) continue;
        for (Span sentence : sentences.get(i).get(c)) {
          int slot = slots.computeIfAbsent(sentence.of(doc.text()), this::add);
          targets.add(new Target(i, c, sentence, true, slot));
        }
        chunkNeeds[g++] = texts.size();
      }
      textsNeeded[i] = texts.size();
    }
    java.util.BitSet windowTexts = new java.util.BitSet();
    for (Target t : targets) if (!t.sentence()) windowTexts.set(t.slot());
    vectors = new TextVectors(embedder, texts, windowTexts);
  }

  /** The chunks of the documents of the last {@link #entries} call that got no vector at all, by reason. */
  Map<String, Integer> withoutVectors() {
    return withoutVectors;
  }

  int documents() {
    return docs.size();
  }

  /** Every chunk of the file's documents. */
  int totalChunks() {
    return docs.isEmpty() ? 0 : chunksBefore[docs.size() - 1];
  }

  /** The entries of documents {@code [from, to)}, in order, embedding the texts they need first. */
  List<IndexEntry> entries(int from, int to) {
    int upTo = to == 0 ? 0 : chunksBefore[to - 1];
    if (embedder != null) {
      int need = to == 0 ? 0 : textsNeeded[to - 1];
      while (vectors.done() < need) {
        vectors.embedBatch(need);
        if (file != null) listener.embedded(file, vectors.done(), texts.size());
        while (complete < chunkNeeds.length && chunkNeeds[complete] <= vectors.done()) complete++;
        report(Math.min(complete, upTo));
      }
    }
    report(upTo);
    List<List<ChunkVector>> windowVectors = new ArrayList<>();
    List<List<ChunkVector>> sentenceVectors = new ArrayList<>();
    for (int i = from; i < to; i++) {
      windowVectors.add(new ArrayList<>());
      sentenceVectors.add(new ArrayList<>());
    }
    withoutVectors.clear();
    TextVectors.Tally lost = new TextVectors.Tally();
    for (; nextTarget < targets.size() && targets.get(nextTarget).doc() < to; nextTarget++) {
      Target t = targets.get(nextTarget);
      float[] v = t.sentence() ? vectors.sentence(t.slot()) : vectors.window(t.slot());
      if (!t.sentence()) lost.window(t.doc(), t.chunk(), vectors.missing(t.slot()));
      if (v == null) continue; // a text without a vector: its chunk stays searchable by BM25
      (t.sentence() ? sentenceVectors : windowVectors).get(t.doc() - from).add(new ChunkVector(t.chunk(), t.span(), v));
    }
    lost.addTo(withoutVectors);
    List<IndexEntry> out = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      out.add(new IndexEntry(docs.get(i), sourcePath, hashes.get(i), chunks.get(i),
          embedder == null ? List.of() : windowVectors.get(i - from), embedder == null ? null : embedder.id(),
          embedder == null ? List.of() : sentenceVectors.get(i - from)));
    }
    return out;
  }

  /** Reports {@code done} chunks of the file complete, when that is more than reported before. */
  private void report(int done) {
    if (done <= chunksReported) return;
    chunksReported = done;
    if (file != null) listener.chunksDone(file, done, totalChunks());
  }

  private int add(String text) {
    texts.add(text);
    return texts.size() - 1;
  }

  /**
   * The sentences of every chunk, in document offsets: each chunk's text segmented alone in its
   * document's language, so the spans are the ones compression finds when it segments the chunk.
   */
  private List<List<List<Span>>> sentences(SentenceSegmenter segmenter) {
    return IntStream.range(0, docs.size()).parallel().mapToObj(i -> {
      List<List<Span>> perChunk = new ArrayList<>(chunks.get(i).size());
      for (Chunk chunk : chunks.get(i)) {
        int at = chunk.span().start();
        List<Span> spans = new ArrayList<>();
        for (Span s : segmenter.split(chunk.text(), docs.get(i).language())) {
          if (!s.of(chunk.text()).isBlank()) spans.add(new Span(at + s.start(), at + s.end()));
        }
        perChunk.add(spans);
      }
      return perChunk;
    }).toList();
  }

  /** The windows a chunk is embedded in: the chunk itself when it is small enough. */
  private static List<Span> windows(Document doc, Chunk chunk, int vectorWindow, TokenChunker windowChunker) {
    if (windowChunker == null || chunk.tokens() <= vectorWindow) return List.of(chunk.span());
    Document part = new Document(doc.id(), "", "", doc.language(), null, chunk.text());
    List<Span> out = new ArrayList<>();
    for (Chunk w : windowChunker.chunk(part)) {
      out.add(new Span(chunk.span().start() + w.span().start(), chunk.span().start() + w.span().end()));
    }
    return out;
  }
}
