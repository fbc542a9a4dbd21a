package dev.ctxpack.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.TokenChunker;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.CorpusMarks;
import dev.ctxpack.index.SearchableIndex;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.token.Tokenizers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a principal's view of the index lets through: labels filter every read, before scoring. */
class AccessFilterTest {
  @TempDir Path dir;
  private final TokenChunker chunker = new TokenChunker(Tokenizers.defaultTokenizer(), 60, 0.15);

  /** A document labelled {@code labels} (none: readable by all), every chunk with vector {@code v}. */
  private IndexEntry entry(String id, String text, float[] v, CorpusMarks marks, String... labels) {
    Map<String, String> meta = labels.length == 0 ? Map.of() : Map.of(Access.METADATA_KEY, Access.join(List.of(labels)));
    Document d = new Document(id, "", "Doc " + id, Language.EN, meta, text);
    List<Chunk> chunks = chunker.chunk(d);
    List<float[]> vs = chunks.stream().map(c -> v.clone()).toList();
    return IndexEntry.withChunkVectors(d, "/src/" + id, "h" + id, chunks, vs, "test-emb").withCorpus(marks);
  }

  private static float[] unit(float... v) {
    return Embedder.normalize(v);
  }

  private LuceneIndex corpus() throws Exception {
    LuceneIndex index = LuceneIndex.open(dir);
    index.write(List.of(
        // The secret document matches the query best on both signals.
        entry("secret", "Salary bands salary bands salary bands for every engineer in 2026.", unit(1, 0, 0), CorpusMarks.NONE, "hr"),
        entry("public", "The handbook mentions salary reviews once a year.", unit(0.6f, 0.8f, 0), CorpusMarks.NONE),
        entry("eng", "Engineers are reviewed on salary and scope by their managers.", unit(0.8f, 0.6f, 0),
            new CorpusMarks(null, List.of(), "secret", 0.9, 0), "eng", "leads")), List.of());
    return index;
  }

  @Test
  void searchesNeverScoreWhatThePrincipalCannotRead() throws Exception {
    try (LuceneIndex index = corpus()) {
      assertThat(index.searchSparse("salary bands", 1).get(0).doc().id()).isEqualTo("secret");
      assertThat(index.searchDense(unit(1, 0, 0), 1).get(0).doc().id()).isEqualTo("secret");

      SearchableIndex eng = index.readableBy(Access.labels(List.of("eng")));
      // k = 1 still finds a readable chunk: the filter acts inside the search, not on its top k.
      assertThat(eng.searchSparse("salary bands", 1)).hasSize(1).allMatch(c -> !c.doc().id().equals("secret"));
      assertThat(eng.searchDense(unit(1, 0, 0), 1)).extracting(c -> c.doc().id()).containsExactly("eng");
      assertThat(ids(eng.searchSparse("salary", 50))).isEqualTo(Set.of("public", "eng"));
      assertThat(ids(eng.searchDense(unit(1, 0, 0), 50))).isEqualTo(Set.of("public", "eng"));

      SearchableIndex nobody = index.readableBy(Access.labels(List.of()));
      assertThat(ids(nobody.searchSparse("salary", 50))).isEqualTo(Set.of("public"));
      // A term only unreadable documents hold finds nothing (and fails nothing).
      assertThat(nobody.searchSparse("bands 2026", 50)).extracting(c -> c.doc().id()).doesNotContain("secret");
      SearchableIndex hr = index.readableBy(Access.labels(List.of("hr", "other")));
      assertThat(ids(hr.searchSparse("salary", 50))).isEqualTo(Set.of("secret", "public"));
    }
  }

  @Test
  void scoresAreThoseOfAnIndexHoldingOnlyWhatThePrincipalReads(@TempDir Path alone) throws Exception {
    String[] texts = {
        "Salary bands and salary reviews for engineers are decided in March each year.",
        "The salary of a manager depends on the size of the team and on the salary bands.",
        "Reviews happen twice a year for the search team and once for the others.",
        "Bands of wolves roam the northern forests in winter.",
        "The engineering handbook explains reviews, bands, levels and promotions in detail.",
    };
    List<IndexEntry> all = new ArrayList<>();
    List<IndexEntry> readable = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      // Every other document is labelled "hr" and holds the query's terms many times.
      IndexEntry open = entry("open" + i, texts[i], unit(1, 0, 0), CorpusMarks.NONE, i % 2 == 0 ? new String[] {"eng"} : new String[0]);
      all.add(open);
      readable.add(open);
      all.add(entry("hidden" + i, (texts[i] + " salary bands reviews ").repeat(3), unit(1, 0, 0), CorpusMarks.NONE, "hr"));
    }
    try (LuceneIndex index = LuceneIndex.open(dir); LuceneIndex only = LuceneIndex.open(alone)) {
      index.write(all, List.of());
      only.write(readable, List.of());
      SearchableIndex eng = index.readableBy(Access.labels(List.of("eng")));
      for (String q : List.of("salary bands", "reviews", "engineers handbook bands wolves")) {
        List<Candidate> viewed = eng.searchSparse(q, 50);
        List<Candidate> expected = only.searchSparse(q, 50);
        assertThat(viewed).extracting(c -> c.chunk().id()).as(q).containsExactlyElementsOf(
            expected.stream().map(c -> c.chunk().id()).toList());
        for (int i = 0; i < viewed.size(); i++) {
          double a = viewed.get(i).scores().getOr(dev.ctxpack.model.Signal.BM25, 0);
          double b = expected.get(i).scores().getOr(dev.ctxpack.model.Signal.BM25, 0);
          assertThat(a).as(q).isCloseTo(b, org.assertj.core.data.Offset.offset(1e-4 * Math.max(1, b)));
        }
        // The whole index's statistics would give other scores: the check above can fail.
        assertThat(index.searchSparse(q, 50).stream().filter(c -> c.doc().id().startsWith("open"))
            .mapToDouble(c -> c.scores().getOr(dev.ctxpack.model.Signal.BM25, 0)).max().orElse(0))
            .as(q).isNotCloseTo(viewed.get(0).scores().getOr(dev.ctxpack.model.Signal.BM25, 0), org.assertj.core.data.Offset.offset(1e-3));
      }
    }
  }

  @Test
  void documentsVectorsMarksAndCountsAreFilteredToo() throws Exception {
    try (LuceneIndex index = corpus()) {
      SearchableIndex eng = index.readableBy(Access.labels(List.of("leads")));
      assertThat(eng.document("secret")).isEmpty();
      assertThat(eng.document("eng")).isPresent();
      assertThat(eng.stats().documents()).isEqualTo(2);
      assertThat(eng.stats().chunks()).isEqualTo(index.stats().chunks() - index.find("secret").orElseThrow().chunks());
      List<String> secretChunks = new ArrayList<>();
      for (Candidate c : index.searchSparse("salary bands", 50)) if (c.doc().id().equals("secret")) secretChunks.add(c.chunk().id());
      assertThat(secretChunks).isNotEmpty();
      assertThat(eng.chunkVectors(secretChunks)).isEmpty();
      assertThat(eng.sentenceVectors(secretChunks)).isEmpty();
      assertThat(eng.chunkMarks(secretChunks)).isEmpty();

      // The copy's near-duplicate mark names a document the principal cannot read: it is not shown.
      String engChunk = eng.searchSparse("engineers reviewed", 1).get(0).chunk().id();
      assertThat(index.chunkMarks(List.of(engChunk)).get(engChunk).nearDuplicateOf()).isEqualTo("secret");
      assertThat(eng.chunkMarks(List.of(engChunk)).get(engChunk).nearDuplicateOf()).isEmpty();
    }
  }

  @Test
  void aViewIsNotNarrowedAgainAndEverythingIsTheIndexItself() throws Exception {
    try (LuceneIndex index = corpus()) {
      assertThat(index.readableBy(Access.ALL)).isSameAs(index);
      assertThat(index.documentsWithoutAccessTerms()).isZero();
      SearchableIndex eng = index.readableBy(Access.labels(List.of("eng")));
      assertThatThrownBy(() -> eng.readableBy(Access.ALL)).isInstanceOf(UnsupportedOperationException.class);
      assertThat(index.find("secret")).isPresent();
    }
  }

  @Test
  void documentsWrittenBeforeAccessTermsAreCounted() throws Exception {
    corpus().close();
    // A record as an index of an earlier version holds it: no access terms.
    try (var dirs = org.apache.lucene.store.FSDirectory.open(dir);
        var w = new org.apache.lucene.index.IndexWriter(dirs, new org.apache.lucene.index.IndexWriterConfig())) {
      var d = new org.apache.lucene.document.Document();
      d.add(new org.apache.lucene.document.StringField(Fields.TYPE, Fields.TYPE_DOC, org.apache.lucene.document.Field.Store.YES));
      d.add(new org.apache.lucene.document.StringField(Fields.DOC_KEY, "legacy", org.apache.lucene.document.Field.Store.YES));
      w.addDocument(d);
      w.commit();
    }
    try (LuceneIndex index = LuceneIndex.openExisting(dir)) {
      assertThat(index.documentsWithoutAccessTerms()).isEqualTo(1);
      assertThat(index.readableBy(Access.labels(List.of("eng"))).stats().documents()).isEqualTo(2);
    }
  }

  @Test
  void labelsAreChecked() {
    assertThatThrownBy(() -> Access.join(List.of("a,b"))).hasMessageContaining("comma");
    assertThatThrownBy(() -> Access.labels(List.of(" x"))).hasMessageContaining("spaces");
    assertThatThrownBy(() -> Access.labels(List.of(""))).hasMessageContaining("blank");
    assertThat(Access.parse("b, a ,,")).containsExactly("a", "b");
    assertThat(Access.labels(List.of("a")).mayRead(List.of())).isTrue();
    assertThat(Access.labels(List.of("a")).mayRead(List.of("b"))).isFalse();
    assertThat(Access.ALL.mayRead(List.of("b"))).isTrue();
  }

  private static Set<String> ids(List<Candidate> cs) {
    Set<String> out = new java.util.TreeSet<>();
    for (Candidate c : cs) out.add(c.doc().id());
    return out;
  }
}
