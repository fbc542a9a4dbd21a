package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.CorpusCatalog;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.WritableIndex;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the ingestor computes for sentence vectors, seen through an in-memory index and a small
 * deterministic embedder (words hashed into a vector): which texts are embedded, how they are
 * batched, and which spans the vectors get. The Lucene round trip is tested in ctxpack-lucene, and
 * with the real model in ctxpack-app.
 */
class SentenceVectorIngestTest {
  @TempDir Path dir;
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 60, 0.15);
  private final SentenceSegmenter segmenter = new SentenceSegmenter();

  private static final String FIRST = "The committee met on Monday. It approved the budget for the new library. "
      + "Dr. Silva presented the plans in detail! Were there objections? None were raised. "
      + "Construction starts in spring and should take two years. The library will hold 40,000 books. "
      + "A café on the ground floor is planned as well. Parking remains a concern for residents nearby. "
      + "The next meeting is in March.";
  private static final String SECOND = "Penguins eat fish. They dive deep to catch it. None were raised.";

  private Path corpus() throws IOException {
    Path f = dir.resolve("minutes.jsonl");
    Files.writeString(f, "{\"_id\": \"m1\", \"title\": \"Minutes\", \"text\": \"" + FIRST + "\"}\n"
        + "{\"_id\": \"p1\", \"title\": \"Penguins\", \"text\": \"" + SECOND + "\"}\n");
    return f;
  }

  @Test
  void everySentenceOfEveryChunkIsEmbeddedAloneWithItsDocumentOffsets() throws IOException {
    HashingEmbedder embedder = new HashingEmbedder();
    MemoryIndex index = new MemoryIndex();
    new Ingestor(index, Loaders.defaults(), IngestOptions.of(chunker, embedder), null).ingest(List.of(corpus()));
    IndexEntry m1 = index.entries.get("m1");
    assertThat(m1.chunks()).hasSizeGreaterThan(1);
    for (IndexEntry e : index.entries.values()) {
      Document d = e.doc();
      List<ChunkVector> expected = new ArrayList<>();
      for (int c = 0; c < e.chunks().size(); c++) {
        Chunk chunk = e.chunks().get(c);
        for (Span s : segmenter.split(chunk.text(), d.language())) {
          expected.add(new ChunkVector(c, new Span(chunk.span().start() + s.start(), chunk.span().start() + s.end()),
              embedder.embed(s.of(chunk.text()))));
        }
      }
      assertThat(e.sentenceVectors()).extracting(ChunkVector::chunk)
          .containsExactlyElementsOf(expected.stream().map(ChunkVector::chunk).toList());
      assertThat(e.sentenceVectors()).extracting(ChunkVector::span)
          .containsExactlyElementsOf(expected.stream().map(ChunkVector::span).toList());
      for (int i = 0; i < expected.size(); i++) {
        // The sentence alone: no title before it.
        assertThat(e.sentenceVectors().get(i).vector()).containsExactly(expected.get(i).vector());
      }
      assertThat(e.vectors()).isNotEmpty();
    }
    // The title goes with the windows only.
    assertThat(embedder.texts.stream().filter(t -> t.startsWith("Penguins\n"))).containsExactly("Penguins\n" + SECOND);
    assertThat(embedder.texts).contains("Penguins eat fish.", "None were raised.");
  }

  @Test
  void windowsAndSentencesOfAFileShareBatchesAndARepeatedSentenceIsEmbeddedOnce() throws IOException {
    HashingEmbedder embedder = new HashingEmbedder();
    MemoryIndex index = new MemoryIndex();
    new Ingestor(index, Loaders.defaults(), IngestOptions.of(chunker, embedder), null).ingest(List.of(corpus()));
    // Two documents, windows and sentences: fewer than one batch of texts, so one call.
    assertThat(embedder.calls).isEqualTo(1);
    assertThat(embedder.texts).doesNotHaveDuplicates();
    assertThat(Collections.frequency(embedder.texts, "None were raised.")).isEqualTo(1);
    long sentences = index.entries.values().stream().mapToLong(e -> e.sentenceVectors().size()).sum();
    long windows = index.entries.values().stream().mapToLong(e -> e.vectors().size()).sum();
    assertThat(embedder.texts).hasSizeLessThan((int) (sentences + windows));
  }

  @Test
  void turnedOffOrWithoutAnEmbedderThereAreNoneAndTurningItOnReingests() throws IOException {
    Path f = corpus();
    HashingEmbedder embedder = new HashingEmbedder();
    MemoryIndex index = new MemoryIndex();
    IngestOptions off = IngestOptions.of(chunker, embedder).withSentenceVectors(false);
    assertThat(off.storesSentenceVectors()).isFalse();
    IngestSummary s = new Ingestor(index, Loaders.defaults(), off, null).ingest(List.of(f));
    assertThat(s.added()).isEqualTo(2);
    assertThat(index.entries.values()).allSatisfy(e -> {
      assertThat(e.sentenceVectors()).isEmpty();
      assertThat(e.vectors()).isNotEmpty();
    });
    assertThat(embedder.texts).doesNotContain("None were raised.");
    assertThat(new Ingestor(index, Loaders.defaults(), off, null).ingest(List.of(f)).unchanged()).isEqualTo(2);

    IngestOptions on = off.withSentenceVectors(true);
    IngestSummary again = new Ingestor(index, Loaders.defaults(), on, null).ingest(List.of(f));
    assertThat(again.updated()).isEqualTo(2);
    assertThat(index.entries.values()).allSatisfy(e -> assertThat(e.sentenceVectors()).isNotEmpty());
    assertThat(new Ingestor(index, Loaders.defaults(), on, null).ingest(List.of(f)).unchanged()).isEqualTo(2);

    MemoryIndex bm25 = new MemoryIndex();
    IngestOptions none = IngestOptions.of(chunker, null);
    assertThat(none.sentenceVectors()).isTrue();
    assertThat(none.storesSentenceVectors()).isFalse();
    new Ingestor(bm25, Loaders.defaults(), none, null).ingest(List.of(f));
    assertThat(bm25.entries.values()).allSatisfy(e -> assertThat(e.hasVectors()).isFalse());
  }

  /** Words hashed into 64 dimensions, unit length; records every call. */
  static final class HashingEmbedder implements Embedder {
    final List<String> texts = new ArrayList<>();
    int calls;

    @Override
    public String id() {
      return "hashing-64";
    }

    @Override
    public int dimension() {
      return 64;
    }

    @Override
    public synchronized List<float[]> embed(List<String> batch) {
      calls++;
      texts.addAll(batch);
      List<float[]> out = new ArrayList<>(batch.size());
      for (String t : batch) out.add(vector(t));
      return out;
    }

    @Override
    public float[] embed(String text) {
      return vector(text);
    }

    static float[] vector(String text) {
      float[] v = new float[64];
      for (String w : text.toLowerCase(java.util.Locale.ROOT).split("\\W+")) {
        if (!w.isEmpty()) v[Math.floorMod(w.hashCode(), 64)] += 1;
      }
      v[63] += 0.01f;
      return Embedder.normalize(v);
    }
  }

  /** Keeps the committed entries by document id. */
  /**
   * What the ingestor writes, kept in memory: the write role and the corpus catalog (the two roles
   * an {@link Ingestor} takes), committed at {@code commit()} as a real index would.
   */
  static final class MemoryIndex implements WritableIndex, CorpusCatalog {
    final Map<String, IndexEntry> entries = new LinkedHashMap<>();
    final Map<String, DuplicateRecord> duplicates = new java.util.TreeMap<>();

    private StoredDoc stored(IndexEntry e) {
      return new StoredDoc(e.doc().id(), e.doc().uri(), e.doc().title(), e.sourcePath(), e.contentHash(), e.chunks().size());
    }

    @Override
    public Optional<StoredDoc> find(String docId) {
      return Optional.ofNullable(entries.get(docId)).map(this::stored);
    }

    @Override
    public List<StoredDoc> findBySourcePath(String prefix) {
      return entries.values().stream().filter(e -> e.sourcePath().startsWith(prefix)).map(this::stored).toList();
    }

    @Override
    public Batch begin() {
      return new Batch() {
        final Map<String, IndexEntry> puts = new LinkedHashMap<>();
        final List<String> deletes = new ArrayList<>();
        final Map<String, DuplicateRecord> dups = new LinkedHashMap<>();

        @Override
        public void put(IndexEntry entry) {
          puts.put(entry.doc().id(), entry);
        }

        @Override
        public void delete(String docId) {
          deletes.add(docId);
        }

        @Override
        public void recordDuplicate(DuplicateRecord copy) {
          dups.put(copy.path() + "\u0000" + copy.of(), copy);
        }

        @Override
        public boolean compact() {
          return false; // one map: nothing to merge
        }

        @Override
        public void commit() {
          for (String id : deletes) {
            entries.remove(id);
            duplicates.values().removeIf(d -> d.of().equals(id));
          }
          for (String id : puts.keySet()) duplicates.values().removeIf(d -> d.of().equals(id));
          entries.putAll(puts);
          duplicates.putAll(dups);
          puts.clear();
          deletes.clear();
          dups.clear();
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public int remove(Collection<String> docIds) {
      int n = 0;
      for (String id : docIds) if (entries.remove(id) != null) n++;
      return n;
    }

    @Override
    public List<SignedDoc> documentsSharingBands(Collection<String> bandKeys) {
      List<SignedDoc> out = new ArrayList<>();
      for (IndexEntry e : entries.values()) {
        if (e.corpus().signature() != null && !Collections.disjoint(e.corpus().bandKeys(), bandKeys)) {
          out.add(new SignedDoc(e.doc().id(), e.sourcePath(), e.corpus().signature()));
        }
      }
      out.sort(java.util.Comparator.comparing(SignedDoc::id));
      return out;
    }

    @Override
    public List<CorpusDoc> corpusDocuments() {
      List<CorpusDoc> out = new ArrayList<>();
      for (IndexEntry e : entries.values()) {
        out.add(new CorpusDoc(e.doc().id(), e.doc().uri(), e.doc().title(), e.sourcePath(), e.doc().metadata(),
            e.corpus().nearDuplicateOf(), e.corpus().similarity(), e.corpus().fileTime(), e.chunks().size()));
      }
      out.sort(java.util.Comparator.comparing(CorpusDoc::id));
      return out;
    }

    @Override
    public List<DuplicateRecord> duplicates() {
      return List.copyOf(duplicates.values());
    }

    /** By the chunk keys ingestion computed ({@link dev.ctxpack.index.CorpusMarks#chunkKeys()}). */
    @Override
    public List<Recurring> recurringChunks(int minDocuments) {
      Map<String, java.util.TreeSet<String>> docs = new java.util.TreeMap<>();
      Map<String, String> texts = new java.util.HashMap<>();
      for (IndexEntry e : entries.values()) {
        List<String> keys = e.corpus().chunkKeys();
        for (int i = 0; i < keys.size(); i++) {
          docs.computeIfAbsent(keys.get(i), k -> new java.util.TreeSet<>()).add(e.doc().id());
          texts.putIfAbsent(keys.get(i), e.chunks().get(i).text());
        }
      }
      List<Recurring> out = new ArrayList<>();
      docs.forEach((k, ids) -> {
        if (ids.size() >= minDocuments) out.add(new Recurring(k, texts.get(k), List.copyOf(ids)));
      });
      out.sort(java.util.Comparator.comparingInt((Recurring r) -> -r.docIds().size()).thenComparing(Recurring::key));
      return out;
    }
  }

}
