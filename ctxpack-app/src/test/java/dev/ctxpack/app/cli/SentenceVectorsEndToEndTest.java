package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.IndexSentenceVectors;
import dev.ctxpack.compress.Sentence;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.ingest.Ingestor;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.onnx.Embedders;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.retrieve.HybridRetriever;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sentence vectors computed by MiniLM at ingestion, stored quantised in a Lucene index, and served
 * to query-aware compression by {@link IndexSentenceVectors}.
 */
class SentenceVectorsEndToEndTest {
  @TempDir Path dir;
  private final SentenceSegmenter segmenter = new SentenceSegmenter();
  private final Embedder minilm = Embedders.byName("minilm");

  private static final String MINUTES = "The committee met on Monday. It approved the budget for the new library. "
      + "Dr. Silva presented the plans in detail! Were there objections? None were raised. "
      + "Construction starts in spring and should take two years. The library will hold 40,000 books. "
      + "A café on the ground floor is planned as well. Parking remains a concern for residents nearby. "
      + "The next meeting is in March.";
  private static final String PENGUINS = "Penguins eat fish and krill. They dive deep to catch their prey. "
      + "Emperor penguins breed during the Antarctic winter.";

  private Path corpus() throws Exception {
    Path f = dir.resolve("docs.jsonl");
    Files.writeString(f, "{\"_id\": \"minutes\", \"title\": \"Minutes\", \"text\": \"" + MINUTES + "\"}\n"
        + "{\"_id\": \"penguins\", \"title\": \"Penguins\", \"text\": \"" + PENGUINS + "\"}\n");
    return f;
  }

  private Index ingest(Path corpus, Path at, boolean sentenceVectors) throws Exception {
    Index index = Indexes.open(IndexSpec.ofPath(at));
    IngestOptions o = IngestOptions.of(new TokenChunker(Tokenizers.defaultTokenizer(), 40, 0.15), minilm)
        .withSentenceVectors(sentenceVectors);
    var s = new Ingestor(index, Loaders.defaults(), o, null).ingest(List.of(corpus));
    assertThat(s.failed()).isEmpty();
    return index;
  }

  /** Every chunk of the index, through BM25 on a word they all share. */
  private static List<Chunk> chunks(Index index) throws Exception {
    List<Chunk> out = new ArrayList<>();
    for (String docId : List.of("minutes", "penguins")) {
      int n = index.find(docId).orElseThrow().chunks();
      for (int i = 0; i < n; i++) out.add(chunk(index, docId + "#" + i));
    }
    return out;
  }

  private static Chunk chunk(Index index, String id) throws Exception {
    String text = index.document(id.substring(0, id.indexOf('#'))).orElseThrow().text();
    for (Candidate c : index.searchSparse(text, 50)) if (c.chunk().id().equals(id)) return c.chunk();
    throw new AssertionError("no chunk " + id);
  }

  @Test
  void storedSentenceVectorsAreTheSegmentersSentencesOfEachChunkEmbeddedAlone() throws Exception {
    try (Index index = ingest(corpus(), dir.resolve("idx"), true)) {
      List<Chunk> chunks = chunks(index);
      assertThat(chunks).hasSizeGreaterThan(2);
      var stored = index.sentenceVectors(chunks.stream().map(Chunk::id).toList());
      assertThat(stored.keySet()).containsExactlyInAnyOrderElementsOf(chunks.stream().map(Chunk::id).toList());
      for (Chunk c : chunks) {
        List<Span> expected = segmenter.split(c.text(), Language.EN).stream()
            .map(s -> new Span(c.span().start() + s.start(), c.span().start() + s.end())).toList();
        List<Index.SentenceVector> got = stored.get(c.id());
        assertThat(got).extracting(Index.SentenceVector::span).containsExactlyElementsOf(expected);
        String text = index.document(c.docId()).orElseThrow().text();
        List<float[]> direct = minilm.embed(expected.stream().map(s -> s.of(text)).toList());
        for (int i = 0; i < got.size(); i++) {
          assertThat(got.get(i).docId()).isEqualTo(c.docId());
          assertThat(Embedder.dot(got.get(i).vector(), direct.get(i))).isGreaterThan(0.99);
        }
      }
    }
  }

  @Test
  void aPackEmbedsItsQueryOnceForRetrievalAndCompressionWithTheSamePackage() throws Exception {
    try (Index index = ingest(corpus(), dir.resolve("idx"), true)) {
      String query = "What do penguins eat in winter?";
      CountingEmbedder counting = new CountingEmbedder(minilm);
      DefaultContextPacker packer = DefaultContextPacker.builder().retriever(new HybridRetriever(index, counting))
          .sentenceVectors(new IndexSentenceVectors(index, counting)).build();
      // The same stages over an embedder that runs the model on every call, as before requests remembered vectors.
      CountingEmbedder everyCall = new CountingEmbedder(minilm) {
        @Override
        public float[] embed(String text) {
          return embed(List.of(text)).get(0);
        }
      };
      DefaultContextPacker unremembered = DefaultContextPacker.builder()
          .retriever(new HybridRetriever(index, everyCall)).sentenceVectors(new IndexSentenceVectors(index, everyCall)).build();
      PackOptions o = PackOptions.builder().budget(300).build();
      ContextPackage once = packer.pack(query, o);
      ContextPackage twice = unremembered.pack(query, o);

      assertThat(counting.batches.stream().filter(List.of(query)::equals)).hasSize(1);
      assertThat(everyCall.batches.stream().filter(List.of(query)::equals)).hasSize(2);
      assertThat(once.sources()).isNotEmpty();
      assertThat(once.prompt()).isEqualTo(twice.prompt());
      assertThat(once.trace()).isEqualTo(twice.trace());
      // Nothing outlives the request: the next pack runs the model for its query again.
      packer.pack(query, o);
      assertThat(counting.batches.stream().filter(List.of(query)::equals)).hasSize(2);
    }
  }

  @Test
  void indexSentenceVectorsServesStoredSentencesAndEmbedsOnlyTheOthersInOneBatch() throws Exception {
    try (Index index = ingest(corpus(), dir.resolve("idx"), true)) {
      Chunk penguins = chunk(index, "penguins#0");
      Chunk minutes = chunk(index, "minutes#0");
      List<CompressInput> inputs = List.of(
          new CompressInput("p", List.of(new CompressInput.Part(penguins.text(), "penguins", penguins.span().start())),
              "Penguins", 1.0, List.of(penguins.id())),
          // Two parts: the chunk's, and a piece given directly (no document, so never stored).
          new CompressInput("m", List.of(new CompressInput.Part(minutes.text(), "minutes", minutes.span().start()),
              CompressInput.Part.of("Seals also eat fish.")), "Minutes", 0.5, List.of(minutes.id())));
      List<Sentence> sentences = sentences(inputs);
      Sentence direct = sentences.get(sentences.size() - 1);
      assertThat(direct.text()).isEqualTo("Seals also eat fish.");

      CountingEmbedder counting = new CountingEmbedder(minilm);
      IndexSentenceVectors vectors = new IndexSentenceVectors(index, counting);
      assertThat(vectors.id()).isEqualTo("index+" + minilm.id());
      float[][] got = vectors.sentences(inputs, sentences);
      assertThat(got.length).isEqualTo(sentences.size());
      List<float[]> expected = minilm.embed(sentences.stream().map(Sentence::text).toList());
      for (int i = 0; i < got.length; i++) {
        assertThat(got[i]).as(sentences.get(i).text()).isNotNull();
        assertThat(Embedder.dot(got[i], expected.get(i))).isGreaterThan(0.99);
      }
      // Only the sentence the index does not hold went through the model, in one call.
      assertThat(counting.batches).containsExactly(List.of("Seals also eat fish."));

      float[] q = vectors.query("What do penguins eat?");
      assertThat(q).containsExactly(minilm.embed("What do penguins eat?"));
      assertThat(Embedder.dot(q, got[0])).isGreaterThan(Embedder.dot(q, got[sentences.size() - 2]));
      // MiniLM was trained on English: no query vector for a Portuguese query.
      assertThat(vectors.query("O que os pinguins comem no inverno da Antártida?")).isNull();

      IndexSentenceVectors storedOnly = new IndexSentenceVectors(index, null);
      assertThat(storedOnly.id()).isEqualTo("index");
      assertThat(storedOnly.query("What do penguins eat?")).isNull();
      float[][] noFallback = storedOnly.sentences(inputs, sentences);
      assertThat(noFallback[sentences.size() - 1]).isNull();
      for (int i = 0; i < sentences.size() - 1; i++) assertThat(noFallback[i]).containsExactly(got[i]);
    }
  }

  @Test
  void withoutStoredSentenceVectorsEverySentenceComesFromTheEmbedder() throws Exception {
    try (Index index = ingest(corpus(), dir.resolve("idx"), false)) {
      Chunk penguins = chunk(index, "penguins#0");
      assertThat(index.sentenceVectors(List.of(penguins.id()))).isEmpty();
      List<CompressInput> inputs = List.of(new CompressInput("p",
          List.of(new CompressInput.Part(penguins.text(), "penguins", penguins.span().start())), "", 1.0,
          List.of(penguins.id())));
      List<Sentence> sentences = sentences(inputs);
      CountingEmbedder counting = new CountingEmbedder(minilm);
      float[][] got = new IndexSentenceVectors(index, counting).sentences(inputs, sentences);
      assertThat(counting.batches).containsExactly(sentences.stream().map(Sentence::text).toList());
      assertThat(List.of(got)).hasSize(sentences.size()).doesNotContainNull();
      assertThat(java.util.Arrays.asList(new IndexSentenceVectors(index, null).sentences(inputs, sentences)))
          .hasSize(sentences.size()).containsOnlyNulls();
      // With a cap below the sentences missing, none is embedded: the request goes lexical, fast.
      CountingEmbedder capped = new CountingEmbedder(minilm);
      assertThat(sentences.size()).isGreaterThan(1);
      assertThat(java.util.Arrays.asList(new IndexSentenceVectors(index, capped, sentences.size() - 1).sentences(inputs, sentences)))
          .containsOnlyNulls();
      assertThat(capped.batches).isEmpty();
      assertThat(List.of(new IndexSentenceVectors(index, capped, sentences.size()).sentences(inputs, sentences)))
          .doesNotContainNull();
    }
  }

  @Test
  void anotherEmbedderThanTheIndexsIsRefused() throws Exception {
    try (Index index = ingest(corpus(), dir.resolve("idx"), true)) {
      Chunk penguins = chunk(index, "penguins#0");
      List<CompressInput> inputs = List.of(new CompressInput("p",
          List.of(new CompressInput.Part(penguins.text(), "penguins", penguins.span().start())), "", 1.0,
          List.of(penguins.id())));
      Embedder other = new Embedder() {
        @Override
        public String id() {
          return "other-model";
        }

        @Override
        public int dimension() {
          return minilm.dimension();
        }

        @Override
        public List<float[]> embed(List<String> texts) {
          return minilm.embed(texts);
        }
      };
      assertThatThrownBy(() -> new IndexSentenceVectors(index, other).sentences(inputs, sentences(inputs)))
          .hasMessageContaining("other-model").hasMessageContaining(minilm.id());
    }
  }

  @Test
  void ingestWithNoSentenceVectorsStoresNoneAndWithoutTheFlagStoresThem() throws Exception {
    Path corpus = corpus();
    String without = dir.resolve("without").toString();
    CliRunner r = CliRunner.run("ingest", "--index", without, "--no-sentence-vectors", "--format", "json", corpus.toString());
    assertThat(r.code()).as(r.err()).isZero();
    try (Index index = Indexes.openExisting(IndexSpec.ofPath(Path.of(without)))) {
      assertThat(index.stats().vectors()).isPositive();
      assertThat(index.sentenceVectors(List.of("minutes#0", "penguins#0"))).isEmpty();
    }
    String with = dir.resolve("with").toString();
    assertThat(CliRunner.run("ingest", "--index", with, corpus.toString()).code()).isZero();
    try (Index index = Indexes.openExisting(IndexSpec.ofPath(Path.of(with)))) {
      assertThat(index.sentenceVectors(List.of("minutes#0", "penguins#0"))).containsOnlyKeys("minutes#0", "penguins#0");
    }
    // Switching the option re-ingests: the stored content hash includes it.
    CliRunner again = CliRunner.run("ingest", "--index", with, "--no-sentence-vectors", "--format", "json", corpus.toString());
    assertThat(again.json().get("updated").asInt()).isEqualTo(2);
    try (Index index = Indexes.openExisting(IndexSpec.ofPath(Path.of(with)))) {
      assertThat(index.sentenceVectors(List.of("minutes#0", "penguins#0"))).isEmpty();
    }
    assertThat(CliRunner.run("ingest", "--help").out()).contains("--no-sentence-vectors");
  }

  /** Each part segmented apart, as compression does. */
  private List<Sentence> sentences(List<CompressInput> inputs) {
    List<Sentence> out = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      List<CompressInput.Part> parts = inputs.get(i).parts();
      for (int p = 0; p < parts.size(); p++) {
        String text = parts.get(p).text();
        List<Span> spans = segmenter.split(text, Language.EN);
        for (int k = 0; k < spans.size(); k++) {
          Span s = spans.get(k);
          out.add(new Sentence(i, p, k, s.start(), s.end(), s.of(text)));
        }
      }
    }
    return out;
  }

  /** Records every batch it is asked to embed. */
  private static class CountingEmbedder implements Embedder {
    final Embedder delegate;
    final List<List<String>> batches = new ArrayList<>();

    CountingEmbedder(Embedder delegate) {
      this.delegate = delegate;
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public Set<Language> languages() {
      return delegate.languages();
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      batches.add(List.copyOf(texts));
      return delegate.embed(texts);
    }
  }
}
